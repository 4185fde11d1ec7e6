/** Reads of the commands that report on a database (status, verify, the demo's summary): what
 * is stored per location, stream and day, the runs, and the views' verdicts. No writes. */

import type { Db } from "./open.js";
import {
  type DailySalesRow,
  dailySalesSql,
  LAST_SUCCESS_SQL,
  type RejectedOnDay,
  type ReportStateRow,
  type RunRow,
  recentRunsSql,
  rejectedByDaySql,
  reportStatesSql,
  SQLITE_DIALECT,
} from "./status-page-queries.js";
import type { DayStreamTables } from "./stream-tables.js";
import { tableName } from "./writers/statements.js";

export type {
  DailySalesRow,
  RejectedOnDay,
  ReportStateRow,
  RunRow,
} from "./status-page-queries.js";

export interface StoredCounts {
  records: number;
  rejected: number;
}

/**
 * Rejects counted once per record (a record set aside twice under two keys, by a window read
 * and by a read by id, is one record), leaving out those whose record is stored live now.
 */
function distinctRejectsSql(stream: DayStreamTables, where: string): string {
  return `SELECT COUNT(DISTINCT COALESCE(rr.record_id, rr.record_key)) FROM rejected_records rr
    WHERE rr.location_id = @locationId AND rr.stream = @stream AND ${where}
      AND NOT EXISTS (
        SELECT 1 FROM "${tableName(stream.table)}" t
        WHERE t.id = rr.record_id AND t.location_id = rr.location_id AND t.deleted_at IS NULL
      )`;
}

/** Records stored live for one day of a stream (not those marked deleted), and the distinct
 * records set aside for it. */
export function storedForDay(
  db: Db,
  stream: DayStreamTables,
  locationId: string,
  day: string,
): StoredCounts {
  const records = db.sqlite
    .prepare(
      `SELECT COUNT(*) FROM "${tableName(stream.table)}" WHERE location_id = ? AND business_date = ? AND deleted_at IS NULL`,
    )
    .pluck()
    .get(locationId, day) as number;
  const rejected = db.sqlite
    .prepare(distinctRejectsSql(stream, "rr.day = @day"))
    .pluck()
    .get({ locationId, stream: stream.name, day }) as number;
  return { records, rejected };
}

/** The distinct records of a stream set aside, for the whole history of a location. */
export function countRejected(db: Db, stream: DayStreamTables, locationId: string): number {
  return db.sqlite
    .prepare(distinctRejectsSql(stream, "1 = 1"))
    .pluck()
    .get({ locationId, stream: stream.name }) as number;
}

export interface RowCounts {
  /** Rows the API lists now: the ones every view counts. */
  live: number;
  /** Rows kept for audit after the API stopped listing them. */
  deleted: number;
}

/** Rows of a table with `deleted_at` for one location, live and marked deleted. */
export function countRows(db: Db, table: string, locationId: string): RowCounts {
  const row = db.sqlite
    .prepare(
      `SELECT COUNT(*) FILTER (WHERE deleted_at IS NULL) AS live,
              COUNT(*) FILTER (WHERE deleted_at IS NOT NULL) AS deleted
       FROM "${table}" WHERE location_id = ?`,
    )
    .get(locationId) as RowCounts;
  return { live: row.live, deleted: row.deleted };
}

/** Of a report's orders that are not stored live, how many were set aside as rejected. */
export function rejectedReportOrders(db: Db, reportId: string): number {
  return db.sqlite
    .prepare(
      `SELECT COUNT(*) FROM report_orders ro JOIN reports r ON r.id = ro.report_id
       WHERE ro.report_id = ?
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
         AND EXISTS (
           SELECT 1 FROM rejected_records rr
           WHERE rr.location_id = r.location_id AND rr.stream = 'orders' AND rr.record_id = ro.order_id
         )`,
    )
    .pluck()
    .get(reportId) as number;
}

/** One recorded day window, as status reads it. */
export interface WindowRow {
  day: string;
  status: string;
  last_error: string | null;
  synced_at: string;
  /** What the API counted for the day at the last read, and what was stored of it. */
  api_total_count: number | null;
  stored_count: number | null;
}

/** Every recorded window of a location and stream, oldest first. */
export function windowRows(db: Db, locationId: string, stream: string): WindowRow[] {
  return db.sqlite
    .prepare(
      `SELECT day, status, last_error, synced_at, api_total_count, stored_count FROM sync_windows
       WHERE location_id = ? AND stream = ? ORDER BY day`,
    )
    .all(locationId, stream) as WindowRow[];
}

export type LatestWindow = Pick<WindowRow, "status" | "last_error" | "synced_at">;

/** The latest window of a location and stream (a snapshot stream records one per day). */
export function latestWindow(db: Db, locationId: string, stream: string): LatestWindow | undefined {
  return db.sqlite
    .prepare(
      "SELECT status, last_error, synced_at FROM sync_windows WHERE location_id = ? AND stream = ? ORDER BY day DESC LIMIT 1",
    )
    .get(locationId, stream) as LatestWindow | undefined;
}

/** The latest run, if any. */
export function lastRunRow(db: Db): RunRow | undefined {
  return recentRuns(db, 1)[0];
}

/** The latest runs, newest first. */
export function recentRuns(db: Db, limit: number): RunRow[] {
  return db.sqlite.prepare(recentRunsSql(SQLITE_DIALECT)).all(limit) as RunRow[];
}

/** When the latest run that succeeded ended. */
export function lastSuccessAt(db: Db): string | null {
  return (db.sqlite.prepare(LAST_SUCCESS_SQL).get() as { at: string | null }).at;
}

/** A location's outcome in one recorded run, from its stats: a key the API rejected is known
 * only here when its location was never read. */
export interface RunLocationOutcome {
  runId: number;
  /** The key's fingerprint (key#1a2b3c4d). */
  key: string;
  locationId: string | null;
  name: string | null;
  /** The name the configuration file gives the location, if any. */
  label: string | null;
  error: string | null;
  keyRejected: boolean;
}

/** The stats of the latest run that ended of itself (an interrupted one reached only some
 * locations). One SQL text for both destinations. */
export const LAST_ENDED_RUN_STATS_SQL = `SELECT id, stats FROM sync_runs
  WHERE stats IS NOT NULL AND status IN ('succeeded', 'partial', 'failed')
  ORDER BY id DESC LIMIT 1`;

const textOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** The locations of a run's stats (JSON text from SQLite, a parsed document from PostgreSQL);
 * none from stats of another shape, written by another version. */
export function runLocationOutcomes(run: { id: number; stats: unknown }): RunLocationOutcome[] {
  const stats = typeof run.stats === "string" ? JSON.parse(run.stats) : run.stats;
  const locations: unknown = stats?.locations;
  if (!Array.isArray(locations)) return [];
  return locations
    .filter((location) => typeof location?.key === "string")
    .map((location) => ({
      runId: Number(run.id),
      key: location.key,
      locationId: textOrNull(location.locationId),
      name: textOrNull(location.name),
      label: textOrNull(location.label),
      error: textOrNull(location.error),
      keyRejected: location.keyRejected === true,
    }));
}

export function lastRunLocations(db: Db): RunLocationOutcome[] {
  const row = db.sqlite.prepare(LAST_ENDED_RUN_STATS_SQL).get() as
    | { id: number; stats: string }
    | undefined;
  return row ? runLocationOutcomes(row) : [];
}

export function rejectedByDay(
  db: Db,
  stream: DayStreamTables,
  locationId: string,
): RejectedOnDay[] {
  return db.sqlite
    .prepare(rejectedByDaySql(SQLITE_DIALECT, stream))
    .all(locationId, stream.name) as RejectedOnDay[];
}

export function dailySales(
  db: Db,
  locationId: string,
  since: string,
  until: string,
): DailySalesRow[] {
  return db.sqlite
    .prepare(dailySalesSql(SQLITE_DIALECT))
    .all(locationId, since, until) as DailySalesRow[];
}

export function reportStates(
  db: Db,
  locationId: string,
  since: string,
  until: string,
): ReportStateRow[] {
  return db.sqlite
    .prepare(reportStatesSql(SQLITE_DIALECT))
    .all(locationId, since, until) as ReportStateRow[];
}

/** A location known to the database: read from the API, or only named by its windows. */
export interface KnownLocation {
  id: string;
  name: string | null;
  /** Whether its location record was read (its name may still be null). */
  read: boolean;
  key: string | null;
}

export function knownLocations(db: Db): KnownLocation[] {
  const rows = db.sqlite
    .prepare(
      `SELECT id, name, 1 AS read, api_key_fingerprint AS key FROM locations
       UNION SELECT DISTINCT location_id, NULL, 0, NULL FROM sync_windows WHERE location_id NOT IN (SELECT id FROM locations)
       ORDER BY name`,
    )
    .all() as (Omit<KnownLocation, "read"> & { read: number })[];
  return rows.map((row) => ({ ...row, read: row.read === 1 }));
}

/** A report that does not agree with its stored orders. */
export interface ReconciliationRow {
  reportId: string;
  reportNumber: number;
  businessDate: string;
  difference: number;
  ordersMissing: number;
  status: string;
}

export function reconciliationProblems(
  db: Db,
  locationId: string,
  since: string,
  until: string,
): ReconciliationRow[] {
  // Computed from the order tables rather than read from v_report_reconciliation: a check must
  // not trust the summary it would check (report_order_sums only follows pos-sync's own writes).
  return db.sqlite
    .prepare(
      `SELECT reportId, reportNumber, businessDate, difference, ordersMissing,
              CASE WHEN ordersMissing > 0 THEN 'orders missing' ELSE 'totals differ' END AS status
       FROM (
         SELECT r.id AS reportId, r.report_number AS reportNumber, r.business_date AS businessDate,
           ROUND(r.total_sales - (
             SELECT ROUND(TOTAL(o.total), 2) FROM orders o
             WHERE o.report_id = r.id AND o.deleted_at IS NULL
               AND o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0
           ), 2) AS difference,
           (SELECT COUNT(*) FROM report_orders ro WHERE ro.report_id = r.id
              AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
           ) AS ordersMissing
         FROM reports r
         WHERE r.location_id = ? AND r.business_date BETWEEN ? AND ? AND r.deleted_at IS NULL
       )
       WHERE ordersMissing > 0 OR difference <> 0
       ORDER BY businessDate`,
    )
    .all(locationId, since, until) as ReconciliationRow[];
}

/** Rows of a table, all locations. */
export function tableRowCount(db: Db, table: string): number {
  return db.sqlite.prepare(`SELECT COUNT(*) FROM "${table}"`).pluck().get() as number;
}

/** Windows of a stream read completely, all locations. */
export function completeWindowCount(db: Db, stream: string): number {
  return db.sqlite
    .prepare("SELECT COUNT(*) FROM sync_windows WHERE stream = ? AND status = 'complete'")
    .pluck()
    .get(stream) as number;
}

export interface DaysCovered {
  locationId: string;
  name: string;
  firstDay: string | null;
  lastDay: string | null;
  /** Windows proven complete: past days. */
  complete: number;
  /** Windows read up to now but not over: the location's today. */
  open: number;
  days: number;
}

/** Per location, the days a stream's windows cover. */
export function daysCovered(db: Db, stream: string): DaysCovered[] {
  return db.sqlite
    .prepare(
      `SELECT l.id AS locationId, COALESCE(l.name, l.id) AS name,
              MIN(w.day) AS firstDay, MAX(w.day) AS lastDay,
              COUNT(w.day) FILTER (WHERE w.status = 'complete') AS complete,
              COUNT(w.day) FILTER (WHERE w.status = 'open') AS open,
              COUNT(w.day) AS days
       FROM locations l
       LEFT JOIN sync_windows w ON w.location_id = l.id AND w.stream = ?
       GROUP BY l.id ORDER BY name`,
    )
    .all(stream) as DaysCovered[];
}

/** Reports in v_report_reconciliation, and those that add up. */
export function reconciliationTally(db: Db): { reports: number; ok: number } {
  return db.sqlite
    .prepare(
      "SELECT COUNT(*) AS reports, COUNT(*) FILTER (WHERE status = 'ok') AS ok FROM v_report_reconciliation",
    )
    .get() as { reports: number; ok: number };
}

export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

/** Runs an analyst's query (the demo's examples), columns named as the query names them. */
export function runQuery(db: Db, sql: string): QueryResult {
  const statement = db.sqlite.prepare(sql).raw(true);
  return {
    columns: statement.columns().map((c) => c.name),
    rows: statement.all() as unknown[][],
  };
}

/** Which changes `changes` reads: those pos-sync saw from an instant on, of one location or all. */
export interface OrderChangeFilter {
  /** UTC, ISO 8601. */
  seenSince: string;
  locationId?: string;
}

/** An item of a version, as far as `changes` needs it. */
export interface StoredItem {
  position: number;
  item_catalog_id: string;
  description: string;
  total: number;
  is_canceled: number | boolean;
}

/** A row of v_order_changes, with the earlier version's content (history/versions.ts) and the
 * replacing version's items. As each destination returns them: flags 0/1 or booleans, JSON as
 * text or parsed. */
export interface OrderChangeRow {
  orderId: string;
  locationId: string;
  locationName: string | null;
  businessDate: string;
  orderNumber: string;
  fromVersion: number;
  change: "changed" | "vanished";
  changedAt: string | null;
  changedBy: string | null;
  seenAt: string;
  closedAt: string;
  previousTotal: number;
  newTotal: number | null;
  previousPaid: number;
  wasCanceled: number | boolean;
  isCanceled: number | boolean | null;
  changedFields: string | string[] | null;
  content: string | Record<string, unknown>;
  /** From the next history row, or the current order's items; null when the order vanished. */
  nextItems: StoredItem[] | null;
}

/** A row as the query returns it, before `withNextItems`. */
export type OrderChangeQueryRow = Omit<OrderChangeRow, "nextItems"> & {
  nextContent: unknown;
  nextIsCurrent: unknown;
};

/** The SELECT both destinations run over v_order_changes; `since` and `location` are their
 * placeholders' spelling. */
export function orderChangesSql(since: string, location: string | null): string {
  return `SELECT c.order_id AS "orderId", c.location_id AS "locationId",
      c.location_name AS "locationName", c.business_date AS "businessDate",
      c.order_number AS "orderNumber", c.from_version AS "fromVersion", c.change,
      c.changed_at AS "changedAt", c.changed_by AS "changedBy", c.seen_at AS "seenAt",
      c.closed_at AS "closedAt", c.previous_total AS "previousTotal", c.new_total AS "newTotal",
      c.previous_paid AS "previousPaid", c.was_canceled AS "wasCanceled",
      c.is_canceled AS "isCanceled", c.changed_fields AS "changedFields", h.content,
      n.content AS "nextContent", (c.change = 'changed' AND n.order_id IS NULL) AS "nextIsCurrent"
    FROM v_order_changes c
    JOIN order_versions h ON h.order_id = c.order_id AND h.version = c.from_version
    LEFT JOIN order_versions n ON n.order_id = c.order_id AND n.version = c.from_version + 1
    WHERE c.seen_at >= ${since}${location === null ? "" : ` AND c.location_id = ${location}`}
    ORDER BY c.seen_at, c.location_id, c.order_number, c.from_version`;
}

/** The items of current orders, for the changes whose replacing version is current. */
const CURRENT_ITEMS_SQL = `SELECT order_id, position, item_catalog_id, description, total, is_canceled
  FROM order_items WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id, position`;

type ItemOfOrder = StoredItem & { order_id: string };

/** Each change with the items of the version that replaced it: a later history row's content,
 * or the current order's items (`currentItems`). */
export async function withNextItems(
  rows: readonly OrderChangeQueryRow[],
  currentItems: (orderIds: string[]) => Promise<ItemOfOrder[]>,
): Promise<OrderChangeRow[]> {
  const ids = [...new Set(rows.filter((r) => r.nextIsCurrent).map((r) => r.orderId))];
  const current = new Map<string, StoredItem[]>();
  for (const item of ids.length > 0 ? await currentItems(ids) : []) {
    const items = current.get(item.order_id);
    if (items) items.push(item);
    else current.set(item.order_id, [item]);
  }
  return rows.map(({ nextContent, nextIsCurrent, ...row }) => {
    if (row.change === "vanished") return { ...row, nextItems: null };
    if (nextIsCurrent) return { ...row, nextItems: current.get(row.orderId) ?? [] };
    const document = (typeof nextContent === "string" ? JSON.parse(nextContent) : nextContent) as {
      order_items?: StoredItem[];
    } | null;
    return { ...row, nextItems: document?.order_items ?? [] };
  });
}

export function orderChanges(db: Db, filter: OrderChangeFilter): Promise<OrderChangeRow[]> {
  const sql = orderChangesSql("?", filter.locationId === undefined ? null : "?");
  const params =
    filter.locationId === undefined ? [filter.seenSince] : [filter.seenSince, filter.locationId];
  const rows = db.sqlite.prepare(sql).all(...params) as OrderChangeQueryRow[];
  const items = db.sqlite.prepare(CURRENT_ITEMS_SQL);
  return withNextItems(
    rows,
    async (orderIds) => items.all(JSON.stringify(orderIds)) as ItemOfOrder[],
  );
}
