/**
 * Each location's clock for the values stored with its orders and reports, on PostgreSQL (as
 * ../location-clocks.ts on SQLite): applying a new time zone setting recomputes them and the
 * hourly summaries of the days that moved. They are read from the date-times as the API wrote
 * them (the archived JSON), since timestamptz keeps the instant and not the offset; with the
 * archive off, as told from the instant and the offset stored with it (sentTextOf).
 */
import { LocalClock } from "../../clock/local-clock.js";
import {
  CLOCKED_TABLE_NAMES,
  CLOCKED_TABLES,
  type ClockedTable,
  clockedColumns,
  clockedRow,
  movedClockValues,
  sentTextOf,
  storedInteger,
  type TimeZoneChange,
} from "../rules/time-zone-change.js";
import { offsetColumn } from "../schema/columns.js";
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
    let rows = 0;
    let hourDays = 0;
    for (const table of CLOCKED_TABLE_NAMES) {
      const { moved, days } = movedClockValues(
        table,
        await clockedRows(client, table, locationId, LocalClock.of(from)),
        clock,
        locationId,
      );
      if (moved.length > 0) {
        const filled = clockedColumns(table);
        await client.query(
          `UPDATE ${table} SET ${filled.map((c) => `${c} = m.${c}`).join(", ")}
           FROM unnest($1::bigint[], ${filled.map((_, i) => `$${i + 2}::bigint[]`).join(", ")})
             AS m(key, ${filled.join(", ")})
           WHERE ${table}.key = m.key`,
          [moved.map((m) => m.key), ...filled.map((c) => moved.map((m) => m.values[c] ?? null))],
        );
      }
      await refreshTable(client, HOURLY_SALES, days);
      rows += moved.length;
      hourDays += days.length;
    }
    await client.query("UPDATE locations SET time_zone = $2 WHERE id = $1", [locationId, timeZone]);
    this.clocks.set(locationId, clock);
    return { from, to: timeZone, rows, days: hourDays };
  }

  forget(locationId: string): void {
    this.clocks.delete(locationId);
  }
}

/** A location's rows of `table` with their date-times as the API wrote them: the archived JSON's
 * fields (createdAt …), or where the archive has none, as told from the stored instant and
 * offset on the clock they were stored with (sentTextOf). */
async function clockedRows(
  client: PgClient,
  table: ClockedTable,
  locationId: string,
  previousClock: LocalClock,
) {
  const { relation, dateTimes: sent } = CLOCKED_TABLES[table];
  const field = (column: string) => column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  const { rows } = await client.query<Record<string, unknown>>(
    `SELECT t.key, t.business_date, ${[...sent, ...clockedColumns(table)].map((c) => `t.${c}`).join(", ")},
       ${sent.map((c) => `r.document ->> '${field(c)}' AS "sent ${c}"`).join(", ")}
     FROM ${relation} t LEFT JOIN raw_records r
       ON r.table_name = '${relation}' AND r.location_id = t.location_id AND r.id = t.id
     WHERE t.location_id = $1`,
    [locationId],
  );
  return rows.map((row) =>
    clockedRow(
      table,
      row,
      String(row.key),
      (c) =>
        row[`sent ${c}`] ??
        sentTextOf(String(row[c]), storedInteger(row[offsetColumn(c)]), previousClock),
    ),
  );
}
