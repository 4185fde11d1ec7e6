/**
 * What becomes of a message the outbox could not send. A refusal that passes by itself (a server
 * down, busy or slow) waits and is tried again (backoff.ts); one that no retry can change (a
 * recipient the mail server does not know, a webhook answering 404) ends the message as failed,
 * with the server's answer: tried every hour for good, it would never go and the outbox would
 * never empty. A message whose recipient left the settings is retired: nothing would ever try it
 * again, and the settings are what the user changed to stop it.
 */
import { messageOf } from "../../errors.js";
import { recipientsOf, sameRecipient } from "../recipients.js";
import { type Channels, DeliveryError } from "../transports/transport.js";
import { retryDelayMs } from "./backoff.js";

export type AfterFailure =
  /** Refused for good: not tried again. */
  { ends: true; why: string } | { ends: false; why: string; retryAt: Date };

/**
 * The `attempt`-th attempt (1 for the first) failed with `error` at `now`. Anything but a
 * DeliveryError (a record that cannot be read) waits like a server down: nothing owed is dropped
 * for a fault of pos-sync's own.
 */
export function afterFailure(
  error: unknown,
  attempt: number,
  now: Date,
  waitScale: number,
): AfterFailure {
  if (error instanceof DeliveryError && !error.retryable) return { ends: true, why: error.message };
  const retryAt = new Date(now.getTime() + retryDelayMs(attempt) * waitScale);
  return { ends: false, why: messageOf(error), retryAt };
}

/** Why a message waiting for this recipient is retired, or undefined while the settings still
 * name it. */
export function whyRetired(
  recipient: { channel: string; recipient: string },
  report: Channels,
): string | undefined {
  if (recipientsOf(report).some((r) => sameRecipient(r, recipient))) return undefined;
  if (recipient.channel === "e-mail") {
    return report.mail === undefined
      ? "e-mail is no longer set up (POS_REPORT_SMTP_URL, POS_REPORT_FROM, POS_REPORT_TO)"
      : "POS_REPORT_TO no longer lists it";
  }
  if (recipient.channel === "webhook") {
    return report.webhookUrl === undefined
      ? "POS_REPORT_WEBHOOK_URL is no longer set"
      : "the webhook address changed (POS_REPORT_WEBHOOK_URL)";
  }
  return `pos-sync sends nothing by ${recipient.channel}`;
}
