/**
 * The outbox: sends the waiting messages that are due, each to its one recipient, and records
 * each attempt; a failed one waits (backoff.ts) with why, unless it was refused for good, which
 * ends it as failed (unsent.ts). A message is taken before it is sent (DeliveryStore.claim), so
 * that several processes sharing the database never send it twice. Messages for a recipient no
 * longer in the settings are retired first, so that the outbox empties: status shows them.
 */
import { createHash } from "node:crypto";
import type {
  DeliveryKind,
  DeliveryStore,
  NewDelivery,
  WaitingDelivery,
} from "../db/deliveries/deliveries.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { plural } from "../plural.js";
import {
  type Channels,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  DeliveryError,
  LONGEST_DELIVERY_MS,
  type OutgoingMail,
} from "./delivery.js";
import { sendMail } from "./mail.js";
import { type MailBody, type Message, mailBody, webhookBody } from "./message.js";
import type { Recipient } from "./recipients.js";
import { afterFailure, whyRetired } from "./unsent.js";
import { postWebhook } from "./webhook.js";

/** The message's record for each recipient, with the body its channel sends. */
export function deliveriesOf(
  kind: DeliveryKind,
  key: string,
  message: Message,
  recipients: readonly Recipient[],
): NewDelivery[] {
  return recipients.map((r) => ({
    kind,
    key,
    channel: r.channel,
    recipient: r.recipient,
    subject: message.subject,
    body: JSON.stringify(r.channel === "e-mail" ? mailBody(message) : webhookBody(message)),
  }));
}

export interface OutboxOptions {
  report: Channels;
  logger: Logger;
  /** The waits between attempts, as a share of the real ones (clock/waits.ts). */
  waitScale: number;
  now?: () => Date;
  /** Told of each attempt. */
  onAttempt?: (delivery: WaitingDelivery, outcome: "sent" | "failed") => void;
  signal?: AbortSignal;
  /** Every due message, page after page, rather than one page: `report --send` runs once, not
   * every minute, so its hundred and fifty recipients all go in that one run. */
  drain?: boolean;
  /** Leave the messages of a recipient the settings do not name as they are, rather than retire
   * them: `report --send`'s settings may be a cron line's, narrower than the daemon's. */
  leaveUnconfigured?: boolean;
}

/** The most messages one pass sends: a long outbox drains over a few passes, not in one burst. */
const PASS_LIMIT = 50;

/** How long a message taken for sending is left to its sender before another may take it: longer
 * than the longest a delivery may last. */
const CLAIM_MS = LONGEST_DELIVERY_MS + 4 * DEFAULT_DELIVERY_TIMEOUT_MS;

/** One id per message and recipient, whatever the attempt: an e-mail's Message-ID, a webhook's
 * Idempotency-Key, by which a receiver may tell a message sent twice. */
function idOf(delivery: WaitingDelivery): string {
  return createHash("sha256")
    .update(`${delivery.kind}\n${delivery.key}\n${delivery.recipient}`)
    .digest("hex")
    .slice(0, 32);
}

async function send(delivery: WaitingDelivery, report: Channels): Promise<void> {
  if (delivery.channel === "e-mail" && report.mail !== undefined) {
    const body = JSON.parse(delivery.body) as MailBody;
    const mail: OutgoingMail = {
      subject: delivery.subject,
      text: body.text,
      html: body.html,
      messageId: `<${idOf(delivery)}@pos-sync>`,
    };
    const receipt = await sendMail({ ...report.mail, to: [delivery.recipient] }, mail);
    if (receipt.rejected.length > 0) {
      throw new DeliveryError(
        "e-mail",
        false,
        delivery.recipient,
        `the mail server refused ${delivery.recipient}: check POS_REPORT_TO`,
      );
    }
    return;
  }
  if (delivery.channel === "webhook" && report.webhookUrl !== undefined) {
    await postWebhook(report.webhookUrl, JSON.parse(delivery.body), {
      idempotencyKey: idOf(delivery),
    });
    return;
  }
  throw new Error(`no ${delivery.channel} is configured`);
}

/** Retires the messages waiting for a recipient the settings no longer name; answers how many. */
async function retireUnconfigured(store: DeliveryStore, options: OutboxOptions): Promise<number> {
  const now = options.now ?? (() => new Date());
  let retired = 0;
  for (const recipient of await store.waitingRecipients()) {
    const why = whyRetired(recipient, options.report);
    if (why === undefined) continue;
    const count = await store.retire(recipient, now(), why);
    retired += count;
    if (count > 0) {
      options.logger.warn(
        { ...recipient, messages: count, reason: why },
        `retired ${count} ${plural("message", count)} waiting for a recipient no longer in the settings: ${why}`,
      );
    }
  }
  return retired;
}

/** Sends what is due (PASS_LIMIT of it, or all of it with `drain`), after retiring what no
 * setting names any more; answers how many were sent, how many attempts failed and how many
 * messages were retired. Stops early when `signal` aborts (the daemon stopping), and leaves a
 * channel's other messages for the next pass once one failed in a way that may pass (its server
 * down): one wait per pass, not one per message. */
export async function deliverWaiting(
  store: DeliveryStore,
  options: OutboxOptions,
): Promise<{ sent: number; failed: number; retired: number }> {
  const now = options.now ?? (() => new Date());
  const retired = options.leaveUnconfigured ? 0 : await retireUnconfigured(store, options);
  const down = new Set<string>();
  const tally = { sent: 0, failed: 0 };
  let after = 0;
  for (;;) {
    const due = await store.due(now(), PASS_LIMIT, after);
    for (const delivery of due) {
      if (options.signal?.aborted) break;
      after = delivery.id;
      if (down.has(delivery.channel)) continue;
      if (options.leaveUnconfigured && whyRetired(delivery, options.report) !== undefined) continue;
      await deliverOne(store, delivery, options, down, tally);
    }
    if (!options.drain || due.length < PASS_LIMIT || options.signal?.aborted) break;
  }
  return { ...tally, retired };
}

/** One attempt at one message: claimed, sent, and its outcome recorded. A channel found down
 * joins `down`. */
async function deliverOne(
  store: DeliveryStore,
  delivery: WaitingDelivery,
  options: OutboxOptions,
  down: Set<string>,
  tally: { sent: number; failed: number },
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const started = now();
  if (!(await store.claim(delivery, started, new Date(started.getTime() + CLAIM_MS)))) return;
  const attempt = delivery.attempts + 1;
  const about = {
    kind: delivery.kind,
    key: delivery.key,
    channel: delivery.channel,
    recipient: delivery.recipient,
    attempt,
  };
  try {
    await send(delivery, options.report);
  } catch (error) {
    const after = afterFailure(error, attempt, now(), options.waitScale);
    tally.failed++;
    options.onAttempt?.(delivery, "failed");
    if (after.ends) {
      await store.failedForGood(delivery.id, now(), after.why);
      options.logger.warn(
        { ...about, error: after.why },
        `could not send the ${delivery.kind} by ${delivery.channel}: refused for good, it is not tried again`,
      );
      return;
    }
    // A record that cannot be read says nothing of the channel's server.
    if (error instanceof DeliveryError) down.add(delivery.channel);
    await store.retryLater(delivery.id, after.retryAt, after.why);
    options.logger.warn(
      { ...about, retryAt: after.retryAt.toISOString(), error: after.why },
      `could not send the ${delivery.kind} by ${delivery.channel}; it waits in the outbox`,
    );
    return;
  }
  tally.sent++;
  options.onAttempt?.(delivery, "sent");
  try {
    await store.sent(delivery.id, now());
    options.logger.info(about, `sent the ${delivery.kind} by ${delivery.channel}`);
  } catch (error) {
    // Sent, not recorded: it is taken again once its claim ends, and sent a second time (an
    // e-mail with the same Message-ID, a webhook with the same Idempotency-Key).
    options.logger.error(
      { ...about, error: messageOf(error) },
      `sent the ${delivery.kind} by ${delivery.channel}, but could not record it: it may be sent again`,
    );
  }
}
