/**
 * When the daemon owes a morning report: each location's yesterday, once its clock has passed
 * POS_REPORT_AT. Locations on one clock get one report (one message a day for a chain in one
 * time zone); its key, the day and the clock, is what the deliveries table records it under.
 * Sent once every location of it has its day complete and proved, or, at the latest, LATEST_AFTER
 * the hour, saying what is missing.
 */
import { addDays, today } from "../dates.js";

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

/** The reports due now, one per clock whose locations passed `atMinutes` (after midnight). */
export function dueReports(
  now: Date,
  atMinutes: number,
  locations: readonly LocationClock[],
): DueReport[] {
  const reports = new Map<string, DueReport>();
  for (const location of locations) {
    const localMinutes =
      (((Math.floor(now.getTime() / 60_000) + location.offsetMinutes) % 1440) + 1440) % 1440;
    if (localMinutes < atMinutes) continue;
    const day = addDays(today(now, location.offsetMinutes), -1);
    const key = `${day} ${location.clock}`;
    const report = reports.get(key) ?? {
      key,
      day,
      locationIds: [],
      // An hour late in the evening is capped at the day's last minute: the report still goes.
      late: localMinutes >= Math.min(atMinutes + LATEST_AFTER_MINUTES, 1439),
    };
    report.locationIds.push(location.id);
    reports.set(key, report);
  }
  return [...reports.values()];
}
