/**
 * The compose stage: a message becomes, for each recipient, the body its channel sends, as the
 * outbox records it. The same words by e-mail and by webhook, each made safe for where it is
 * shown: the e-mail's HTML by its templates, the webhook's text by chatText, applied here, where
 * every webhook body is made, and nowhere else.
 */
import type { DeliveryKind, NewDelivery } from "../../db/deliveries/deliveries.js";
import type { MailBody, Message } from "../message.js";
import type { Recipient } from "../recipients.js";
import { chatText } from "./chat-text.js";

function mailBody(message: Message): MailBody {
  return { text: message.text, html: message.html };
}

/** The webhook's JSON: a Slack-style `text` no POS data can put a mention or a link in, then the
 * data. */
function webhookBody(message: Message): Record<string, unknown> {
  return { text: chatText(message.text), ...message.data };
}

/** The message's record for each recipient, with the body its channel sends. */
export function compose(
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
