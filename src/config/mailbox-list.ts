/**
 * The grammar of POS_REPORT_FROM and POS_REPORT_TO, stated once and strictly: a comma-separated
 * list whose every element, trimmed, is exactly one of
 *
 *   name@example.com                      a bare address
 *   Name <name@example.com>               a name without < > @ " and the address in brackets
 *   "Dubois, Inès" <ines@example.fr>      a quoted name (it may hold a comma; \" and \\ escape)
 *
 * with nothing after the `>`. Empty elements (a trailing comma, `a@x.com,,b@x.com`) are skipped:
 * they lose no address. A name holding an address other than the mailbox's is refused (a mail
 * client would show it instead of the real one), and so is a control character anywhere.
 *
 * Why not nodemailer's addressparser: it forgives too much. It reads stray words as a display
 * name (`boss@x.com ops@x.com` became boss named "ops@x.com", and `<c@x.com> d@x.com` c named
 * "d@x.com"), and group syntax anywhere (`boss@x.com\r\nBcc: evil@x.com` became evil alone), so
 * that a value could lose an address or send to one its reader does not see. A value that reads
 * as several recipients must be them, or be refused.
 */
import { visible } from "../terminal-text.js";

export interface Mailbox {
  /** Empty for a bare address. */
  name: string;
  address: string;
}

/** What is wrong with an element: a control character in it, a shape the grammar has not, or a
 * name holding an address other than the mailbox's. */
export type MailboxProblem = "control character" | "not an address" | "name is an address";

export type MailboxList =
  | { ok: true; mailboxes: Mailbox[] }
  /** `element` trimmed, or as given when it holds a control character (one may be at its edge). */
  | { ok: false; element: string; problem: MailboxProblem };

/** A domain of two labels or more, each of letters (any script), digits and inner hyphens. */
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u;
/** No quoting, comments or spaces; no dot first, last or twice in a row. */
const LOCAL_PART = /^(?!\.)(?!.*\.\.)[^\s@<>()[\]\\,;:"]{1,64}(?<!\.)$/u;

/** A plain address a relay accepts: local@domain.tld, no quoting, no comments, no IP literal. */
function isPlainAddress(address: string): boolean {
  const at = address.lastIndexOf("@");
  return at > 0 && LOCAL_PART.test(address.slice(0, at)) && DOMAIN.test(address.slice(at + 1));
}

/** The elements of `text` between commas outside a quoted name. An unclosed quote runs to the
 * end, and the element holding it is refused as malformed. */
function splitOnCommas(text: string): string[] {
  const elements: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const character = text[i];
    if (quoted && character === "\\") i++;
    else if (character === '"') quoted = !quoted;
    else if (character === "," && !quoted) {
      elements.push(text.slice(start, i));
      start = i + 1;
    }
  }
  elements.push(text.slice(start));
  return elements;
}

/** A quoted name at the start of `text`: its content unescaped, and what follows the closing
 * quote; undefined when the quote is not closed. */
function quotedName(text: string): { name: string; rest: string } | undefined {
  let name = "";
  for (let i = 1; i < text.length; i++) {
    const character = text[i] as string;
    if (character === '"') return { name, rest: text.slice(i + 1) };
    if (character === "\\") i++;
    name += text[i] ?? "";
  }
  return undefined;
}

/** Whether a word of a name, stripped of the punctuation around it, is an address other than
 * the mailbox's own (`"ops@x.com" <ops@x.com>` misleads nobody). */
function namesAnotherAddress(name: string, address: string): boolean {
  return name.split(/\s+/u).some((word) => {
    const bare = word.replace(/^[<>()[\]"',;:]+|[<>()[\]"',;:]+$/gu, "");
    return isPlainAddress(bare) && bare.toLowerCase() !== address.toLowerCase();
  });
}

/** One element, trimmed and not empty, as a mailbox or the problem with it. */
function mailboxOf(element: string): Mailbox | MailboxProblem {
  if (isPlainAddress(element)) return { name: "", address: element };
  let name: string;
  let bracketed: string;
  const quoted = element.startsWith('"');
  if (quoted) {
    const parts = quotedName(element);
    if (parts === undefined) return "not an address";
    name = parts.name.trim();
    bracketed = parts.rest.trimStart();
  } else {
    const open = element.indexOf("<");
    if (open < 0) return "not an address";
    name = element.slice(0, open).trim();
    bracketed = element.slice(open);
  }
  const address = /^<([^<>]*)>$/u.exec(bracketed)?.[1];
  if (address === undefined || !isPlainAddress(address)) return "not an address";
  if (namesAnotherAddress(name, address)) return "name is an address";
  // Out of quotes, these would make the name part of the address, or another one.
  if (!quoted && /[<>@"]/u.test(name)) return "not an address";
  return { name, address };
}

/** The mailboxes of a setting's value, or the first element refused and why. */
export function parseMailboxList(text: string): MailboxList {
  const mailboxes: Mailbox[] = [];
  for (const element of splitOnCommas(text)) {
    // A line break could start a header of its own (Bcc:), a bidirectional override make a
    // name read as another; none belongs in an address list.
    if (visible(element) !== element) {
      return { ok: false, element, problem: "control character" };
    }
    const trimmed = element.trim();
    if (trimmed === "") continue;
    const mailbox = mailboxOf(trimmed);
    if (typeof mailbox === "string") return { ok: false, element: trimmed, problem: mailbox };
    mailboxes.push(mailbox);
  }
  return { ok: true, mailboxes };
}

/** `"Name" <address>` or the bare address, as nodemailer reads it back. */
export function formatMailbox({ name, address }: Mailbox): string {
  return name === "" ? address : `"${name.replace(/["\\]/g, "\\$&")}" <${address}>`;
}
