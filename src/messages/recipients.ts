/** Who the daemon's messages go to, as the deliveries table names them: each address of
 * POS_REPORT_TO by e-mail, and the webhook shown without its credentials. */
import { type Channels, describeWebhookUrl } from "../config/channel-addresses.js";
import type { DeliveryChannel } from "./transports/transport.js";

export interface Recipient {
  channel: DeliveryChannel;
  /** An address of POS_REPORT_TO as configured, or the webhook as describeWebhookUrl shows it
   * (its path may be its token: it is never stored). */
  recipient: string;
}

export function recipientsOf(channels: Channels): Recipient[] {
  return [
    ...(channels.mail?.to ?? []).map((to) => ({ channel: "e-mail" as const, recipient: to })),
    ...(channels.webhookUrl === undefined
      ? []
      : [{ channel: "webhook" as const, recipient: describeWebhookUrl(channels.webhookUrl) }]),
  ];
}

export function sameRecipient(a: Recipient, b: { channel: string; recipient: string }): boolean {
  return a.channel === b.channel && a.recipient === b.recipient;
}
