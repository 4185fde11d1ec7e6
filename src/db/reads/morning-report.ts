/** What the morning report reads (morning-report/morning-report.ts): a location's sales on some
 * days, a day's exceptions from the loss-prevention views, and what the bookkeeping says of the
 * day. The views are read once for every location of a day, not location by location: each
 * read of them costs about the same for one location as for a chain (their sums of payments and
 * discounts cover the whole table), measured on a year of 20 locations. */

import type { ReadSession } from "./session.js";

export interface DaySalesRow {
  day: string;
  orders: number;
  guests: number;
  sales: number;
}

/** An order the report points at: who, which, how much, and when (as stored). */
export interface ExceptionRow {
  locationId: string;
  orderNumber: string;
  operatorName: string | null;
  amount: number;
  at: string | null;
  /** What the kind adds: the item voided, the reason for a cancellation, the minutes after the
   * report. */
  detail: string | null;
  /** What was paid, for an order paid short. */
  paid: number | null;
}

/** A day's orders of each kind the report lists (keys as morning-report/morning-report.ts names
 * them). */
export interface DayExceptionRows {
  cancelledAfterPayment: ExceptionRow[];
  voidedAfterClose: ExceptionRow[];
  paymentsShort: ExceptionRow[];
  trainingWithPayments: ExceptionRow[];
  changedAfterReport: ExceptionRow[];
}

export interface DiscountRow {
  locationId: string;
  operatorId: string;
  operatorName: string;
  discounts: number;
  sales: number;
}

export interface UnreconciledReportRow {
  locationId: string;
  reportNumber: number;
  difference: number;
  ordersMissing: number;
  status: string;
}

export interface DayWindowRow {
  stream: string;
  status: string;
  provedAt: string | null;
}

export interface DayHealthRows {
  windows: DayWindowRow[];
  repairs: number;
  rejects: number;
}

export class MorningReportReads {
  constructor(private readonly db: ReadSession) {}

  /** The location's sales, orders and guests on each of `days` that has any. */
  salesOnDays(locationId: string, days: readonly string[]): Promise<DaySalesRow[]> {
    return this.db.all(
      `SELECT CAST(business_date AS TEXT) AS day, orders, guests, total_sales AS sales
       FROM daily_sales
       WHERE location_id = ${this.db.p(1)} AND ${this.db.dialect.inList("CAST(business_date AS TEXT)", 2)}`,
      [locationId, days],
    );
  }

  /** The day's orders of each kind of exception at these locations, costliest first. */
  async dayExceptions(locationIds: readonly string[], day: string): Promise<DayExceptionRows> {
    const list = (select: string, from: string, extra = "") =>
      this.db.all<ExceptionRow>(
        `SELECT x.location_id AS "locationId", x.order_number AS "orderNumber", ${select}
         FROM ${from}
         WHERE ${this.db.dialect.inList("x.location_id", 1)} AND x.business_date = ${this.db.p(2)}${extra}
         ORDER BY "amount" DESC, "orderNumber"`,
        [locationIds, day],
      );
    // When an order without a moment of its own in its view was closed: from `orders`, whose
    // plain view keeps the key's index (v_orders, typed for BI tools, does not).
    const closed = (view: string) =>
      `${view} x JOIN orders o ON o.id = x.order_id AND o.location_id = x.location_id`;
    const [cancelled, voided, short, training, changed] = await Promise.all([
      list(
        `x.operator_name AS "operatorName", x.paid AS amount, x.cancelled_at_sent AS at,
         x.cancel_reason AS detail, NULL AS paid`,
        "v_cancelled_after_payment x",
      ),
      list(
        `x.operator_name AS "operatorName", x.amount, x.changed_at_sent AS at, x.description AS detail,
         NULL AS paid`,
        "v_items_voided_after_close x",
      ),
      list(
        `x.operator_name AS "operatorName", x.total AS amount, o.closed_at AS at, NULL AS detail,
         x.paid`,
        closed("v_payment_mismatches"),
        " AND x.difference < 0",
      ),
      list(
        `x.operator_name AS "operatorName", x.paid AS amount, o.closed_at AS at, NULL AS detail,
         NULL AS paid`,
        closed("v_training_with_payments"),
      ),
      list(
        `x.operator_name AS "operatorName", x.total AS amount, x.changed_at_sent AS at,
         CAST(x.minutes_after AS TEXT) AS detail, NULL AS paid`,
        "v_changed_after_report x",
      ),
    ]);
    return {
      cancelledAfterPayment: cancelled,
      voidedAfterClose: voided,
      paymentsShort: short,
      trainingWithPayments: training,
      changedAfterReport: changed,
    };
  }

  /** Each operator's discounts and sales at these locations over the days from `since` to
   * `until`, both included; in one order on both databases, as PostgreSQL's grouping answers in
   * any order and two operators flagged on one day would otherwise be listed in another. */
  discountsByOperator(
    locationIds: readonly string[],
    since: string,
    until: string,
  ): Promise<DiscountRow[]> {
    return this.db.all(
      `SELECT location_id AS "locationId", operator_id AS "operatorId",
         MAX(operator_name) AS "operatorName", SUM(discounts) AS discounts, SUM(sales) AS sales
       FROM v_discounts_by_operator
       WHERE ${this.db.dialect.inList("location_id", 1)}
         AND business_date BETWEEN ${this.db.p(2)} AND ${this.db.p(3)}
       GROUP BY location_id, operator_id
       ORDER BY location_id, operator_id`,
      [locationIds, since, until],
    );
  }

  /** The day's reports at these locations whose totals or orders do not agree with the stored
   * orders. */
  unreconciledReports(
    locationIds: readonly string[],
    day: string,
  ): Promise<UnreconciledReportRow[]> {
    return this.db.all(
      `SELECT location_id AS "locationId", report_number AS "reportNumber", difference,
         orders_missing AS "ordersMissing", status
       FROM v_report_reconciliation
       WHERE ${this.db.dialect.inList("location_id", 1)} AND business_date = ${this.db.p(2)}
         AND status <> 'ok'
       ORDER BY report_number`,
      [locationIds, day],
    );
  }

  /** The day's windows, the repairs the audit or verify made to it, its rejected records. */
  async dayHealth(locationId: string, day: string): Promise<DayHealthRows> {
    const params = [locationId, day];
    const [windows, repairs, rejects] = await Promise.all([
      this.db.all<DayWindowRow>(
        `SELECT stream, status, proved_at AS "provedAt" FROM sync_windows
         WHERE location_id = ${this.db.p(1)} AND day = ${this.db.p(2)} AND stream IN ('orders', 'reports')
         ORDER BY stream`,
        params,
      ),
      this.db.count(
        `SELECT COUNT(*) AS n FROM history_repairs
         WHERE location_id = ${this.db.p(1)} AND day = ${this.db.p(2)} AND outcome = 'repaired'`,
        params,
      ),
      this.db.count(
        `SELECT COUNT(*) AS n FROM rejected_records
         WHERE location_id = ${this.db.p(1)} AND day = ${this.db.p(2)}`,
        params,
      ),
    ]);
    return { windows, repairs, rejects };
  }
}
