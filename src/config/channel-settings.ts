/** The delivery settings checked at the edge (POS_REPORT_SMTP_URL, POS_REPORT_FROM, POS_REPORT_TO,
 * POS_REPORT_WEBHOOK_URL, POS_REPORT_AT): one clear line naming the setting, never a password. */
import { ConfigError } from "../errors.js";
import { isLoopbackHost } from "../loopback.js";
import { terminalSafeJson, visible } from "../terminal-text.js";
import {
  describeWebhookUrl,
  type MailSettings,
  parseSmtpUrl,
  SMTP_URL_FORM,
} from "./channel-addresses.js";
import { formatMailbox, parseMailboxList } from "./mailbox-list.js";
import { hasCredentials } from "./webhook-credentials.js";

/** A value as a message quotes it: a JSON string, so that a control character shows as its
 * escape (`\r\n`, `\u202e`) once, not doubled as `visible` then JSON would write it; trimmed of
 * spaces only, so that a line break at its edge still shows. */
function shownValue(text: string): string {
  const trimmed = text.replace(/^\p{Zs}+|\p{Zs}+$/gu, "");
  return terminalSafeJson(
    JSON.stringify(trimmed.length > 80 ? `${trimmed.slice(0, 79)}…` : trimmed),
  );
}

/** The mailboxes of one setting, each checked (mailbox-list.ts states the grammar); `setting`
 * names it in the error. */
function checkedMailboxes(text: string, setting: string): string[] {
  const list = parseMailboxList(text);
  if (list.ok) return list.mailboxes.map(formatMailbox);
  const shown = `${setting} has ${shownValue(list.element)}`;
  switch (list.problem) {
    case "control character":
      throw new ConfigError(`${shown}, which holds a control character: remove it`);
    case "name is an address":
      throw new ConfigError(
        `${shown}, whose name is another e-mail address: a mail client would show it instead`,
      );
    case "not an address":
      throw new ConfigError(
        `${shown}, which is not an e-mail address: expected name@example.com or Name <name@example.com>${setting === "POS_REPORT_TO" ? ", separated by commas" : ""}`,
      );
  }
}

/**
 * The e-mail settings checked and put in shape: the URL parses, its scheme is smtp or smtps, it
 * names a server; the sender is one address; every recipient is an address (POS_REPORT_TO is
 * comma separated, each bare or `Name <address>`, as mailbox-list.ts reads it).
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

/** The webhook URL checked: http or https, with a host, and credentials (sent as Basic
 * authorization) over https unless to this machine. Returns it trimmed. Throws a
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
  // A password is not sent in clear over a network, as for the mail server (mail-tls.ts).
  if (parsed.protocol === "http:" && hasCredentials(parsed) && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigError(
      `POS_REPORT_WEBHOOK_URL holds credentials for ${describeWebhookUrl(trimmed)}, which would cross the network in clear: use https://`,
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
