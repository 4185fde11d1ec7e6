/** What status and the status page read of the stored data: each table's rows, the records set
 * aside, the daily sales and each report's reconciliation. */

import { DAY_STREAMS } from "../../vocabulary.js";
import type { DayStreamTables, SnapshotListTables } from "../normalize/stream-tables.js";
import { relationName } from "../schema/relations.js";
import { distinctRejectsSql } from "./rejects-sql.js";
import type { ReadSession } from "./session.js";

export interface RowCounts {
  /** Rows the API lists now: the ones every view counts. */
  live: number;
  /** Rows kept for audit after the API stopped listing them. */
  deleted: number;
}

export interface RejectedOnDay {
  day: string;
  count: number;
}

/** One business day of one location's sales, from the daily summary (schema/rollups.ts). */
export interface DailySalesRow {
  day: string;
  /** Orders that count as sales (not cancelled, training nor transferred) and their total. */
  orders: number;
  sales: number;
  cancelledOrders: number;
  cancelledTotal: number;
  transferredOrders: number;
  transferredSales: number;
}

/** One report's reconciliation with its stored orders (v_report_reconciliation). */
export interface ReportStateRow {
  day: string;
  reportNumber: number;
  /** ok, orders missing, or totals differ. */
  status: string;
  difference: number;
  ordersMissing: number;
}

export class StatusReads {
  constructor(private readonly db: ReadSession) {}

  /** Rows of a day stream or list table for one location, live and marked deleted: a day
   * stream's as the triggers on its table keep them (location_row_counts: two numbers, however
   * long the history), a list's counted (a catalog is no history). */
  async rowCounts(owner: DayStreamTables | SnapshotListTables, locationId: string) {
    const table = relationName(owner.table);
    const kept = (DAY_STREAMS as readonly string[]).includes(owner.name);
    const counts = await this.db.one<RowCounts>(
      kept
        ? `SELECT live, deleted FROM location_row_counts
           WHERE location_id = ${this.db.p(1)} AND relation = ${this.db.p(2)}`
        : `SELECT COUNT(*) FILTER (WHERE deleted_at IS NULL) AS live,
                  COUNT(*) FILTER (WHERE deleted_at IS NOT NULL) AS deleted
           FROM "${table}" WHERE location_id = ${this.db.p(1)}`,
      kept ? [locationId, table] : [locationId],
    );
    return { table, counts: { live: counts?.live ?? 0, deleted: counts?.deleted ?? 0 } };
  }

  /** The distinct records of a stream set aside, for the whole history of a location. */
  rejectedCount(stream: DayStreamTables, locationId: string): Promise<number> {
    return this.db.count(distinctRejectsSql(this.db.dialect, stream, "1 = 1"), [
      locationId,
      stream.name,
    ]);
  }

  /** Distinct records set aside per day (those stored live since left out). */
  async rejectedByDay(stream: DayStreamTables, locationId: string): Promise<RejectedOnDay[]> {
    const rows = await this.db.all<{ day: string; n: number }>(
      distinctRejectsSql(this.db.dialect, stream, "rr.day IS NOT NULL", "rr.day"),
      [locationId, stream.name],
    );
    return rows.map(({ day, n }) => ({ day, count: n }));
  }

  /** A location's sales per business day, both days included (days without orders absent). */
  dailySales(locationId: string, since: string, until: string): Promise<DailySalesRow[]> {
    return this.db.all(
      `SELECT business_date AS day, orders, total_sales AS sales,
         cancelled_orders AS "cancelledOrders", cancelled_total AS "cancelledTotal",
         transferred_orders AS "transferredOrders", transferred_sales AS "transferredSales"
       FROM daily_sales
       WHERE location_id = ${this.db.p(1)} AND business_date BETWEEN ${this.db.p(2)} AND ${this.db.p(3)}
       ORDER BY business_date`,
      [locationId, since, until],
    );
  }

  /** Each report's reconciliation with its stored orders, both days included. */
  reportStates(locationId: string, since: string, until: string): Promise<ReportStateRow[]> {
    return this.db.all(
      `SELECT business_date AS day, report_number AS "reportNumber", status, difference,
         orders_missing AS "ordersMissing"
       FROM v_report_reconciliation
       WHERE location_id = ${this.db.p(1)} AND business_date BETWEEN ${this.db.p(2)} AND ${this.db.p(3)}
       ORDER BY business_date, report_number`,
      [locationId, since, until],
    );
  }
}
