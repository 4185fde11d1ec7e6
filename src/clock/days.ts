/**
 * Calendar days as "YYYY-MM-DD" strings, and their arithmetic. A day carries no time zone: it is the API's own
 * bucket (the local calendar date of a record's createdAt), so arithmetic is done on plain
 * UTC midnights where no offset can shift it.
 */
import { MS_PER_DAY } from "./units.js";

/**
 * The API's date pattern (spec 4.2): months 01-12, up to 31 days for the long months, 30 for
 * April, June, September and November, 29 for February in every year.
 */
export const API_DAY_PATTERN =
  /^\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|[12]\d))$/;

/** True when the text matches the API's date pattern (which admits 29 February of any year). */
export function matchesApiDayPattern(text: string): boolean {
  return API_DAY_PATTERN.test(text);
}

/** True when the text is a real calendar date in YYYY-MM-DD form. */
export function isCalendarDay(text: string): boolean {
  if (!API_DAY_PATTERN.test(text)) return false;
  return dayFromEpoch(epochDayUnchecked(text)) === text;
}

function epochDayUnchecked(day: string): number {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const date = Number(day.slice(8, 10));
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, date);
  return Math.floor(instant.getTime() / MS_PER_DAY);
}

/** The first calendar day on or after a text that matches the API's pattern ("2025-02-29" →
 * 2025-03-01), as days since 1970-01-01. */
export function epochDayOnOrAfter(patternDay: string): number {
  return epochDayUnchecked(patternDay);
}

/** The last calendar day on or before a text that matches the API's pattern ("2025-02-29" →
 * 2025-02-28), as days since 1970-01-01. */
export function epochDayOnOrBefore(patternDay: string): number {
  const rolled = epochDayUnchecked(patternDay);
  return dayFromEpoch(rolled) === patternDay ? rolled : rolled - 1;
}

/** Days since 1970-01-01 for a calendar day; throws RangeError for anything else. */
export function toEpochDay(day: string): number {
  if (!isCalendarDay(day)) throw new RangeError(`not a calendar day: ${JSON.stringify(day)}`);
  return epochDayUnchecked(day);
}

export function dayFromEpoch(epochDay: number): string {
  const instant = new Date(epochDay * MS_PER_DAY);
  const year = String(instant.getUTCFullYear()).padStart(4, "0");
  const month = String(instant.getUTCMonth() + 1).padStart(2, "0");
  const date = String(instant.getUTCDate()).padStart(2, "0");
  return `${year}-${month}-${date}`;
}

export function addDays(day: string, count: number): string {
  return dayFromEpoch(toEpochDay(day) + count);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return toEpochDay(to) - toEpochDay(from);
}

/** A day's place in its week: Monday 0 … Sunday 6. */
export function weekdayOf(day: string): number {
  // 1970-01-01, epoch day 0, was a Thursday (3).
  return (((toEpochDay(day) + 3) % 7) + 7) % 7;
}

/** Every day from `since` through `until`, both included; empty when since > until. */
export function eachDay(since: string, until: string): string[] {
  const first = toEpochDay(since);
  const last = toEpochDay(until);
  const days: string[] = [];
  for (let d = first; d <= last; d++) days.push(dayFromEpoch(d));
  return days;
}
