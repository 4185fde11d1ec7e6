/**
 * A webhook's `text` as a chat service reads it. Slack, Mattermost and the services that take
 * Slack's format read markup there: `<!channel>` pings a whole channel, `<https://…|words>` shows
 * words over a link, `@here` pings everyone online (Mattermost, and Slack with `link_names`), and
 * `[words](https://…)` is a link in Mattermost's Markdown. A bot's message is trusted, so none of
 * that may come from POS data (a location, an operator or a product named so).
 *
 * pos-sync's own text holds no intended markup, so the whole text is escaped, never value by
 * value: a value missed cannot slip through. Applied once, where a webhook's body is made
 * (compose.ts); the e-mail's plain text and the terminal get the text as it is.
 */

/** Slack's escaping, which Mattermost reads the same: `&` first, so that no escape is escaped. */
const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** WORD JOINER: invisible and never a line break, so the text reads as it did; a mention or a
 * link needs its characters side by side, and this one sits between them. */
const JOINER = "\u2060";

/** An `@` that starts a word (`@here`, `@channel`, `@all`, `@everyone`, `@someone`); the `@` of
 * an e-mail address follows a letter and is no mention. */
const MENTION = /(?<![\p{L}\p{N}._+-])@(?=[\p{L}\p{N}_])/gu;

/** `text` with Slack's and Mattermost's control characters escaped and no live mention or
 * Markdown link, reading the same. */
export function chatText(text: string): string {
  return text
    .replace(/[&<>]/g, (character) => ESCAPES[character] ?? character)
    .replace(MENTION, `@${JOINER}`)
    .replaceAll("](", `]${JOINER}(`);
}
