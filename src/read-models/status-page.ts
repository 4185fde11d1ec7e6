/**
 * What the status page shows: status's report with every day of each calendar, the latest runs,
 * how long since the last success (and whether that is late for the schedule), per location the
 * last 60 days of sales and the reports' reconciliation, the keys the latest run could not use,
 * and the locations' clock for the times shown. Read from the database only.
 */
import { addDays, eachDay } from "../clock/days.js";
import { scheduledTimesBetween } from "../clock/schedule-times.js";
import type { RunLocationOutcome } from "../db/reads/checkpoints.js";
import type { DailySalesRow, ReportStateRow } from "../db/reads/status.js";
import { isIn } from "./coverage.js";
import {
  collectStatus,
  type LocationStatus,
  type RunSummary,
  type StatusReader,
  type StatusReport,
  summarizeRun,
} from "./status.js";

/** Runs listed, and days of sales charted. */
export const PAGE_RUNS = 12;
export const SALES_DAYS = 60;

/** A day of sales; `synced` says whether the day's orders are in (a day without orders that
 * is in has zero sales; one that is not in has unknown sales). A day before the first the
 * orders were read from has nothing to sync: a young location's chart starts there. */
export interface SalesDay extends DailySalesRow {
  synced: boolean;
  beforeFirstDay: boolean;
}

/** A key whose location stopped in the latest run that ended: rejected by the API, say. */
export interface KeyFailure {
  /** The key's fingerprint. */
  key: string;
  /** The configuration's name for it, else the stored location's, if any. */
  name: string | null;
  runId: number;
  error: string;
  keyRejected: boolean;
}

export interface LocationPage {
  location: LocationStatus;
  /** The last SALES_DAYS days through the location's today, oldest first. */
  sales: SalesDay[];
  /** The reports of those days, and how each reconciles with its stored orders. */
  reports: ReportStateRow[];
  /** Why the latest run could not sync it, when it could not. */
  failure: KeyFailure | null;
}

export interface PageRun extends RunSummary {
  /** Null while running, and for an interrupted run. */
  durationMs: number | null;
}

export interface Freshness {
  schedule: string;
  lastSuccessAt: string | null;
  /** Scheduled runs have come and gone since the last success (or since the oldest listed run,
   * when none has succeeded yet), LATE_AFTER_RUNS of them, each given LATE_GRACE_MS to end. */
  late: boolean;
}

/** Twice the schedule: one missed run is a hiccup the next run mends; two are a pattern. */
export const LATE_AFTER_RUNS = 2;
/** How long a scheduled run has to succeed before it counts as missed. */
export const LATE_GRACE_MS = 5 * 60_000;

export interface StatusPageData {
  generatedAt: string;
  status: StatusReport;
  runs: PageRun[];
  freshness: Freshness;
  locations: LocationPage[];
  /** Keys the latest run could not use whose location was never stored: no card of their own
   * otherwise. */
  failedKeys: KeyFailure[];
  /** The UTC offset in minutes of the locations' clock at each instant the page shows, when
   * every location knows its clock and they agree; an instant not listed is shown in UTC. */
  localOffsets: Record<string, number>;
}

function freshness(
  schedule: string,
  lastSuccessAt: string | null,
  runs: PageRun[],
  now: Date,
): Freshness {
  const since = lastSuccessAt ?? runs.at(-1)?.startedAt ?? null;
  const missed =
    since === null
      ? []
      : scheduledTimesBetween(
          schedule,
          new Date(since),
          new Date(now.getTime() - LATE_GRACE_MS),
          LATE_AFTER_RUNS,
        );
  return { schedule, lastSuccessAt, late: missed.length >= LATE_AFTER_RUNS };
}

function salesDays(
  rows: DailySalesRow[],
  ordersIn: Set<string>,
  firstDay: string | null,
  today: string,
): SalesDay[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return eachDay(addDays(today, -(SALES_DAYS - 1)), today).map((day) => {
    const row = byDay.get(day);
    return {
      day,
      orders: row?.orders ?? 0,
      sales: row?.sales ?? 0,
      cancelledOrders: row?.cancelledOrders ?? 0,
      cancelledTotal: row?.cancelledTotal ?? 0,
      transferredOrders: row?.transferredOrders ?? 0,
      transferredSales: row?.transferredSales ?? 0,
      synced: ordersIn.has(day) || row !== undefined,
      beforeFirstDay: firstDay !== null && day < firstDay && row === undefined,
    };
  });
}

async function locationPage(
  destination: StatusReader,
  location: LocationStatus,
  failure: KeyFailure | null,
): Promise<LocationPage> {
  const orders = location.streams.find((stream) => stream.stream === "orders");
  const today = orders?.today ?? location.streams[0]?.today;
  if (today === undefined) return { location, sales: [], reports: [], failure };
  const from = addDays(today, -(SALES_DAYS - 1));
  const ordersIn = new Set(
    (orders?.calendar ?? []).filter((cell) => isIn(cell.coverage)).map((cell) => cell.day),
  );
  const [rows, reports] = await Promise.all([
    destination.status.dailySales(location.id, from, today),
    destination.status.reportStates(location.id, from, today),
  ]);
  const sales = salesDays(rows, ordersIn, orders?.firstDay ?? null, today);
  return { location, sales, reports, failure };
}

function keyFailure(outcome: RunLocationOutcome): KeyFailure | null {
  if (outcome.error === null) return null;
  return {
    key: outcome.key,
    name: outcome.label ?? outcome.name,
    runId: outcome.runId,
    error: outcome.error,
    keyRejected: outcome.keyRejected,
  };
}

/** The latest run's failures: each on its location's card, or on a card of its own when its
 * location is not stored (a key rejected from the first run on). */
function placeFailures(
  locations: readonly LocationStatus[],
  outcomes: readonly RunLocationOutcome[],
): { byLocation: Map<string, KeyFailure>; unplaced: KeyFailure[] } {
  const byLocation = new Map<string, KeyFailure>();
  const unplaced: KeyFailure[] = [];
  for (const outcome of outcomes) {
    const failure = keyFailure(outcome);
    if (!failure) continue;
    const location = locations.find(
      (l) => l.id === outcome.locationId || (l.key !== null && l.key === outcome.key),
    );
    if (location) byLocation.set(location.id, failure);
    else unplaced.push(failure);
  }
  return { byLocation, unplaced };
}

/** The locations' clock at each instant shown: a person at the till reads the time on the
 * wall, not UTC. None when they are on different clocks at one of them (the page then keeps
 * UTC), or one's is not known. */
async function localOffsets(
  destination: StatusReader,
  locations: readonly LocationStatus[],
  instants: readonly string[],
): Promise<Record<string, number>> {
  const clocks = await Promise.all(locations.map((l) => destination.locations.utcOffsets(l.id)));
  const offsets: Record<string, number> = {};
  for (const instant of new Set(instants)) {
    const each = clocks.map((offsetAt) => offsetAt(new Date(instant)));
    const [shared] = each;
    // Clocks that disagree now disagree at the other instants too, give or take a summer time.
    if (shared === undefined || each.some((offset) => offset !== shared)) return {};
    offsets[instant] = shared;
  }
  return offsets;
}

function pageRun(run: RunSummary): PageRun {
  // An interrupted run's end may be when the next process found it abandoned: no duration.
  const durationMs =
    run.finishedAt && run.status !== "interrupted"
      ? Date.parse(run.finishedAt) - Date.parse(run.startedAt)
      : null;
  return { ...run, durationMs };
}

export async function collectStatusPage(
  destination: StatusReader,
  options: { schedule: string; now?: Date },
): Promise<StatusPageData> {
  const now = options.now ?? new Date();
  // Every day of each calendar: the page draws the whole synced range.
  const status = await collectStatus(destination, now, { calendarDays: Number.POSITIVE_INFINITY });
  const runs = (await destination.checkpoints.recentRuns(PAGE_RUNS)).map((run) =>
    pageRun(summarizeRun(run)),
  );
  const failures = placeFailures(
    status.locations,
    await destination.checkpoints.lastRunLocations(),
  );
  const locations = await Promise.all(
    status.locations.map((location) =>
      locationPage(destination, location, failures.byLocation.get(location.id) ?? null),
    ),
  );
  const generatedAt = now.toISOString();
  const lastSuccessAt = await destination.checkpoints.lastSuccessAt();
  const instants = [generatedAt, ...(lastSuccessAt ? [lastSuccessAt] : [])];
  for (const run of runs) instants.push(run.startedAt);
  return {
    generatedAt,
    status,
    runs,
    freshness: freshness(options.schedule, lastSuccessAt, runs, now),
    locations,
    failedKeys: failures.unplaced,
    localOffsets: await localOffsets(destination, status.locations, instants),
  };
}
