/**
 * Each location's clock for the hours stored with its orders, on PostgreSQL (as
 * ../location-clocks.ts on SQLite): applying a new time zone setting recomputes the hours of the
 * location's stored orders and the hourly summaries of the days that moved. The hour is read
 * from closed_at as the API wrote it (its archived JSON), since timestamptz keeps the instant
 * and not the offset; with the archive off, from the instant.
 */
import { LocalClock } from "../../local-clock.js";
import type { TimeZoneChange } from "../location-clocks.js";
import type { LocationDay } from "../rollups.js";
import type { PgClient } from "./connect.js";
import { storedTimeZone } from "./location-queries.js";
import { HOURLY_SALES, refreshTable } from "./rollups.js";

interface ClosedTime {
  id: string;
  closed_at: string;
  sent: string | null;
  closed_hour: number | null;
  business_date: string;
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
    const { rows } = await client.query<ClosedTime>(
      `SELECT o.id, o.closed_at, r.document ->> 'closedAt' AS sent, o.closed_hour, o.business_date
       FROM orders o LEFT JOIN raw_records r
         ON r.table_name = 'orders' AND r.location_id = o.location_id AND r.id = o.id
       WHERE o.location_id = $1`,
      [locationId],
    );
    const moved: { id: string; hour: number | null }[] = [];
    const movedDays = new Map<string, LocationDay>();
    for (const row of rows) {
      const hour = clock.hourOf(row.sent ?? row.closed_at);
      if (hour === row.closed_hour) continue;
      moved.push({ id: row.id, hour });
      movedDays.set(row.business_date, { locationId, day: row.business_date });
    }
    if (moved.length > 0) {
      await client.query(
        `UPDATE orders SET closed_hour = m.hour FROM unnest($1::text[], $2::bigint[]) AS m(id, hour)
         WHERE orders.id = m.id`,
        [moved.map((m) => m.id), moved.map((m) => m.hour)],
      );
    }
    await refreshTable(client, HOURLY_SALES, [...movedDays.values()]);
    await client.query("UPDATE locations SET time_zone = $2 WHERE id = $1", [locationId, timeZone]);
    this.clocks.set(locationId, clock);
    return { from, to: timeZone, orders: moved.length, days: movedDays.size };
  }

  forget(locationId: string): void {
    this.clocks.delete(locationId);
  }
}
