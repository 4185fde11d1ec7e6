/** Which stored orders' closing hours move when a location's clock changes, and the days whose
 * hourly summary follows them: decided once for both destinations' location-clocks.ts. */
import type { LocalClock } from "../../clock/local-clock.js";
import type { LocationDay } from "../../vocabulary.js";

/** What applying a new time zone setting did. */
export interface TimeZoneChange {
  from: string | null;
  to: string | null;
  /** Stored orders whose hour moved. */
  orders: number;
  /** Days whose hourly summary was recomputed. */
  days: number;
}

/** A stored order's close as the API wrote it, with its hour as stored. */
export interface ClosedTime<K> {
  key: K;
  closed_at: string;
  closed_hour: number | null;
  business_date: string;
}

/** The orders whose hour is another on `clock`, and the days whose hourly summary follows. */
export function movedHours<K>(
  rows: readonly ClosedTime<K>[],
  clock: LocalClock,
  locationId: string,
): { moved: { key: K; hour: number | null }[]; days: LocationDay[] } {
  const moved: { key: K; hour: number | null }[] = [];
  const days = new Map<string, LocationDay>();
  for (const row of rows) {
    const hour = clock.hourOf(row.closed_at);
    if (hour === row.closed_hour) continue;
    moved.push({ key: row.key, hour });
    days.set(row.business_date, { locationId, day: row.business_date });
  }
  return { moved, days: [...days.values()] };
}
