/** Writing HTML by hand safely: every value from the database or the API is escaped, once
 * (escapeHtml, html-text.ts). */
import { minuteAt, utcMinute } from "../../clock/local-moment.js";
import { escapeHtml } from "../../html-text.js";

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
