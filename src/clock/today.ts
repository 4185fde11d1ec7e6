/** Today's calendar day on a clock that is a fixed offset from UTC: a location's, or UTC's. */
import { onClock } from "./units.js";

/** Today's date in UTC, or in the given offset from UTC in minutes. */
export function today(now: Date = new Date(), offsetMinutes = 0): string {
  return onClock(now.getTime(), offsetMinutes).slice(0, 10);
}
