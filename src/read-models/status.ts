/** What the database holds, per location and stream: read from the checkpoints, no API call. */

import { addDays } from "../clock/days.js";
import { today } from "../clock/today.js";
import type { AuditCoverage, RunRow, WindowRow } from "../db/reads/checkpoints.js";
import type { DeliveryState } from "../db/reads/deliveries.js";
import type { KnownLocation } from "../db/reads/locations.js";
import type { LocationTurn, Reader } from "../db/reads/reader.js";
import type { RowCounts } from "../db/reads/status.js";
import {
  CATALOG_LISTS,
  DAY_STREAM_DESCRIPTIONS,
  type DayStreamDescription,
  DEVICES,
  type SnapshotListDescription,
} from "../streams/index.js";
import { dayRanges } from "../sync/plan.js";
import type { DayStream } from "../vocabulary.js";
import {
  type CalendarDay,
  coverageCalendar,
  coverageOf,
  type GapCoverage,
  isIn,
} from "./coverage.js";
import { checkRunProcess, effectiveRunStatus, type ProcessCheck } from "./run-liveness.js";

/** The stores of reads this module reads. */
export type StatusReader = Pick<
  Reader,
  "where" | "locations" | "checkpoints" | "status" | "messages" | "turns"
>;

export interface Gap {
  from: string;
  to: string;
  /** missing: never read; incomplete or failed: read, and not proven complete; suspicious: the
   * API suddenly listed far fewer records than were stored (nothing was deleted). */
  status: GapCoverage;
  error: string | null;
}

export interface DayStreamStatus {
  stream: DayStream;
  /** The location's today: days after it are never gaps. */
  today: string;
  firstDay: string | null;
  /** The last day of the unbroken run of complete days from the first: days whose end was
   * read. */
  completeThrough: string | null;
  /** The same run counting open days too: how far the data reaches (the sync's lag). */
  readThrough: string | null;
  /** Days read completely while they were still going (the location's today, usually): the
   * next run reads them again. */
  openDays: string[];
  lastSyncedAt: string | null;
  completeDays: number;
  gaps: Gap[];
  /** Windows stored for days after today (by a run from before such dates were refused). */
  futureDays: string[];
  /** Live rows; rows the API stopped listing count apart, in `deleted`. */
  rows: number;
  deleted: number;
  /** Distinct records set aside in rejected_records. */
  rejected: number;
  /** One cell a day, the latest `calendarDays` through today (status's terminal calendar; the
   * status page asks for every day). */
  calendar: CalendarDay[];
}

export interface SnapshotStatus {
  stream: "location" | "catalog";
  syncedAt: string | null;
  status: string | null;
  error: string | null;
  /** Rows per table: live and marked deleted. */
  tables: Record<string, RowCounts>;
}

export interface LocationStatus {
  id: string;
  name: string | null;
  /** Whether its location record was read (its name may still be null). */
  read: boolean;
  key: string | null;
  streams: DayStreamStatus[];
  snapshots: SnapshotStatus[];
  /** Where several workers share the database (PostgreSQL): who syncs it now, who did last. */
  turn?: Omit<LocationTurn, "key">;
  /** How far its stored days were proved again, and the repairs of the last 30 days. */
  history: AuditProgress;
}

/** The audit's coverage of a location's stored days (AuditCoverage), with the start of the
 * span its repairs are counted over. */
export interface AuditProgress extends AuditCoverage {
  repairsSince: string;
}

/** The span `status` counts repairs over. */
const REPAIRS_SPAN_DAYS = 30;

export interface RunSummary {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  /** interrupted for a run recorded as running whose process is gone; else as recorded. */
  status: string;
  recordedStatus: string;
  /** For a run recorded as running: whether its process was found (null once it ended). */
  process: ProcessCheck | null;
  pid: number | null;
  hostname: string | null;
  trigger: string;
  requests: number | null;
  retries: number | null;
  rateLimited: number | null;
  error: string | null;
}

export interface StatusReport {
  database: string;
  today: string;
  locations: LocationStatus[];
  lastRun: RunSummary | null;
  /** What the daemon sends: the last morning report, the outbox, the open alerts. */
  messages: DeliveryState;
}

/** Complete, or open: read completely while the day was still going. Neither is a gap. */
function isRead(status: string): boolean {
  return isIn(coverageOf(status));
}

/** The calendar's days not in, as date ranges of one coverage each. */
function gapsOf(calendar: readonly CalendarDay[]): Gap[] {
  const byDay = new Map(calendar.map((cell) => [cell.day, cell]));
  const daysByStatus = new Map<GapCoverage, string[]>();
  for (const { coverage, day } of calendar) {
    if (isIn(coverage)) continue;
    const days = daysByStatus.get(coverage) ?? [];
    days.push(day);
    daysByStatus.set(coverage, days);
  }
  const gaps = [...daysByStatus].flatMap(([status, days]) =>
    dayRanges(days).map((range) => ({
      ...range,
      status,
      error: byDay.get(range.to)?.error ?? null,
    })),
  );
  return gaps.sort((a, b) => a.from.localeCompare(b.from));
}

/** The last day of the unbroken run, from the first window, of days whose status counts. */
function unbrokenThrough(windows: WindowRow[], counts: (status: string) => boolean): string | null {
  const days = new Set(windows.filter((w) => counts(w.status)).map((w) => w.day));
  let through: string | null = null;
  const first = windows[0]?.day;
  for (let day = first; day !== undefined && days.has(day); day = addDays(day, 1)) through = day;
  return through;
}

async function calendarOf(
  destination: StatusReader,
  locationId: string,
  stream: DayStreamDescription,
  windows: WindowRow[],
  todayDay: string,
): Promise<CalendarDay[]> {
  const rejects = await destination.status.rejectedByDay(stream, locationId);
  const rejectedByDay = new Map(rejects.map((r) => [r.day, r.count]));
  return coverageCalendar(stream.name, windows, rejectedByDay, todayDay).days;
}

async function dayStreamStatus(
  destination: StatusReader,
  locationId: string,
  stream: DayStreamDescription,
  todayDay: string,
  calendarDays: number,
): Promise<DayStreamStatus> {
  const all = await destination.checkpoints.windowRows(locationId, stream.name);
  const windows = all.filter((w) => w.day <= todayDay);
  const rows = (await destination.status.rowCounts(stream, locationId)).counts;
  const calendar = await calendarOf(destination, locationId, stream, windows, todayDay);
  return {
    stream: stream.name,
    today: todayDay,
    firstDay: windows[0]?.day ?? null,
    completeThrough: unbrokenThrough(windows, (status) => status === "complete"),
    readThrough: unbrokenThrough(windows, isRead),
    openDays: windows.filter((w) => w.status === "open").map((w) => w.day),
    lastSyncedAt: all.reduce<string | null>(
      (latest, w) => (latest && latest > w.synced_at ? latest : w.synced_at),
      null,
    ),
    completeDays: windows.filter((w) => w.status === "complete").length,
    gaps: gapsOf(calendar),
    futureDays: all.filter((w) => w.day > todayDay).map((w) => w.day),
    rows: rows.live,
    deleted: rows.deleted,
    rejected: await destination.status.rejectedCount(stream, locationId),
    calendar: calendar.slice(Math.max(0, calendar.length - calendarDays)),
  };
}

/** The lists each snapshot stream stores, whose tables status counts. */
export interface StatusStreams {
  dayStreams: readonly DayStreamDescription[];
  snapshots: { stream: SnapshotStatus["stream"]; lists: readonly SnapshotListDescription[] }[];
}

export const ALL_STATUS_STREAMS: StatusStreams = {
  dayStreams: DAY_STREAM_DESCRIPTIONS,
  snapshots: [
    { stream: "location", lists: [DEVICES] },
    { stream: "catalog", lists: CATALOG_LISTS },
  ],
};

async function snapshotStatus(
  destination: StatusReader,
  locationId: string,
  stream: SnapshotStatus["stream"],
  lists: readonly SnapshotListDescription[],
): Promise<SnapshotStatus> {
  const window = await destination.checkpoints.latestWindow(locationId, stream);
  const tables: SnapshotStatus["tables"] = {};
  for (const list of lists) {
    const { table, counts } = await destination.status.rowCounts(list, locationId);
    tables[table] = counts;
  }
  return {
    stream,
    syncedAt: window?.synced_at ?? null,
    status: window?.status ?? null,
    error: window?.last_error ?? null,
    tables,
  };
}

/** A recorded run as status tells it: a run left "running" by a process that is gone was
 * interrupted. */
export function summarizeRun(run: RunRow): RunSummary {
  const check = checkRunProcess(run);
  return {
    ...run,
    status: effectiveRunStatus(run, check),
    recordedStatus: run.status,
    process: check,
  };
}

async function lastRun(destination: StatusReader): Promise<RunSummary | null> {
  const run = await destination.checkpoints.lastRun();
  return run ? summarizeRun(run) : null;
}

export interface StatusOptions {
  streams?: StatusStreams;
  /** Days of each day stream's calendar, through today (default eight weeks). */
  calendarDays?: number;
}

/** Eight weeks: what a terminal line shows. */
export const DEFAULT_CALENDAR_DAYS = 56;

/** One location's status: its day streams, snapshots, worker turn and audit coverage. */
async function locationStatus(
  destination: StatusReader,
  location: KnownLocation,
  turns: ReadonlyMap<string, Omit<LocationTurn, "key">>,
  now: Date,
  options: StatusOptions,
): Promise<LocationStatus> {
  const streams = options.streams ?? ALL_STATUS_STREAMS;
  const calendarDays = options.calendarDays ?? DEFAULT_CALENDAR_DAYS;
  // A location's day is its own calendar's: its time zone's, or its stored orders' offset, else
  // UTC's.
  const offset = await destination.locations.utcOffsetMinutes(location.id, now);
  const locationToday = today(now, offset ?? 0);
  const dayStreams: DayStreamStatus[] = [];
  for (const stream of streams.dayStreams)
    dayStreams.push(
      await dayStreamStatus(destination, location.id, stream, locationToday, calendarDays),
    );
  const snapshots: SnapshotStatus[] = [];
  for (const { stream, lists } of streams.snapshots)
    snapshots.push(await snapshotStatus(destination, location.id, stream, lists));
  const turn = location.key === null ? undefined : turns.get(location.key);
  const repairsSince = new Date(now.getTime() - REPAIRS_SPAN_DAYS * 86_400_000).toISOString();
  const history = {
    ...(await destination.checkpoints.auditCoverage(location.id, locationToday, repairsSince)),
    repairsSince,
  };
  return { ...location, streams: dayStreams, snapshots, ...(turn ? { turn } : {}), history };
}

export async function collectStatus(
  destination: StatusReader,
  now: Date = new Date(),
  options: StatusOptions = {},
): Promise<StatusReport> {
  const turns = new Map(
    (await destination.turns?.locationTurns())?.map(({ key, ...turn }) => [key, turn]) ?? [],
  );
  // The locations read at once: on PostgreSQL each read is a round trip, which a chain's
  // locations then share the waits of (the reader's pool bounds them).
  const locations = await Promise.all(
    (await destination.locations.knownLocations()).map((location) =>
      locationStatus(destination, location, turns, now, options),
    ),
  );
  return {
    database: destination.where,
    today: today(now),
    lastRun: await lastRun(destination),
    locations,
    messages: await destination.messages.deliveryState(),
  };
}
