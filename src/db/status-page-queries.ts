/**
 * The reads behind the status page (and `status`'s calendar) that both destinations run as one
 * SQL text: the runs, rejected records per day, daily sales and the reports' reconciliation. A
 * dialect supplies its placeholders and the one expression that differs (reading the run's
 * JSON stats). Read models build on the rows; nothing here writes.
 */
import type { DayStreamTables } from "./stream-tables.js";
import { tableName } from "./writers/statements.js";

export interface SqlDialect {
  /** The n-th parameter (1-based): `?` for SQLite, `$n` for PostgreSQL. */
  param(n: number): string;
  /** An integer field of sync_runs.stats (a JSON document). */
  statsField(field: string): string;
}

export const SQLITE_DIALECT: SqlDialect = {
  param: () => "?",
  statsField: (field) => `json_extract(stats, '$.${field}')`,
};

export const POSTGRES_DIALECT: SqlDialect = {
  param: (n) => `$${n}`,
  statsField: (field) => `(stats->>'${field}')::int`,
};

/** A run as recorded in sync_runs. */
export interface RunRow {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  trigger: string;
  requests: number | null;
  /** Attempts retried, and answers that asked to slow down (429): null for runs recorded before
   * they were counted. */
  retries: number | null;
  rateLimited: number | null;
  error: string | null;
  pid: number | null;
  hostname: string | null;
}

/** The latest runs, newest first (parameter: how many). */
export function recentRunsSql(dialect: SqlDialect): string {
  return `SELECT id, started_at AS "startedAt", finished_at AS "finishedAt", status, "trigger",
      requests, ${dialect.statsField("retries")} AS retries,
      ${dialect.statsField("rateLimited")} AS "rateLimited", error, pid, hostname
    FROM sync_runs ORDER BY id DESC LIMIT ${dialect.param(1)}`;
}

/** When the latest run that succeeded ended (one row, `at` null when none did). */
export const LAST_SUCCESS_SQL =
  "SELECT MAX(finished_at) AS at FROM sync_runs WHERE status = 'succeeded'";

/** Distinct records set aside per day of a stream for one location, leaving out those whose
 * record is stored live now (parameters: location, stream). */
export function rejectedByDaySql(dialect: SqlDialect, stream: DayStreamTables): string {
  return `SELECT rr.day AS day, COUNT(DISTINCT COALESCE(rr.record_id, rr.record_key)) AS count
    FROM rejected_records rr
    WHERE rr.location_id = ${dialect.param(1)} AND rr.stream = ${dialect.param(2)}
      AND rr.day IS NOT NULL
      AND NOT EXISTS (
        SELECT 1 FROM "${tableName(stream.table)}" t
        WHERE t.id = rr.record_id AND t.location_id = rr.location_id AND t.deleted_at IS NULL
      )
    GROUP BY rr.day`;
}

export interface RejectedOnDay {
  day: string;
  count: number;
}

/** One business day of one location's sales, from the daily summary (src/db/rollups.ts). */
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

/** Parameters: location, first day, last day. */
export function dailySalesSql(dialect: SqlDialect): string {
  return `SELECT business_date AS day, orders, total_sales AS sales,
      cancelled_orders AS "cancelledOrders", cancelled_total AS "cancelledTotal",
      transferred_orders AS "transferredOrders", transferred_sales AS "transferredSales"
    FROM daily_sales
    WHERE location_id = ${dialect.param(1)}
      AND business_date BETWEEN ${dialect.param(2)} AND ${dialect.param(3)}
    ORDER BY business_date`;
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

/** Parameters: location, first day, last day. */
export function reportStatesSql(dialect: SqlDialect): string {
  return `SELECT business_date AS day, report_number AS "reportNumber", status, difference,
      orders_missing AS "ordersMissing"
    FROM v_report_reconciliation
    WHERE location_id = ${dialect.param(1)}
      AND business_date BETWEEN ${dialect.param(2)} AND ${dialect.param(3)}
    ORDER BY business_date, report_number`;
}
