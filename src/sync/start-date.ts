/**
 * The first day of history when POS_START_DATE is not set and nothing is stored yet: the day the
 * earliest report the API holds begins (its session's start, which can be the day before the
 * report was created, when the session ran past midnight). The spec does not say which way
 * lists are ordered, so both ends of the reports list are read (one record each) and the
 * earlier wins.
 */
import type { PosApiClient } from "../api/client.js";
import { addDays, isCalendarDay, utcOffsetOf } from "../dates.js";

/** How far back to start when the API has no report at all. */
export const FALLBACK_HISTORY_DAYS = 90;

export interface History {
  startDate: string;
  /** The location's UTC offset, read off the same reports' timestamps; undefined with none. */
  utcOffsetMinutes: number | undefined;
}

/** The first day of history, and the location's UTC offset, from both ends of its reports. */
export async function discoverHistory(client: PosApiClient, today: string): Promise<History> {
  const ends = await client.reportEnds();
  const offsets = ends
    .map((end) => (typeof end.createdAt === "string" ? utcOffsetOf(end.createdAt) : undefined))
    .filter((offset): offset is number => offset !== undefined);
  return { startDate: startDateOf(ends, today), utcOffsetMinutes: offsets.at(-1) };
}

function startDateOf(ends: Awaited<ReturnType<PosApiClient["reportEnds"]>>, today: string): string {
  const days = ends
    .flatMap((end) => [end.createdAt, end.startedAt])
    .filter((value): value is string => typeof value === "string")
    .map((timestamp) => timestamp.slice(0, 10))
    .filter(isCalendarDay);
  if (days.length === 0) return addDays(today, -FALLBACK_HISTORY_DAYS);
  const earliest = days.sort()[0] as string;
  return earliest > today ? today : earliest;
}
