/**
 * Each location's clock for the hours stored with its orders, on PostgreSQL (as
 * ../location-clocks.ts on SQLite): applying a new time zone setting recomputes the hours of the
 * location's stored orders and the hourly summaries of the days that moved. The hour is read
 * from closed_at as the API wrote it (its archived JSON), since timestamptz keeps the instant
 * and not the offset; with the archive off, from the instant.
 */
import { LocalClock } from "../../clock/local-clock.js";
import { type ClosedTime, movedHours, type TimeZoneChange } from "../rules/time-zone-change.js";
import { HOURLY_SALES } from "../sql/rollups.js";
import type { PgClient } from "./connect.js";
import { refreshTable } from "./rollups.js";

/** The location's time zone setting as applied, or null; undefined when it is not stored. */
async function storedTimeZone(
  client: PgClient,
  locationId: string,
): Promise<string | null | undefined> {
  const { rows } = await client.query<{ time_zone: string | null }>(
    "SELECT time_zone FROM locations WHERE id = $1",
    [locationId],
  );
  return rows[0] === undefined ? undefined : rows[0].time_zone;
}

export class PgLocationClocks {
  private readonly clocks = new Map<string, LocalClock>();

  /** The clock a location's new rows are stamped with: its applied setting, or hours as sent. */
  async clockOf(client: PgClient, locationId: string): Promise<LocalClock> {
    const known = this.clocks.get(locationId);
    if (known) return known;
    const clock = LocalClock.of((await storedTimeZone(client, locationId)) ?? null);
    this.clocks.set(locationId, clock);
    return clock;
  }

  /** Makes `timeZone` the location's clock (inside the caller's transaction); null when it
   * already was, or the location is not stored yet. `forget` the location should it fail. */
  async apply(
    client: PgClient,
    locationId: string,
    timeZone: string | null,
  ): Promise<TimeZoneChange | null> {
    const from = await storedTimeZone(client, locationId);
    if (from === undefined || from === timeZone) return null;
    const clock = LocalClock.of(timeZone);
    const { rows } = await client.query<ClosedTime<string> & { sent: string | null }>(
      `SELECT o.id AS key, o.closed_at, r.document ->> 'closedAt' AS sent, o.closed_hour,
         o.business_date
       FROM orders o LEFT JOIN raw_records r
         ON r.table_name = 'orders' AND r.location_id = o.location_id AND r.id = o.id
       WHERE o.location_id = $1`,
      [locationId],
    );
    // The close as the API wrote it, offset and all; the stored instant when the archive is off.
    const closes = rows.map((row) => ({ ...row, closed_at: row.sent ?? row.closed_at }));
    const { moved, days } = movedHours(closes, clock, locationId);
    if (moved.length > 0) {
      await client.query(
        `UPDATE order_rows SET closed_hour = m.hour FROM unnest($1::text[], $2::bigint[]) AS m(id, hour)
         WHERE order_rows.id = m.id`,
        [moved.map((m) => m.key), moved.map((m) => m.hour)],
      );
    }
    await refreshTable(client, HOURLY_SALES, days);
    await client.query("UPDATE locations SET time_zone = $2 WHERE id = $1", [locationId, timeZone]);
    this.clocks.set(locationId, clock);
    return { from, to: timeZone, orders: moved.length, days: days.length };
  }

  forget(locationId: string): void {
    this.clocks.delete(locationId);
  }
}
