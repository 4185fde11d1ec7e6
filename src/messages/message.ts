/**
 * A message as pos-sync makes it (the morning report, an alert), before it is addressed to anyone:
 * what the compose stage turns into each recipient's body (compose/compose.ts).
 */

/** What an e-mail's body holds, as the outbox records it. */
export interface MailBody {
  text: string;
  html: string;
}

export interface Message {
  subject: string;
  /** The words: the e-mail's plain text, and the webhook's `text` once escaped for a chat. */
  text: string;
  /** The e-mail's HTML part, made by the templates of compose/html-template.ts. */
  html: string;
  /** What a webhook gets beside its `text`: the figures or the alert as data, names as the API
   * sent them. JSON escapes them and nothing more does: a receiver that shows them escapes them
   * for where it shows them. */
  data: Record<string, unknown>;
}
