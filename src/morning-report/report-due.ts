/**
 * When the daemon owes a morning report: each location's yesterday, once its clock has passed
 * POS_REPORT_AT. Locations on one clock get one report (one message a day for a chain in one
 * time zone); its key, the day and the clock, is what the deliveries table records it under.
 * Sent once every location of it has its day complete and proved, or, at the latest,
 * LATEST_AFTER_MINUTES after the hour, saying what is missing.
 */
import { addDays, today, toEpochDay } from "../dates.js";

export interface LocationClock {
  id: string;
  /** Its time zone's name, or its UTC offset as `UTC+01:00` when it has none. */
  clock: string;
  /** Its offset from UTC now, in minutes. */
  offsetMinutes: number;
}

export interface DueReport {
  /** The deliveries' key: `2026-11-28 Europe/Paris`. */
  key: string;
  day: string;
  locationIds: string[];
  /** Past the latest hour: sent as it is. */
  late: boolean;
}

/** How long after POS_REPORT_AT a report waits for its day to be proved. */
export const LATEST_AFTER_MINUTES = 180;

/** `UTC+01:00`, `UTC-05:30`, `UTC`. */
export function offsetClock(minutes: number): string {
  if (minutes === 0) return "UTC";
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The reports due now, one per clock: the report of a day may go from the next day's
 * `atMinutes` (after midnight) on the location's clock, for 24 hours; past LATEST_AFTER_MINUTES of
 * them it goes whether proved or not. So an hour late in the evening still sends its report after
 * midnight, and a daemon down for the whole day skips that one.
 */
export function dueReports(
  now: Date,
  atMinutes: number,
  locations: readonly LocationClock[],
): DueReport[] {
  const reports = new Map<string, DueReport>();
  for (const location of locations) {
    const localMinutes = Math.floor(now.getTime() / 60_000) + location.offsetMinutes;
    const localToday = today(now, location.offsetMinutes);
    for (const day of [addDays(localToday, -1), addDays(localToday, -2)]) {
      const from = (toEpochDay(day) + 1) * 1440 + atMinutes;
      if (localMinutes < from || localMinutes >= from + 1440) continue;
      const key = `${day} ${location.clock}`;
      const report = reports.get(key) ?? {
        key,
        day,
        locationIds: [],
        late: localMinutes >= from + LATEST_AFTER_MINUTES,
      };
      report.locationIds.push(location.id);
      reports.set(key, report);
    }
  }
  return [...reports.values()];
}
