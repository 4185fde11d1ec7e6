/**
 * The summary tables (schema/rollups.ts): one day of one location recomputed from its orders at
 * once, and each report's reconciliation with the orders stored for it. A write marks the days
 * and reports it changed (summary_pending) in its own transaction; `settle` recomputes them at
 * the end of the day's window, once however many pages the day took, and a run killed in
 * between leaves them marked for the next. The rollup upgrade fills the tables for databases
 * made before they existed. The SQL is both destinations' (sql/rollups.ts, sql/summary-marks.ts).
 */
import type Database from "better-sqlite3";
import type { LocationDay } from "../../vocabulary.js";
import { SQLITE_DIALECT } from "../sql/dialect.js";
import { type DaysToRecompute, ROLLUPS, reportSums, reportsOfDays } from "../sql/rollups.js";
import {
  keysByLocation,
  type MarkKind,
  markSql,
  type SummaryMark,
  takeMarksParams,
  takeMarksSql,
} from "../sql/summary-marks.js";

const DAY = "o.location_id = @location AND o.business_date = @day AND o.deleted_at IS NULL";

/** The day the statements recompute: one, named by their parameters. */
const ONE_DAY: DaysToRecompute = {
  from: "(SELECT @location AS location_id, @day AS business_date) d",
  groupedBy: () => "",
  cancelledItems: `LEFT JOIN (
      SELECT i.order_key, COUNT(*) AS items, SUM(i.total) AS amount
      FROM orders o JOIN order_item_rows i ON i.order_key = o.key
      WHERE ${DAY} AND i.is_canceled
      GROUP BY i.order_key
    ) c ON c.order_key = o.key`,
  ordersCounted: "distinct",
};

interface DayParameters {
  location: string;
  day: string;
}

/** Recomputes the summary rows of days, with statements prepared once. Call it inside the
 * transaction that changed their orders. */
export class Rollups {
  private readonly statements: {
    table: string;
    remove: Database.Statement<[DayParameters]>;
    fill: Database.Statement<[DayParameters]>;
  }[];

  private readonly reportsOfDay: Database.Statement<[DayParameters], string>;
  private readonly mark: Record<MarkKind, Database.Statement<[{ 1: string; 2: unknown }]>>;
  private readonly takeMarks: Database.Statement<[Record<1 | 2 | 3, unknown>], SummaryMark>;
  private readonly removeReportSums: Database.Statement<[string]>;
  private readonly fillReportSums: Database.Statement<[string]>;

  constructor(sqlite: Database.Database) {
    this.reportsOfDay = sqlite.prepare<[DayParameters], string>(reportsOfDays(ONE_DAY)).pluck();
    this.mark = {
      day: sqlite.prepare(markSql(SQLITE_DIALECT, "day")),
      report: sqlite.prepare(markSql(SQLITE_DIALECT, "report")),
    };
    this.takeMarks = sqlite.prepare(takeMarksSql(SQLITE_DIALECT));
    this.removeReportSums = sqlite.prepare("DELETE FROM report_order_sums WHERE report_id = ?");
    this.fillReportSums = sqlite.prepare(`INSERT INTO report_order_sums ${reportSums("r.id = ?")}`);
    this.statements = ROLLUPS.map(({ table, select }) => ({
      table,
      remove: sqlite.prepare(
        `DELETE FROM ${table} WHERE location_id = @location AND business_date = @day`,
      ),
      fill: sqlite.prepare(`INSERT INTO ${table} ${select(ONE_DAY)}`),
    }));
  }

  /** Marks days whose orders changed, for the next `settle`. */
  markDays(days: Iterable<LocationDay>): void {
    for (const [locationId, keys] of keysByLocation(days)) this.markKeys("day", locationId, keys);
  }

  /** Marks reports that changed, for the next `settle`. */
  markReports(locationId: string, reportIds: Iterable<string>): void {
    this.markKeys("report", locationId, [...reportIds]);
  }

  private markKeys(kind: MarkKind, locationId: string, keys: readonly string[]): void {
    if (keys.length > 0) this.mark[kind].run({ 1: locationId, 2: SQLITE_DIALECT.list(keys) });
  }

  /** Recomputes what is marked (all, or one location's) and clears the marks; returns how many
   * days and reports it recomputed. With `day`, a location's reports and that day alone (none
   * for null): what a window's end settles (DaysToSettle). Call inside a write transaction. */
  settle(locationId?: string, day?: string | null): number {
    const [location, oneDay, everyDay] = takeMarksParams(locationId ?? null, day);
    const marked = this.takeMarks.all({ 1: location, 2: oneDay, 3: everyDay });
    const days = marked.filter((m) => m.kind === "day");
    // A report both marked and behind a marked day is recomputed once.
    const reports = this.refreshDays(days.map((m) => ({ locationId: m.location_id, day: m.key })));
    for (const m of marked) if (m.kind === "report") reports.add(m.key);
    this.refreshReports(reports);
    return marked.length;
  }

  /** Recomputes the summaries of these days; returns the reports their orders belong to or are
   * listed by, whose reconciliation the caller recomputes (refreshReports). */
  refreshDays(days: Iterable<LocationDay>): Set<string> {
    const reports = new Set<string>();
    for (const { locationId, day } of days) {
      const parameters = { location: locationId, day };
      for (const { remove, fill } of this.statements) {
        remove.run(parameters);
        fill.run(parameters);
      }
      for (const report of this.reportsOfDay.all(parameters)) reports.add(report);
    }
    return reports;
  }

  /** Recomputes one summary table for these days (the hourly one, after the hours of their
   * orders were recomputed on another clock). */
  refreshTable(table: string, days: Iterable<LocationDay>): void {
    const statement = this.statements.find((s) => s.table === table);
    if (!statement) throw new RangeError(`no summary table ${table}`);
    for (const { locationId, day } of days) {
      const parameters = { location: locationId, day };
      statement.remove.run(parameters);
      statement.fill.run(parameters);
    }
  }

  /** Recomputes the reconciliation of these reports with their orders. */
  refreshReports(reportIds: Iterable<string>): void {
    for (const id of reportIds) {
      this.removeReportSums.run(id);
      this.fillReportSums.run(id);
    }
  }
}
