/** Reads the sync engine needs from what it stored, across streams (the reports cross-check,
 * a location's clock, a key's location). */
import { utcOffsetOf } from "../dates.js";
import { LocalClock } from "../local-clock.js";
import type { Db } from "./open.js";

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
 * The UTC offset of a location at an instant, in minutes: its applied time zone setting's, else
 * its latest stored order's timestamp's, else the one the first run learned from its reports.
 * Every part of pos-sync that asks for a location's today (the plan, status, verify) asks here,
 * so that they agree.
 */
export function locationOffsetMinutes(db: Db, locationId: string, at: Date): number | undefined {
  const timeZone = db.sqlite
    .prepare("SELECT time_zone FROM locations WHERE id = ?")
    .pluck()
    .get(locationId) as string | null | undefined;
  if (timeZone) return LocalClock.of(timeZone).offsetMinutesAt(at.getTime());
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

/** Of these orders, the ones a live stored report lists. */
export function ordersListedByLiveReport(
  db: Db,
  locationId: string,
  orderIds: readonly string[],
): string[] {
  if (orderIds.length === 0) return [];
  return db.sqlite
    .prepare(
      `SELECT DISTINCT ro.order_id FROM report_orders ro JOIN reports r ON r.id = ro.report_id
       WHERE r.location_id = ? AND r.deleted_at IS NULL
         AND ro.order_id IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(locationId, JSON.stringify(orderIds)) as string[];
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
