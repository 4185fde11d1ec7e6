/** Writing HTML by hand safely: every value from the database or the API is escaped, once
 * (escapeHtml, html-text.ts). */
import { formatOffset } from "../../dates.js";
import { escapeHtml } from "../../html-text.js";
import { utcMinute } from "../text.js";

export { escapeHtml } from "../../html-text.js";

export const money = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** A span of time as a person says it: "840 ms", "12.4 s", "3 min 20 s", "2 h 5 min", "3 days". */
export function spanText(ms: number): string {
  // A moment a clock ahead of this one stamped reads as now, not as a negative span.
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  const unit = (big: number, bigName: string, small: number, smallName: string) =>
    small === 0 ? `${big} ${bigName}` : `${big} ${bigName} ${small} ${smallName}`;
  if (minutes < 60) return unit(minutes, "min", Math.floor(seconds % 60), "s");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return unit(hours, "h", minutes % 60, "min");
  return `${Math.floor(hours / 24)} days`;
}

/** A UTC offset as people write it: "UTC+01:00", "UTC-05:30", "UTC". */
export function offsetText(minutes: number): string {
  return minutes === 0 ? "UTC" : `UTC${formatOffset(minutes)}`;
}

/** An instant to the minute, as "2026-11-24 15:18", shifted by an offset in minutes. */
function minuteText(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 16).replace("T", " ");
}

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
  return `<time ${machine} title="${utc}">${minuteText(ms, offset)}</time>`;
}
