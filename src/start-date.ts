/**
 * Where a run starts reading a location: the first day the API holds (api/first-day.ts), or a
 * later one asked for. Without POS_START_DATE a location's days start there; with an earlier one,
 * or an earlier --since, the days before it are not read: they hold nothing. Pure, and below
 * both the engine and verify, which start there alike.
 */
import { addDays } from "./clock/days.js";

/** How far back to start when the API has no report at all. */
export const FALLBACK_START_DAYS = 90;

/** A start asked for that the run moved later: `setting` was asked, `firstDay` is read. */
export interface SkippedDays {
  setting: string;
  firstDay: string;
  /** The API held no report: `firstDay` is FALLBACK_START_DAYS before today. */
  noReport: boolean;
}

/**
 * Where a run starts reading a location when asked to start at `setting` (POS_START_DATE, or
 * an explicit --since): never before the first day the API holds, nor, while it holds no
 * report, before FALLBACK_START_DAYS ago (the days before hold nothing, and planning every day
 * since 1900 would not fit in memory); `skipped` says when it moved. With no setting, that day
 * itself. A first day that could not be read (null) bounds nothing: a setting further back than
 * FALLBACK_START_DAYS is then refused rather than read day by day.
 */
export function startDateOf(
  setting: string | undefined,
  firstDay: string | undefined | null,
  today: string,
): { startDate: string; skipped?: SkippedDays } {
  const fallback = addDays(today, -FALLBACK_START_DAYS);
  const floor = firstDay ?? fallback;
  if (setting === undefined) return { startDate: floor };
  if (setting >= floor) return { startDate: setting };
  if (firstDay === null)
    throw new Error(
      `the first day this location's API holds could not be read from its reports, and ${setting} is more than ${FALLBACK_START_DAYS} days ago: not read day by day without it`,
    );
  return {
    startDate: floor,
    skipped: { setting, firstDay: floor, noReport: firstDay === undefined },
  };
}

/** The one line that says a start moved later; `asked` names what asked for it. */
export function skippedNotice(asked: string, skipped: SkippedDays): string {
  return skipped.noReport
    ? `${asked} ${skipped.setting} is before ${skipped.firstDay}, ${FALLBACK_START_DAYS} days ago, and this location's API holds no report yet: the days before it are not read`
    : `${asked} ${skipped.setting} is before the first day this location's API holds (${skipped.firstDay}): the days before it hold nothing and are not read`;
}
