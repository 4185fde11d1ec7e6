/**
 * Reads the sync engine needs across streams, on PostgreSQL (as ../queries.ts on SQLite): a
 * key's location, a location's UTC offset, the orders reports list that no window returned.
 *
 * Date-times are timestamptz here: the offset the API wrote is read back from the archived JSON
 * where SQLite reads it from the stored text.
 */
import { utcOffsetOf } from "../../dates.js";
import { LocalClock } from "../../local-clock.js";
import { UTC_OFFSET_STATE } from "../queries.js";
import { state } from "./checkpoints.js";
import type { PgClient } from "./connect.js";

export async function storedLocationOfKey(
  client: PgClient,
  fingerprint: string,
): Promise<{ id: string; name: string | null } | undefined> {
  const { rows } = await client.query<{ id: string; name: string | null }>(
    "SELECT id, name FROM locations WHERE api_key_fingerprint = $1",
    [fingerprint],
  );
  return rows[0];
}

export async function isLocationStored(client: PgClient, locationId: string): Promise<boolean> {
  const { rowCount } = await client.query("SELECT 1 FROM locations WHERE id = $1", [locationId]);
  return (rowCount ?? 0) > 0;
}

/** The location's time zone setting as applied, or null; undefined when it is not stored. */
export async function storedTimeZone(
  client: PgClient,
  locationId: string,
): Promise<string | null | undefined> {
  const { rows } = await client.query<{ time_zone: string | null }>(
    "SELECT time_zone FROM locations WHERE id = $1",
    [locationId],
  );
  return rows[0] === undefined ? undefined : rows[0].time_zone;
}

/**
 * The UTC offset of a location at an instant, in minutes: its time zone setting's, else the one
 * its latest stored order was written with (from its archived JSON), else the one learned from
 * its reports.
 */
export async function locationOffsetMinutes(
  client: PgClient,
  locationId: string,
  at: Date,
): Promise<number | undefined> {
  const timeZone = await storedTimeZone(client, locationId);
  if (timeZone) return LocalClock.of(timeZone).offsetMinutesAt(at.getTime());
  const { rows } = await client.query<{ sent: string | null }>(
    `SELECT r.document ->> 'createdAt' AS sent FROM orders o
     JOIN raw_records r ON r.table_name = 'orders' AND r.location_id = o.location_id AND r.id = o.id
     WHERE o.location_id = $1 ORDER BY o.business_date DESC LIMIT 1`,
    [locationId],
  );
  const sent = rows[0]?.sent;
  const fromOrders = sent ? utcOffsetOf(sent) : undefined;
  if (fromOrders !== undefined) return fromOrders;
  const learned = await state(client, locationId, UTC_OFFSET_STATE);
  return learned === undefined ? undefined : Number(learned);
}

/**
 * Orders that a stored report lists but that are neither stored nor set aside as rejected,
 * although the orders windows of the report's session days (on the location's clock, `offset`
 * minutes from UTC) were read completely.
 */
export async function missingReportOrders(
  client: PgClient,
  locationId: string,
  limit: number,
  offsetMinutes: number,
): Promise<string[]> {
  const windowComplete = (column: string) => `EXISTS (
    SELECT 1 FROM sync_windows w
    WHERE w.location_id = r.location_id AND w.stream = 'orders' AND w.status = 'complete'
      AND w.day = (r.${column} AT TIME ZONE 'UTC' + make_interval(mins => $3))::date)`;
  const { rows } = await client.query<{ order_id: string }>(
    `SELECT DISTINCT ro.order_id FROM report_orders ro JOIN reports r ON r.id = ro.report_id
     WHERE r.location_id = $1
       AND ${windowComplete("started_at")} AND ${windowComplete("finalized_at")}
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id)
       AND NOT EXISTS (
         SELECT 1 FROM rejected_records rr
         WHERE rr.location_id = r.location_id AND rr.stream = 'orders' AND rr.record_id = ro.order_id
       )
     LIMIT $2`,
    [locationId, limit, offsetMinutes],
  );
  return rows.map((row) => row.order_id);
}

/** Of these orders, the ones a live stored report lists. */
export async function ordersListedByLiveReport(
  client: PgClient,
  locationId: string,
  orderIds: readonly string[],
): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const { rows } = await client.query<{ order_id: string }>(
    `SELECT DISTINCT ro.order_id FROM report_orders ro JOIN reports r ON r.id = ro.report_id
     WHERE r.location_id = $1 AND r.deleted_at IS NULL AND ro.order_id = ANY($2::text[])`,
    [locationId, orderIds],
  );
  return rows.map((row) => row.order_id);
}
