/**
 * Each location's clock for the hours stored with its orders (orders.closed_hour), as its time
 * zone setting was last applied (locations.time_zone), and the applying of a new setting: the
 * hours of the location's stored orders are recomputed on the new clock, with the hourly
 * summaries of the days that moved, in the caller's transaction, so that every stored hour of a
 * location is always on the clock its row names.
 */
import type Database from "better-sqlite3";
import { LocalClock } from "../../clock/local-clock.js";
import { type ClosedTime, movedHours, type TimeZoneChange } from "../rules/time-zone-change.js";
import { HOURLY_SALES } from "../sql/rollups.js";
import type { Rollups } from "./rollups.js";

export class LocationClocks {
  private readonly clocks = new Map<string, LocalClock>();
  private readonly storedZone: Database.Statement<[string], { time_zone: string | null }>;
  private readonly closedTimes: Database.Statement<[string], ClosedTime<number>>;
  private readonly setHour: Database.Statement<[number | null, number]>;
  private readonly setZone: Database.Statement<[string | null, string]>;

  constructor(
    sqlite: Database.Database,
    private readonly rollups: Rollups,
  ) {
    this.storedZone = sqlite.prepare("SELECT time_zone FROM locations WHERE id = ?");
    this.closedTimes = sqlite.prepare(
      "SELECT key, closed_at, closed_hour, business_date FROM orders WHERE location_id = ?",
    );
    this.setHour = sqlite.prepare("UPDATE order_rows SET closed_hour = ? WHERE key = ?");
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
    const { moved, days } = movedHours(this.closedTimes.all(locationId), clock, locationId);
    for (const { key, hour } of moved) this.setHour.run(hour, key);
    this.rollups.refreshTable(HOURLY_SALES, days);
    this.setZone.run(timeZone, locationId);
    this.clocks.set(locationId, clock);
    return { from, to: timeZone, orders: moved.length, days: days.length };
  }

  /** Drops what is remembered of every location (after a rolled-back group of writes). */
  forgetAll(): void {
    this.clocks.clear();
  }
}
