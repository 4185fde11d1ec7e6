/** Today's calendar day on a clock that is a fixed offset from UTC: a location's, or UTC's. */

const MS_PER_MINUTE = 60_000;

/** Today's date in UTC, or in the given offset from UTC in minutes. */
export function today(now: Date = new Date(), offsetMinutes = 0): string {
  return new Date(now.getTime() + offsetMinutes * MS_PER_MINUTE).toISOString().slice(0, 10);
}
