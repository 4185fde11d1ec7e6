/**
 * The first day of a location's data: the day the earliest report the API holds begins (its
 * session's start, which can be the day before the report was created, when the session ran past
 * midnight). Every order belongs to a report, so no order is older. The spec does not say which
 * way lists are ordered, so both ends of the reports list are read (one record each) and the
 * earlier wins. Where a run starts from there is start-date.ts.
 */
import { isCalendarDay } from "../clock/days.js";
import { utcOffsetOf } from "../clock/offsets.js";
import type { PosApiClient } from "./client.js";

export interface LocationStart {
  /** The first day of the earliest report; undefined when the API holds no report. */
  firstDay: string | undefined;
  /** The location's UTC offset, read off the same reports' timestamps; undefined with none. */
  utcOffsetMinutes: number | undefined;
}

/** The first day of the location's data, and the location's UTC offset, from both ends of its reports. */
export async function discoverStart(client: PosApiClient, today: string): Promise<LocationStart> {
  const ends = await client.reportEnds();
  const offsets = ends
    .map((end) => (typeof end.createdAt === "string" ? utcOffsetOf(end.createdAt) : undefined))
    .filter((offset): offset is number => offset !== undefined);
  return { firstDay: firstDayOf(ends, today), utcOffsetMinutes: offsets.at(-1) };
}

function firstDayOf(
  ends: Awaited<ReturnType<PosApiClient["reportEnds"]>>,
  today: string,
): string | undefined {
  const days = ends
    .flatMap((end) => [end.createdAt, end.startedAt])
    .filter((value): value is string => typeof value === "string")
    .map((timestamp) => timestamp.slice(0, 10))
    .filter(isCalendarDay);
  const earliest = days.sort()[0];
  return earliest !== undefined && earliest > today ? today : earliest;
}
