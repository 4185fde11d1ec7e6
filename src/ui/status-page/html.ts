/** Writing HTML by hand safely: every value from the database or the API is escaped, once. */
import { minuteAt, utcMinute } from "../../clock/local-moment.js";
import { visible } from "../../terminal-text.js";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for an element's content or a quoted attribute: location names and error
 * messages come from the API and must never become markup. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** API text in a message's HTML part: escaped, and its control and bidirectional characters
 * written out as the plain-text part writes them (terminal-text.ts), so that a right-to-left
 * override cannot reverse a table cell nor ESC or BEL reach a mail client raw. */
export function visibleHtml(text: string): string {
  return escapeHtml(visible(text));
}

export const money = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** An instant on the locations' clock, to the minute, with UTC in its title; in UTC when their
 * clock is not known (offsets: StatusPageData.localOffsets). */
export function timeHtml(instant: string, offsets: Readonly<Record<string, number>>): string {
  const ms = Date.parse(instant);
  // A stamp no parser reads (written by hand into the run log) is shown as it is.
  if (Number.isNaN(ms)) return escapeHtml(instant);
  const utc = utcMinute(new Date(ms).toISOString());
  const machine = `datetime="${new Date(ms).toISOString()}"`;
  const offset = offsets[instant];
  if (offset === undefined) return `<time ${machine}>${utc}</time>`;
  return `<time ${machine} title="${utc}">${minuteAt(ms, offset)}</time>`;
}
