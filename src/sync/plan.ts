/**
 * Which day windows a run reads, per location and stream. Pure: it sees the checkpoints and the
 * calendar, nothing else.
 */
import { addDays, eachDay } from "../clock/days.js";
import type { DayRange, WindowStatus } from "../vocabulary.js";

export interface PlanInput {
  /** The location's today. */
  today: string;
  /** First day of history: POS_START_DATE, the first day ever planned, or the API's earliest. */
  startDate: string;
  lookbackDays: number;
  /** Status of each day already recorded for this location and stream. */
  windows: ReadonlyMap<string, WindowStatus>;
  /** Explicit days (`--since`/`--until`): exactly those through today, whatever the checkpoints
   * say. */
  range?: DayRange;
}

/**
 * Incremental: every day from the start through today that is not complete, the lookback days
 * before the first of them, and the lookback days before today, and today itself (more orders
 * may come while it lasts). In steady state that is the last few days; after a gap long ago it
 * is the gap and its lookback, not everything since.
 */
export function planDays(input: PlanInput): string[] {
  const { today, startDate, lookbackDays, windows } = input;
  // A day that has not begun has no records yet, and recording it would only claim a gap.
  if (input.range) return eachDay(input.range.since, min(input.range.until ?? today, today));
  if (startDate > today) return [];
  const history = eachDay(startDate, today);
  const notComplete = history.filter((day) => day === today || windows.get(day) !== "complete");
  const planned = new Set<string>(notComplete);
  for (const frontier of [notComplete[0] ?? today, today]) {
    for (let back = 1; back <= lookbackDays; back++) {
      const day = addDays(frontier, -back);
      if (day >= startDate) planned.add(day);
    }
  }
  return [...planned].sort();
}

function min(a: string, b: string): string {
  return a < b ? a : b;
}

/** Consecutive days as ranges: ["2026-01-01", "2026-01-02", "2026-01-05"] → 01-01..01-02, 01-05. */
export function dayRanges(days: readonly string[]): { from: string; to: string }[] {
  const ranges: { from: string; to: string }[] = [];
  for (const day of [...days].sort()) {
    const last = ranges.at(-1);
    if (last && addDays(last.to, 1) === day) last.to = day;
    else ranges.push({ from: day, to: day });
  }
  return ranges;
}

export function formatRanges(days: readonly string[]): string {
  return dayRanges(days)
    .map((r) => (r.from === r.to ? r.from : `${r.from}..${r.to}`))
    .join(", ");
}
