/** The delivery settings checked at the edge (POS_REPORT_SMTP_URL, POS_REPORT_FROM, POS_REPORT_TO,
 * POS_REPORT_WEBHOOK_URL, POS_REPORT_AT): one clear line naming the setting, never a password. */
import addressparser, { type MailboxAddress } from "nodemailer/lib/addressparser";
import { ConfigError } from "../errors.js";
import { visible } from "../terminal-text.js";
import { type MailSettings, parseSmtpUrl, SMTP_URL_FORM } from "./delivery.js";

/** A domain of two labels or more, each of letters (any script), digits and inner hyphens. */
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u;
/** No quoting, comments or spaces; no dot first, last or twice in a row. */
const LOCAL_PART = /^(?!\.)(?!.*\.\.)[^\s@<>()[\]\\,;:"]{1,64}(?<!\.)$/u;

/** A plain address a relay accepts: local@domain.tld, no quoting, no comments, no IP literal. */
function isPlainAddress(address: string): boolean {
  const at = address.lastIndexOf("@");
  return at > 0 && LOCAL_PART.test(address.slice(0, at)) && DOMAIN.test(address.slice(at + 1));
}

/** `"Name" <address>` or the bare address, as nodemailer reads it back. */
function formatMailbox(name: string, address: string): string {
  return name === "" ? address : `"${name.replace(/["\\]/g, "\\$&")}" <${address}>`;
}

function shownValue(text: string): string {
  const shown = visible(text.trim());
  return JSON.stringify(shown.length > 80 ? `${shown.slice(0, 79)}…` : shown);
}

/** The mailboxes of one setting, each checked; `setting` names it in the error. */
function checkedMailboxes(text: string, setting: string): string[] {
  const boxes: MailboxAddress[] = addressparser(text, { flatten: true });
  const mailboxes: string[] = [];
  for (const box of boxes) {
    const address = box.address?.trim() ?? "";
    if (!isPlainAddress(address)) {
      throw new ConfigError(
        `${setting} has ${shownValue(address || box.name || text)}, which is not an e-mail address: expected name@example.com`,
      );
    }
    // A line break in a name could forge a header line; a bidirectional override, a name.
    if (visible(box.name) !== box.name) {
      throw new ConfigError(`${setting} has a control character in a name: remove it`);
    }
    mailboxes.push(formatMailbox(box.name.trim(), address));
  }
  return mailboxes;
}

/**
 * The e-mail settings checked and put in shape: the URL parses, its scheme is smtp or smtps, it
 * names a server; the sender is one address; every recipient is an address (POS_REPORT_TO is
 * comma separated, and a quoted name may hold a comma: nodemailer's own parser splits it).
 * Throws a ConfigError naming the setting, in one line that never shows the password.
 */
export function checkMailSettings(raw: {
  smtpUrl?: string | undefined;
  from?: string | undefined;
  to?: string | readonly string[] | undefined;
}): MailSettings {
  const smtpUrl = raw.smtpUrl?.trim() ?? "";
  if (smtpUrl === "") {
    throw new ConfigError(`POS_REPORT_SMTP_URL is not set: expected ${SMTP_URL_FORM}`);
  }
  parseSmtpUrl(smtpUrl);

  const fromText = raw.from?.trim() ?? "";
  if (fromText === "") {
    throw new ConfigError(
      "POS_REPORT_FROM is not set: the sender's address, such as pos-sync <reports@example.com>",
    );
  }
  const from = checkedMailboxes(fromText, "POS_REPORT_FROM");
  if (from.length !== 1) {
    throw new ConfigError(
      `POS_REPORT_FROM must be one address, got ${from.length}: the recipients go in POS_REPORT_TO`,
    );
  }

  const toTexts = typeof raw.to === "string" ? [raw.to] : (raw.to ?? []);
  const to = toTexts.flatMap((text) =>
    text.trim() === "" ? [] : checkedMailboxes(text, "POS_REPORT_TO"),
  );
  if (to.length === 0) {
    throw new ConfigError(
      "POS_REPORT_TO is not set: one or more recipients, comma separated (a@example.com, b@example.com)",
    );
  }
  return { smtpUrl, from: from[0] as string, to };
}

/** The webhook URL checked: http or https, with a host. Returns it trimmed. Throws a
 * ConfigError that shows the address only as describeWebhookUrl does. */
export function checkWebhookUrl(url: string | undefined): string {
  const trimmed = url?.trim() ?? "";
  if (trimmed === "") {
    throw new ConfigError("POS_REPORT_WEBHOOK_URL is not set: expected https://host/path");
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new ConfigError(
      "POS_REPORT_WEBHOOK_URL is not a valid address: expected https://host/path",
    );
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new ConfigError(
      `POS_REPORT_WEBHOOK_URL must start with https:// or http://, got ${visible(parsed.protocol)}//`,
    );
  }
  // An http(s) address without a host does not parse: the checks above cover it.
  return trimmed;
}

/** POS_REPORT_AT, HH:MM on a 24-hour clock, as minutes after midnight. */
export function minutesOfDay(text: string): number {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!match) {
    throw new ConfigError(
      `POS_REPORT_AT must be a time of day as HH:MM (07:00, 18:30), got ${shownValue(text)}`,
    );
  }
  return Number(match[1]) * 60 + Number(match[2]);
}
