/**
 * Each location's clock for the values stored with its orders and reports (closing hours and
 * date-times' offsets: rules/time-zone-change.ts), as its time zone setting was last applied
 * (locations.time_zone), and the applying of a new setting: those values are recomputed on the
 * new clock, with the hourly summaries of the days that moved, in the caller's transaction, so
 * that every stored value of a location is always on the clock its row names.
 */
import type Database from "better-sqlite3";
import { LocalClock } from "../../clock/local-clock.js";
import {
  CLOCKED_TABLE_NAMES,
  CLOCKED_TABLES,
  type ClockedTable,
  clockedColumns,
  clockedRow,
  movedClockValues,
  type TimeZoneChange,
} from "../rules/time-zone-change.js";
import { HOURLY_SALES } from "../sql/rollups.js";
import type { Rollups } from "./rollups.js";

export class LocationClocks {
  private readonly clocks = new Map<string, LocalClock>();
  private readonly storedZone: Database.Statement<[string], { time_zone: string | null }>;
  private readonly clocked: readonly ClockedStatements[];
  private readonly setZone: Database.Statement<[string | null, string]>;

  constructor(
    sqlite: Database.Database,
    private readonly rollups: Rollups,
  ) {
    this.storedZone = sqlite.prepare("SELECT time_zone FROM locations WHERE id = ?");
    this.clocked = CLOCKED_TABLE_NAMES.map((table) => clockedStatements(sqlite, table));
    this.setZone = sqlite.prepare("UPDATE locations SET time_zone = ? WHERE id = ?");
  }

  /** The clock a location's new rows are stamped with: its applied setting, or hours as sent. */
  clockOf(locationId: string): LocalClock {
    const known = this.clocks.get(locationId);
    if (known) return known;
    const clock = LocalClock.of(this.storedZone.get(locationId)?.time_zone ?? null);
    this.clocks.set(locationId, clock);
    return clock;
  }

  /**
   * Makes `timeZone` (canonical, or null for hours as sent) the location's clock; null when it
   * already was, or when the location is not stored yet. Call inside a write transaction, and
   * `forgetAll` should it fail.
   */
  apply(locationId: string, timeZone: string | null): TimeZoneChange | null {
    const stored = this.storedZone.get(locationId);
    if (stored === undefined) return null;
    const from = stored.time_zone;
    if (from === timeZone) return null;
    const clock = LocalClock.of(timeZone);
    let rows = 0;
    let hourDays = 0;
    for (const { table, select, update } of this.clocked) {
      const stored = select.all(locationId).map((row) => clockedRow(table, row, Number(row.key)));
      const { moved, days } = movedClockValues(table, stored, clock, locationId);
      for (const { key, values } of moved) update.run({ ...values, key });
      this.rollups.refreshTable(HOURLY_SALES, days);
      rows += moved.length;
      hourDays += days.length;
    }
    this.setZone.run(timeZone, locationId);
    this.clocks.set(locationId, clock);
    return { from, to: timeZone, rows, days: hourDays };
  }

  /** Drops what is remembered of every location (after a rolled-back group of writes). */
  forgetAll(): void {
    this.clocks.clear();
  }
}

interface ClockedStatements {
  table: ClockedTable;
  /** A location's rows: key, business_date, the date-times and the clocked values. */
  select: Database.Statement<[string], Record<string, string | number | null>>;
  /** A row's clocked values, by name, and its `key`. */
  update: Database.Statement<[Record<string, number | null>]>;
}

function clockedStatements(sqlite: Database.Database, table: ClockedTable): ClockedStatements {
  const { relation, dateTimes } = CLOCKED_TABLES[table];
  return {
    table,
    // Through the relation, which names the location (order_rows keeps it by key).
    select: sqlite.prepare(
      `SELECT key, business_date, ${[...dateTimes, ...clockedColumns(table)].join(", ")}
       FROM ${relation} WHERE location_id = ?`,
    ),
    update: prepareClockedUpdate(sqlite, table),
  };
}

/** Sets a row's clocked values (clockedColumns, by name) by its `key`. */
export function prepareClockedUpdate(
  sqlite: Database.Database,
  table: ClockedTable,
): Database.Statement<[Record<string, number | null>]> {
  const filled = clockedColumns(table);
  return sqlite.prepare(
    `UPDATE ${table} SET ${filled.map((c) => `${c} = @${c}`).join(", ")} WHERE key = @key`,
  );
}
