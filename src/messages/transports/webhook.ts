/** The morning report and alerts to a webhook: a JSON POST with undici; each failure a
 * DeliveryError (transport.ts). */
import { STATUS_CODES } from "node:http";
import { Agent, request } from "undici";
import { errorCode } from "../../api/error-details.js";
import { networkOutcome } from "../../api/retry-policy.js";
import { durationText } from "../../clock/durations.js";
import { describeWebhookUrl } from "../../config/channel-addresses.js";
import { webhookTarget } from "../../config/webhook-credentials.js";
import { DEFAULT_DELIVERY_TIMEOUT_MS, DeliveryError, type DeliveryOptions } from "./transport.js";
// ---------------------------------------------------------------------------------------------
// Webhook

/**
 * POSTs `payload` as JSON to `url`. Any answer but 2xx is a failure; the answer's body is read
 * (a bounded amount) and discarded, so the connection closes cleanly. Redirects are not
 * followed: the report only ever goes where the setting says. Credentials in the URL go as Basic
 * authorization (config/webhook-credentials.ts).
 */
export async function postWebhook(
  url: string,
  payload: unknown,
  options: DeliveryOptions = {},
): Promise<void> {
  const target = describeWebhookUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const body = JSON.stringify(payload);
  if (body === undefined) throw new TypeError("postWebhook: the payload has no JSON form");
  const fail = (retryable: boolean, what: string) =>
    new DeliveryError("webhook", retryable, target, what);

  // An agent of its own, closed after: a delivery is rare, and its timeouts are this call's.
  const agent = new Agent({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const signal = AbortSignal.timeout(timeoutMs);
  const { url: address, authorization } = webhookTarget(url);
  let status: number;
  try {
    const response = await request(address, {
      method: "POST",
      dispatcher: agent,
      headers: {
        "content-type": "application/json",
        "user-agent": "pos-sync",
        ...(authorization === undefined ? {} : { authorization }),
        ...(options.idempotencyKey === undefined
          ? {}
          : { "idempotency-key": options.idempotencyKey }),
      },
      body,
      signal,
    });
    status = response.statusCode;
    // What a chat service answers ("ok") is not needed; the body is read only to end the exchange.
    await response.body.dump({ limit: 64 * 1024 });
  } catch (error) {
    const code = errorCode(error);
    if (signal.aborted || /TIMEOUT$/.test(code)) {
      throw fail(
        true,
        `${target} did not answer within ${durationText(timeoutMs, "seconds")}: check that it is up and that POS_REPORT_WEBHOOK_URL is right`,
      );
    }
    const outcome = networkOutcome(code);
    const check = "check POS_REPORT_WEBHOOK_URL";
    throw fail(
      outcome.retryable,
      `cannot reach ${target} (${outcome.description}, ${code}): ${check}`,
    );
  } finally {
    // Not awaited: closing waits for nothing the caller needs, and destroy never hangs.
    agent.destroy().catch(() => {});
  }
  if (status >= 200 && status < 300) return;
  const answered = `${target} answered ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
  if (status === 408 || status === 429 || status >= 500) {
    throw fail(true, `${answered}: not taken for now`);
  }
  if (status >= 300 && status < 400) {
    throw fail(
      false,
      `${answered}, a redirect, which pos-sync does not follow: set POS_REPORT_WEBHOOK_URL to the new address`,
    );
  }
  throw fail(false, `${answered}: check POS_REPORT_WEBHOOK_URL`);
}
