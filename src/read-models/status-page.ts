/**
 * What the status page shows: status's report with every day of each calendar, the latest runs,
 * how long since the last success (and whether that is late for the schedule), and per location
 * the last 60 days of sales and the reports' reconciliation. Read from the database only.
 */
import { addDays, eachDay } from "../dates.js";
import type { ReadableDestination } from "../db/destination.js";
import type { DailySalesRow, ReportStateRow } from "../db/read-queries.js";
import { scheduledTimesBetween } from "../schedule-times.js";
import { isIn } from "./coverage.js";
import {
  collectStatus,
  type LocationStatus,
  type RunSummary,
  type StatusReport,
  summarizeRun,
} from "./status.js";

/** Runs listed, and days of sales charted. */
export const PAGE_RUNS = 12;
export const SALES_DAYS = 60;

/** A day of sales; `synced` says whether the day's orders are in (a day without orders that
 * is in has zero sales; one that is not in has unknown sales). */
export interface SalesDay extends DailySalesRow {
  synced: boolean;
}

export interface LocationPage {
  location: LocationStatus;
  /** The last SALES_DAYS days through the location's today, oldest first. */
  sales: SalesDay[];
  /** The reports of those days, and how each reconciles with its stored orders. */
  reports: ReportStateRow[];
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

function salesDays(rows: DailySalesRow[], ordersIn: Set<string>, today: string): SalesDay[] {
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
    };
  });
}

async function locationPage(
  destination: ReadableDestination,
  location: LocationStatus,
): Promise<LocationPage> {
  const orders = location.streams.find((stream) => stream.stream === "orders");
  const today = orders?.today ?? location.streams[0]?.today;
  if (today === undefined) return { location, sales: [], reports: [] };
  const from = addDays(today, -(SALES_DAYS - 1));
  const ordersIn = new Set(
    (orders?.calendar ?? []).filter((cell) => isIn(cell.coverage)).map((cell) => cell.day),
  );
  const [rows, reports] = await Promise.all([
    destination.dailySales(location.id, from, today),
    destination.reportStates(location.id, from, today),
  ]);
  return { location, sales: salesDays(rows, ordersIn, today), reports };
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
  destination: ReadableDestination,
  options: { schedule: string; now?: Date },
): Promise<StatusPageData> {
  const now = options.now ?? new Date();
  // Every day of each calendar: the page draws the whole synced range.
  const status = await collectStatus(destination, now, { calendarDays: Number.POSITIVE_INFINITY });
  const runs = (await destination.recentRuns(PAGE_RUNS)).map((run) => pageRun(summarizeRun(run)));
  const locations: LocationPage[] = [];
  for (const location of status.locations)
    locations.push(await locationPage(destination, location));
  return {
    generatedAt: now.toISOString(),
    status,
    runs,
    freshness: freshness(options.schedule, await destination.lastSuccessAt(), runs, now),
    locations,
  };
}
