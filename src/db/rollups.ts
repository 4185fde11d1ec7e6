/**
 * The summary tables (schema/rollups.ts): one day of one location recomputed from its orders at
 * once, and each report's reconciliation with the orders stored for it. A write marks the days
 * and reports it changed (summary_pending) in its own transaction; `settle` recomputes them at
 * the end of the day's window, once however many pages the day took, and a run killed in
 * between leaves them marked for the next. The rollup upgrade fills the tables for databases
 * made before they existed. The rule of a sale and of a line lives here, once.
 */
import type Database from "better-sqlite3";

/** An order that counts in sales: neither cancelled, nor training, nor transferred. */
const SALE = "o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0";
/** The orders of one location and business day that stand (not deleted upstream). */
const DAY = "o.location_id = @location AND o.business_date = @day AND o.deleted_at IS NULL";

/** The summary table that groups by the hour on the location's clock. */
export const HOURLY_SALES = "hourly_sales";

/** Each summary table and the SELECT that gives a day's rows of it, in its column order. */
const ROLLUPS: readonly { table: string; select: string }[] = [
  {
    table: "daily_sales",
    select: `SELECT o.location_id, o.business_date,
      COUNT(*) FILTER (WHERE ${SALE}),
      TOTAL(o.guests) FILTER (WHERE ${SALE}),
      ROUND(TOTAL(o.total) FILTER (WHERE ${SALE}), 2),
      ROUND(TOTAL(o.total_tax) FILTER (WHERE ${SALE}), 2),
      ROUND(TOTAL(o.total - o.total_tax) FILTER (WHERE ${SALE}), 2),
      ROUND(TOTAL(o.total_discount) FILTER (WHERE ${SALE}), 2),
      COUNT(*) FILTER (WHERE o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 1),
      ROUND(TOTAL(o.total) FILTER (WHERE o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 1), 2),
      COUNT(*) FILTER (WHERE o.is_canceled = 1),
      ROUND(TOTAL(o.total) FILTER (WHERE o.is_canceled = 1), 2),
      COUNT(*) FILTER (WHERE o.is_training = 1)
    FROM orders o WHERE ${DAY}
    GROUP BY o.location_id, o.business_date`,
  },
  {
    table: "daily_product_sales",
    select: `SELECT o.location_id, o.business_date, i.item_catalog_id,
      MAX(i.description), MAX(i.category), MAX(i.sub_category),
      TOTAL(i.quantity), ROUND(TOTAL(i.total), 2), ROUND(TOTAL(i.tax_amount), 2),
      ROUND(TOTAL(i.total - i.tax_amount), 2), COUNT(DISTINCT i.order_id)
    FROM orders o JOIN order_items i ON i.order_id = o.id
    WHERE ${DAY} AND ${SALE} AND i.is_canceled = 0
    GROUP BY i.item_catalog_id`,
  },
  {
    table: "daily_payment_sales",
    select: `SELECT o.location_id, o.business_date, p.payment_name,
      COUNT(*), ROUND(TOTAL(p.payment_amount), 2)
    FROM orders o JOIN order_payments p ON p.order_id = o.id
    WHERE ${DAY} AND ${SALE}
    GROUP BY p.payment_name`,
  },
  {
    table: "daily_tax_sales",
    select: `SELECT o.location_id, o.business_date, i.tax_rate_bp, MAX(i.tax_name),
      ROUND(TOTAL(i.total), 2), ROUND(TOTAL(i.tax_amount), 2),
      ROUND(TOTAL(i.total - i.tax_amount), 2)
    FROM orders o JOIN order_items i ON i.order_id = o.id
    WHERE ${DAY} AND ${SALE} AND i.is_canceled = 0
    GROUP BY i.tax_rate_bp`,
  },
  {
    table: HOURLY_SALES,
    // The hour on the location's clock, stored with the order (local-clock.ts).
    select: `SELECT o.location_id, o.business_date, o.closed_hour AS hour,
      COUNT(*), ROUND(TOTAL(o.total), 2)
    FROM orders o WHERE ${DAY} AND ${SALE} AND o.closed_hour IS NOT NULL
    GROUP BY hour`,
  },
  {
    table: "daily_operator_sales",
    select: `SELECT o.location_id, o.business_date, o.operator_id, MAX(o.operator_name),
      COUNT(*) FILTER (WHERE ${SALE}),
      ROUND(TOTAL(o.total) FILTER (WHERE ${SALE}), 2),
      ROUND(TOTAL(o.total_discount) FILTER (WHERE ${SALE}), 2),
      COUNT(*) FILTER (WHERE o.is_canceled = 1),
      ROUND(TOTAL(o.total) FILTER (WHERE o.is_canceled = 1), 2),
      COALESCE(SUM(c.items) FILTER (WHERE o.is_canceled = 0), 0),
      ROUND(TOTAL(c.amount) FILTER (WHERE o.is_canceled = 0), 2)
    FROM orders o
    LEFT JOIN (
      SELECT i.order_id, COUNT(*) AS items, TOTAL(i.total) AS amount
      FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE ${DAY} AND i.is_canceled = 1
      GROUP BY i.order_id
    ) c ON c.order_id = o.id
    WHERE ${DAY} AND o.is_training = 0
    GROUP BY o.operator_id`,
  },
];

interface DayParameters {
  location: string;
  day: string;
}

/** A report against its stored orders, recomputed whole: the orders it lists, those stored for
 * it, those it lists that are not stored, and the total of its sales orders. */
const REPORT_SUMS = `INSERT INTO report_order_sums
  SELECT r.id, r.location_id,
    (SELECT COUNT(*) FROM report_orders ro WHERE ro.report_id = r.id),
    (SELECT COUNT(*) FROM orders o WHERE o.report_id = r.id AND o.deleted_at IS NULL),
    (SELECT COUNT(*) FROM report_orders ro WHERE ro.report_id = r.id
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)),
    (SELECT ROUND(TOTAL(o.total), 2) FROM orders o
       WHERE o.report_id = r.id AND o.deleted_at IS NULL AND ${SALE})
  FROM reports r WHERE r.id = ?`;

/** The reports a day's orders belong to, or are listed by. */
const REPORTS_OF_DAY = `SELECT report_id FROM orders
  WHERE location_id = @location AND business_date = @day
  UNION
  SELECT ro.report_id FROM orders o JOIN report_orders ro ON ro.order_id = o.id
  WHERE o.location_id = @location AND o.business_date = @day`;

/** A day of a location whose orders changed. */
export interface LocationDay {
  locationId: string;
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
  private readonly mark: Database.Statement<[string, string, string]>;
  private readonly pending: Database.Statement<
    [string | null, string | null],
    { kind: string; location_id: string; key: string }
  >;
  private readonly unmark: Database.Statement<[string, string, string]>;
  private readonly removeReportSums: Database.Statement<[string]>;
  private readonly fillReportSums: Database.Statement<[string]>;

  constructor(sqlite: Database.Database) {
    this.reportsOfDay = sqlite.prepare<[DayParameters], string>(REPORTS_OF_DAY).pluck();
    this.mark = sqlite.prepare(
      "INSERT INTO summary_pending (kind, location_id, key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    );
    this.pending = sqlite.prepare(
      "SELECT kind, location_id, key FROM summary_pending WHERE (? IS NULL OR location_id = ?)",
    );
    this.unmark = sqlite.prepare(
      "DELETE FROM summary_pending WHERE kind = ? AND location_id = ? AND key = ?",
    );
    this.removeReportSums = sqlite.prepare("DELETE FROM report_order_sums WHERE report_id = ?");
    this.fillReportSums = sqlite.prepare(REPORT_SUMS);
    this.statements = ROLLUPS.map(({ table, select }) => ({
      table,
      remove: sqlite.prepare(
        `DELETE FROM ${table} WHERE location_id = @location AND business_date = @day`,
      ),
      fill: sqlite.prepare(`INSERT INTO ${table} ${select}`),
    }));
  }

  /** Marks days whose orders changed, for the next `settle`. */
  markDays(days: Iterable<LocationDay>): void {
    for (const { locationId, day } of days) this.mark.run("day", locationId, day);
  }

  /** Marks reports that changed, for the next `settle`. */
  markReports(locationId: string, reportIds: Iterable<string>): void {
    for (const id of reportIds) this.mark.run("report", locationId, id);
  }

  /** Recomputes what is marked (one location's, or all) and clears the marks; returns how many
   * days and reports it recomputed. Call inside a write transaction. */
  settle(locationId?: string): number {
    const marked = this.pending.all(locationId ?? null, locationId ?? null);
    const days = marked.filter((m) => m.kind === "day");
    // A report both marked and behind a marked day is recomputed once.
    const reports = this.refreshDays(days.map((m) => ({ locationId: m.location_id, day: m.key })));
    for (const m of marked) if (m.kind === "report") reports.add(m.key);
    this.refreshReports(reports);
    for (const m of marked) this.unmark.run(m.kind, m.location_id, m.key);
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
