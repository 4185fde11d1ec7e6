/**
 * A message as pos-sync makes it (the morning report, an alert), and the body each channel gets
 * of it: the same words by e-mail and by webhook, each made safe for where it is shown. Every
 * way a message leaves (the outbox, `report --send`) takes its bodies from here.
 */
import { chatText } from "./compose/chat-text.js";

/** What an e-mail's body holds. */
export interface MailBody {
  text: string;
  html: string;
}

export interface Message {
  subject: string;
  /** The words: the e-mail's plain text, and the webhook's `text` once escaped for a chat. */
  text: string;
  /** The e-mail's HTML part. */
  html: string;
  /** What a webhook gets beside its `text`: the figures or the alert as data, names as the API
   * sent them. JSON escapes them and nothing more does: a receiver that shows them escapes them
   * for where it shows them. */
  data: Record<string, unknown>;
}

export function mailBody(message: Message): MailBody {
  return { text: message.text, html: message.html };
}

/** The webhook's JSON: a Slack-style `text` no POS data can put a mention or a link in, then the
 * data. */
export function webhookBody(message: Message): Record<string, unknown> {
  return { text: chatText(message.text), ...message.data };
}
