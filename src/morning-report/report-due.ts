/**
 * When the daemon owes a morning report, and under which key it is recorded. A location's report
 * of a day is due from POS_REPORT_AT of the next day on that location's clock, for 24 hours;
 * locations on one clock share one report (one message a day for a chain in one time zone). Sent
 * once every location of it has its day complete and proved, or, at the latest,
 * LATEST_AFTER_MINUTES after the hour, saying what is missing.
 *
 * Its key names the day and the locations (messages/message-keys.ts), never the clock.
 */

import { addDays } from "../clock/days.js";
import { instantOnClock, type OffsetClock } from "../clock/local-moment.js";
import { offsetText } from "../clock/offsets.js";
import { today } from "../clock/today.js";
import { MS_PER_DAY, MS_PER_MINUTE } from "../clock/units.js";
import { locationsOfKey, morningReportKey } from "../messages/message-keys.js";

export interface LocationClock extends OffsetClock {
  id: string;
  /** Its time zone's name, or null when it has none: then its offset is the one learned from
   * the API's timestamps. */
  timeZone: string | null;
}

export interface DueReport {
  day: string;
  /** The clock its locations share: a time zone's name, or `UTC+01:00`. */
  clock: string;
  locationIds: string[];
  /** Past the latest hour: sent as it is. */
  late: boolean;
}

/** How long after POS_REPORT_AT a report waits for its day to be proved. */
export const LATEST_AFTER_MINUTES = 180;

/**
 * The reports due now, one per day and clock: the report of a day may go from the next day's
 * `atMinutes` on the location's clock, for 24 hours; past LATEST_AFTER_MINUTES of them it goes
 * whether proved or not. So an hour late in the evening still sends its report after midnight,
 * and a daemon down for the whole day skips that one.
 */
export function dueReports(
  now: Date,
  atMinutes: number,
  locations: readonly LocationClock[],
): DueReport[] {
  const reports = new Map<string, DueReport>();
  const nowMs = now.getTime();
  for (const location of locations) {
    const localToday = today(now, location.offsetAt(nowMs));
    // Yesterday's, and the day before's while its 24 hours last (an evening hour).
    for (const day of [addDays(localToday, -2), addDays(localToday, -1)]) {
      const from = instantOnClock(addDays(day, 1), atMinutes, location);
      if (nowMs < from || nowMs >= from + MS_PER_DAY) continue;
      const clock = location.timeZone ?? offsetText(location.offsetAt(from), "clock");
      const group = `${day} ${clock}`;
      const report = reports.get(group) ?? { day, clock, locationIds: [], late: false };
      report.locationIds.push(location.id);
      report.late ||= nowMs >= from + LATEST_AFTER_MINUTES * MS_PER_MINUTE;
      reports.set(group, report);
    }
  }
  return [...reports.values()];
}

/**
 * Which of a due report's locations each recipient is still owed, from the keys of the reports
 * of that day already recorded for it. Recipients owed the same locations share one message.
 */
export function owedReports<R>(
  due: { day: string; locationIds: readonly string[] },
  recipients: readonly R[],
  recordedKeys: (recipient: R) => readonly string[],
): { locationIds: string[]; recipients: R[] }[] {
  const owed = new Map<string, { locationIds: string[]; recipients: R[] }>();
  for (const recipient of recipients) {
    const covered = new Set<string>();
    let all = false;
    for (const key of recordedKeys(recipient)) {
      const locations = locationsOfKey(key);
      if (locations === "all") all = true;
      else for (const id of locations) covered.add(id);
    }
    if (all) continue;
    const locationIds = due.locationIds.filter((id) => !covered.has(id));
    if (locationIds.length === 0) continue;
    const group = morningReportKey(due.day, locationIds);
    const entry = owed.get(group) ?? { locationIds, recipients: [] };
    entry.recipients.push(recipient);
    owed.set(group, entry);
  }
  return [...owed.values()];
}
