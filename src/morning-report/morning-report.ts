/**
 * The morning report: for a day (by default yesterday on each location's clock), each location's
 * sales against the same weekday of the four weeks before, the day's exceptions by employee
 * (what loss-prevention guides tell an owner to read every morning), and whether the data behind
 * them is complete. Read from the views and the bookkeeping; no API call.
 */

import { addDays } from "../clock/days.js";
import { localMoment } from "../clock/local-moment.js";
import { today } from "../clock/today.js";
import { locationNamed } from "../db/reads/location-named.js";
import type {
  DayExceptionRows,
  DiscountRow,
  UnreconciledReportRow,
} from "../db/reads/morning-report.js";
import type { Reader } from "../db/reads/reader.js";
import { coverageOf } from "./completeness.js";
import { type ExceptionRows, exceptionsOf, type ReportException } from "./exceptions.js";
import { type DayFigures, figuresOf, priorWeekdays, usualOf, WEEKS_COMPARED } from "./figures.js";

/** The stores of reads this module reads. */
export type ReportReader = Pick<Reader, "report" | "locations" | "checkpoints">;

export interface DataHealth {
  /** Every window of the day (orders, reports) read complete. */
  complete: boolean;
  /** …and proved to hold what the API lists. */
  proved: boolean;
  /** The windows that are not complete, as `orders: failed`. */
  gaps: string[];
  repairs: number;
  rejects: number;
}

export interface LocationReport {
  locationId: string;
  name: string;
  /** ISO 3166 code, for the number format; null when the API gives none. */
  country: string | null;
  day: string;
  /** The day's figures; zeros on a day without sales. */
  figures: DayFigures;
  /** The same weekday of the four weeks before, averaged over those with sales (figures.ts);
   * null when none. */
  usual: DayFigures | null;
  /** How many of those four days had sales. */
  usualWeeks: number;
  exceptions: ReportException[];
  health: DataHealth;
}

export interface MorningReport {
  /** The day asked for, or null when each location's is its own yesterday. */
  day: string | null;
  /** Each location's days, from the first to the last (one day, unless clocks differ). */
  days: string[];
  generatedAt: string;
  locations: LocationReport[];
  /** The figures of the locations whose day is read (completeness.ts), null when none is: never
   * partial figures summed as the chain's. The exceptions are every location's. */
  chain: { figures: DayFigures | null; usual: DayFigures | null; exceptions: number };
  /** When the last run that succeeded finished. */
  lastSuccessAt: string | null;
}

export interface MorningReportOptions {
  /** YYYY-MM-DD; by default each location's yesterday. */
  day?: string;
  /** A location's id or name. */
  location?: string;
  /** These locations only, by id (the daemon's report of one clock). */
  locationIds?: readonly string[];
  now?: Date;
}

/** What the views say of a day at several locations, read once for all of them. */
interface DayRows {
  exceptions: DayExceptionRows;
  discountsOfDay: DiscountRow[];
  discountsBefore: DiscountRow[];
  reports: UnreconciledReportRow[];
}

async function dayRows(
  destination: ReportReader,
  locationIds: readonly string[],
  day: string,
): Promise<DayRows> {
  const [exceptions, discountsOfDay, discountsBefore, reports] = await Promise.all([
    destination.report.dayExceptions(locationIds, day),
    destination.report.discountsByOperator(locationIds, day, day),
    destination.report.discountsByOperator(
      locationIds,
      addDays(day, -7 * WEEKS_COMPARED),
      addDays(day, -1),
    ),
    destination.report.unreconciledReports(locationIds, day),
  ]);
  return { exceptions, discountsOfDay, discountsBefore, reports };
}

/** The rows of one location, as its exceptions are decided from them. */
function rowsOf(all: DayRows, locationId: string): ExceptionRows {
  const mine = <T extends { locationId: string }>(rows: readonly T[]) =>
    rows.filter((row) => row.locationId === locationId);
  const e = all.exceptions;
  return {
    cancelledAfterPayment: mine(e.cancelledAfterPayment),
    voidedAfterClose: mine(e.voidedAfterClose),
    paymentsShort: mine(e.paymentsShort),
    trainingWithPayments: mine(e.trainingWithPayments),
    changedAfterReport: mine(e.changedAfterReport),
    discountsOfDay: mine(all.discountsOfDay),
    discountsBefore: mine(all.discountsBefore),
    reports: mine(all.reports),
  };
}

/** A moment as the report shows it: its time alone on the report's day, dated on any other, so
 * that an order of the 28th cancelled at 03:45 on the 29th does not read as the 28th's 03:45. */
export function timeOnDay(moment: { day: string; time: string }, day: string): string {
  return moment.day === day ? moment.time : `${moment.day} ${moment.time}`;
}

async function locationReport(
  destination: ReportReader,
  location: { id: string; name: string },
  day: string,
  all: DayRows,
): Promise<LocationReport> {
  const weeksBefore = priorWeekdays(day);
  const rows = rowsOf(all, location.id);
  const [sales, health, offsets, country] = await Promise.all([
    destination.report.salesOnDays(location.id, [day, ...weeksBefore]),
    destination.report.dayHealth(location.id, day),
    destination.locations.utcOffsets(location.id),
    destination.locations.countryOf(location.id),
  ]);
  const time = (at: string | null) =>
    at === null ? null : timeOnDay(localMoment(at, offsets(new Date(at))), day);
  const usual = usualOf(day, sales);
  const gaps = ["orders", "reports"].flatMap((stream) => {
    const window = health.windows.find((w) => w.stream === stream);
    return window?.status === "complete" ? [] : [`${stream}: ${window?.status ?? "not read"}`];
  });
  return {
    locationId: location.id,
    name: location.name,
    country,
    day,
    figures: figuresOf(sales.filter((row) => row.day === day)),
    usual: usual.usual,
    usualWeeks: usual.weeks,
    exceptions: exceptionsOf(rows, time),
    health: {
      complete: gaps.length === 0,
      proved: gaps.length === 0 && health.windows.every((w) => w.provedAt !== null),
      gaps,
      repairs: health.repairs,
      rejects: health.rejects,
    },
  };
}

/** The locations a report covers, in the order they are known, each with the day it reports:
 * the day asked for, or the location's yesterday on its clock. */
export async function reportedLocations(
  destination: ReportReader,
  options: MorningReportOptions = {},
): Promise<{ id: string; name: string; day: string }[]> {
  const now = options.now ?? new Date();
  const known = (await destination.locations.knownLocations()).filter((l) => l.read);
  const wanted =
    options.location === undefined ? undefined : await locationNamed(destination, options.location);
  const locations = known.filter(
    (l) =>
      (wanted === undefined || l.id === wanted) &&
      (options.locationIds === undefined || options.locationIds.includes(l.id)),
  );
  const reported: { id: string; name: string; day: string }[] = [];
  for (const location of locations) {
    const offset = await destination.locations.utcOffsetMinutes(location.id, now);
    const day = options.day ?? addDays(today(now, offset ?? 0), -1);
    reported.push({ id: location.id, name: location.name ?? location.id, day });
  }
  return reported;
}

export async function collectMorningReport(
  destination: ReportReader,
  options: MorningReportOptions = {},
): Promise<MorningReport> {
  const now = options.now ?? new Date();
  const locations = await reportedLocations(destination, { ...options, now });
  const days = new Map<string, { id: string; name: string }[]>();
  for (const { day, ...location } of locations) days.set(day, [...(days.get(day) ?? []), location]);
  const byId = new Map<string, LocationReport>();
  for (const [day, ofDay] of days) {
    const all = await dayRows(
      destination,
      ofDay.map((l) => l.id),
      day,
    );
    for (const location of ofDay)
      byId.set(location.id, await locationReport(destination, location, day, all));
  }
  // In the order the locations are known, whatever their days.
  const reports = locations.flatMap((l) => byId.get(l.id) ?? []);
  const coverage = coverageOf(reports);
  return {
    day: options.day ?? null,
    days: [...new Set(reports.map((r) => r.day))].sort(),
    generatedAt: now.toISOString(),
    locations: reports,
    chain: {
      figures: coverage.figures,
      usual: coverage.usual,
      exceptions: reports.reduce((total, r) => total + r.exceptions.length, 0),
    },
    lastSuccessAt: await destination.checkpoints.lastSuccessAt(),
  };
}
