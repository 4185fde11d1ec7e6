/**
 * Retiring: a message whose recipient left the settings ends as retired, at the outbox's next
 * pass, rather than waiting for good: nothing would ever try it again, and the settings are what
 * the user changed to stop it.
 */

import type { Channels } from "../../config/channel-addresses.js";
import type { DeliveryStore } from "../../db/deliveries/deliveries.js";
import type { Logger } from "../../log.js";
import { plural } from "../../plural.js";
import { recipientsOf, sameRecipient } from "../recipients.js";

/** Why a message waiting for this recipient is retired, or undefined while the settings still
 * name it. */
export function whyRetired(
  recipient: { channel: string; recipient: string },
  channels: Channels,
): string | undefined {
  if (recipientsOf(channels).some((r) => sameRecipient(r, recipient))) return undefined;
  if (recipient.channel === "e-mail") {
    return channels.mail === undefined
      ? "e-mail is no longer set up (POS_REPORT_SMTP_URL, POS_REPORT_FROM, POS_REPORT_TO)"
      : "POS_REPORT_TO no longer lists it";
  }
  if (recipient.channel === "webhook") {
    return channels.webhookUrl === undefined
      ? "POS_REPORT_WEBHOOK_URL is no longer set"
      : "the webhook address changed (POS_REPORT_WEBHOOK_URL)";
  }
  return `pos-sync sends nothing by ${recipient.channel}`;
}

/** Retires the messages waiting for a recipient the settings no longer name, whether due or
 * not; answers how many. */
export async function retireUnconfigured(
  store: DeliveryStore,
  channels: Channels,
  logger: Logger,
  now: Date,
): Promise<number> {
  let retired = 0;
  for (const recipient of await store.waitingRecipients()) {
    const why = whyRetired(recipient, channels);
    if (why === undefined) continue;
    const count = await store.retire(recipient, now, why);
    retired += count;
    if (count > 0) {
      logger.warn(
        { ...recipient, messages: count, reason: why },
        `retired ${count} ${plural("message", count)} waiting for a recipient no longer in the settings: ${why}`,
      );
    }
  }
  return retired;
}
