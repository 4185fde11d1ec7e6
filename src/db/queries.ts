/** Reads the sync needs from what it stored. */
import { utcOffsetOf } from "../dates.js";
import type { Db } from "./open.js";

/** How many of these records of a day stream are stored now (after a window's read). */
export function countStoredIds(
  db: Db,
  stream: "orders" | "reports",
  ids: readonly string[],
): number {
  if (ids.length === 0) return 0;
  const table = stream === "orders" ? "orders" : "reports";
  return db.sqlite
    .prepare(`SELECT COUNT(*) FROM "${table}" WHERE id IN (SELECT value FROM json_each(?))`)
    .pluck()
    .get(JSON.stringify(ids)) as number;
}

/** Stored records of a window that its latest read did not list (gone from the API). */
export function countUnlisted(
  db: Db,
  stream: "orders" | "reports",
  locationId: string,
  day: string,
  listedIds: readonly string[],
): number {
  const table = stream === "orders" ? "orders" : "reports";
  return db.sqlite
    .prepare(
      `SELECT COUNT(*) FROM "${table}" WHERE location_id = ? AND business_date = ?
       AND id NOT IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .get(locationId, day, JSON.stringify(listedIds)) as number;
}

/**
 * Orders that a stored report lists but that are neither stored nor set aside as rejected,
 * although the orders windows of the report's session days were read completely: the API's
 * lists missed them. Sessions of reports whose days were not read yet are left to their windows.
 */
export function missingReportOrders(db: Db, locationId: string, limit: number): string[] {
  const windowComplete = (column: string) => `EXISTS (
    SELECT 1 FROM sync_windows w
    WHERE w.location_id = r.location_id AND w.stream = 'orders' AND w.status = 'complete'
      AND w.day = substr(r.${column}, 1, 10))`;
  return db.sqlite
    .prepare(
      `SELECT DISTINCT ro.order_id FROM report_orders ro JOIN reports r ON r.id = ro.report_id
       WHERE r.location_id = ?
         AND ${windowComplete("started_at")} AND ${windowComplete("finalized_at")}
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id)
         AND NOT EXISTS (
           SELECT 1 FROM rejected_records rr
           WHERE rr.location_id = r.location_id AND rr.stream = 'orders' AND rr.record_id = ro.order_id
         )
       LIMIT ?`,
    )
    .pluck()
    .all(locationId, limit) as string[];
}

/** The name under which sync_state keeps a location's UTC offset, learned before any order of
 * it was stored. */
export const UTC_OFFSET_STATE = "utc_offset_minutes";

/**
 * The UTC offset of a location, in minutes: from its latest stored order's timestamp, else the
 * one the first run learned from its reports. Every part of pos-sync that asks for a location's
 * today (the plan, status, verify) asks here, so that they agree.
 */
export function locationOffsetMinutes(db: Db, locationId: string): number | undefined {
  const createdAt = db.sqlite
    .prepare(
      "SELECT created_at FROM orders WHERE location_id = ? ORDER BY business_date DESC LIMIT 1",
    )
    .pluck()
    .get(locationId) as string | undefined;
  const fromOrders = createdAt === undefined ? undefined : utcOffsetOf(createdAt);
  if (fromOrders !== undefined) return fromOrders;
  const learned = db.sqlite
    .prepare("SELECT value FROM sync_state WHERE location_id = ? AND name = ?")
    .pluck()
    .get(locationId, UTC_OFFSET_STATE) as string | undefined;
  return learned === undefined ? undefined : Number(learned);
}

export interface StoredCounts {
  records: number;
  rejected: number;
}

type DayStreamTable = "orders" | "reports";

/**
 * Rejects counted once per record (a record set aside twice under two keys, by a window read
 * and by a read by id, is one record), leaving out those whose record is stored live now.
 */
function distinctRejectsSql(table: DayStreamTable, where: string): string {
  return `SELECT COUNT(DISTINCT COALESCE(rr.record_id, rr.record_key)) FROM rejected_records rr
    WHERE rr.location_id = @locationId AND rr.stream = @stream AND ${where}
      AND NOT EXISTS (
        SELECT 1 FROM "${table}" t
        WHERE t.id = rr.record_id AND t.location_id = rr.location_id AND t.deleted_at IS NULL
      )`;
}

/** Records stored live for one day of a stream (not those marked deleted), and the distinct
 * records set aside for it. */
export function storedForDay(
  db: Db,
  stream: DayStreamTable,
  locationId: string,
  day: string,
): StoredCounts {
  const records = db.sqlite
    .prepare(
      `SELECT COUNT(*) FROM "${stream}" WHERE location_id = ? AND business_date = ? AND deleted_at IS NULL`,
    )
    .pluck()
    .get(locationId, day) as number;
  const rejected = db.sqlite
    .prepare(distinctRejectsSql(stream, "rr.day = @day"))
    .pluck()
    .get({ locationId, stream, day }) as number;
  return { records, rejected };
}

/** The distinct records of a stream set aside, for the whole history of a location. */
export function countRejected(db: Db, stream: DayStreamTable, locationId: string): number {
  return db.sqlite
    .prepare(distinctRejectsSql(stream, "1 = 1"))
    .pluck()
    .get({ locationId, stream }) as number;
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

/** The stored location a key reads (by the key's fingerprint), if a run stored it. */
export function storedLocationOfKey(
  db: Db,
  fingerprint: string,
): { id: string; name: string | null } | undefined {
  return db.sqlite
    .prepare("SELECT id, name FROM locations WHERE api_key_fingerprint = ?")
    .get(fingerprint) as { id: string; name: string | null } | undefined;
}
