/**
 * A location's days as a calendar: one cell a day of a day stream, from its first recorded window
 * to the location's today, saying whether the day is in. Pure: built from the checkpoints
 * (sync_windows) and the rejected records per day, read elsewhere.
 */
import { eachDay } from "../clock/days.js";
import type { DayStream } from "../vocabulary.js";

/**
 * complete and open: read (open days are read again until they end); incomplete, failed,
 * suspicious: read and not proven (see WindowStatus); missing: never read.
 */
export type DayCoverage = "complete" | "open" | "incomplete" | "failed" | "suspicious" | "missing";

/** The coverage of a day that is not in: a gap. */
export type GapCoverage = Exclude<DayCoverage, "complete" | "open">;

/** A recorded day window with the counts of its last read. */
export interface CoverageWindow {
  day: string;
  status: string;
  last_error: string | null;
  api_total_count: number | null;
  stored_count: number | null;
}

export interface CalendarDay {
  day: string;
  coverage: DayCoverage;
  /** What the API counted for the day at its last read, and what was stored of it. */
  apiCount: number | null;
  storedCount: number | null;
  /** Distinct records of the day set aside as malformed. */
  rejected: number;
  /** Why the day is not proven complete. */
  error: string | null;
}

export interface CoverageCalendar {
  stream: DayStream;
  /** The first recorded day through the location's today; empty when never synced. */
  days: CalendarDay[];
}

const KNOWN: ReadonlySet<string> = new Set<DayCoverage>([
  "complete",
  "open",
  "incomplete",
  "failed",
  "suspicious",
]);

/** A recorded window's status as a day's coverage (undefined: no window, never read). */
export function coverageOf(status: string | undefined): DayCoverage {
  if (status === undefined) return "missing";
  // A status written by a newer version reads as not proven rather than as complete.
  return KNOWN.has(status) ? (status as DayCoverage) : "incomplete";
}

/** Whether a day counts as in: read completely (open days included). */
export function isIn(coverage: DayCoverage): coverage is Exclude<DayCoverage, GapCoverage> {
  return coverage === "complete" || coverage === "open";
}

/**
 * One cell a day from the first window through `today` (days after it are left out: a location's
 * future is nobody's gap). `rejectedByDay` counts distinct rejected records per day.
 */
export function coverageCalendar(
  stream: DayStream,
  windows: readonly CoverageWindow[],
  rejectedByDay: ReadonlyMap<string, number>,
  today: string,
): CoverageCalendar {
  const first = windows.reduce<string | undefined>(
    (min, w) => (min === undefined || w.day < min ? w.day : min),
    undefined,
  );
  if (first === undefined || first > today) return { stream, days: [] };
  const byDay = new Map(windows.map((w) => [w.day, w]));
  const days = eachDay(first, today).map((day): CalendarDay => {
    const window = byDay.get(day);
    return {
      day,
      coverage: coverageOf(window?.status),
      apiCount: window?.api_total_count ?? null,
      storedCount: window?.stored_count ?? null,
      rejected: rejectedByDay.get(day) ?? 0,
      error: window?.last_error ?? null,
    };
  });
  return { stream, days };
}
