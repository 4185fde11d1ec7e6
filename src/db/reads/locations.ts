/** What is known of each location: the locations known, the stored location of a key, its
 * clock (time zone, UTC offset), the first day of its history and its country. */

import { LocalClock } from "../../clock/local-clock.js";
import { utcOffsetOf } from "../../clock/offsets.js";
import type { ReadSession } from "./session.js";

/** A location known to the database: read from the API, or only named by its windows. */
export interface KnownLocation {
  id: string;
  name: string | null;
  /** Whether its location record was read (its name may still be null). */
  read: boolean;
  key: string | null;
}

/** Where a location's time zone is read from: the destination that writes keeps its locations'
 * clocks at hand, and answers from them. */
export type TimeZoneSource = (locationId: string) => Promise<string | null>;

export class LocationReads {
  private readonly zoneOf: TimeZoneSource;

  constructor(
    private readonly db: ReadSession,
    zoneOf?: TimeZoneSource,
  ) {
    this.zoneOf = zoneOf ?? ((locationId) => this.storedTimeZone(locationId));
  }

  /** The stored locations, and those only windows name (their location record never read). The
   * windows' locations are found by skipping from one to the next on their key's index: a few
   * lookups a location, not a read of every window of a chain's years. */
  async knownLocations(): Promise<KnownLocation[]> {
    const rows = await this.db.all<Omit<KnownLocation, "read"> & { read: number }>(
      `WITH RECURSIVE windowed(id) AS (
         SELECT MIN(location_id) FROM sync_windows
         UNION ALL
         SELECT (SELECT MIN(w.location_id) FROM sync_windows w WHERE w.location_id > windowed.id)
         FROM windowed WHERE windowed.id IS NOT NULL
       )
       SELECT id, name, 1 AS read, api_key_fingerprint AS key FROM locations
       UNION SELECT id, NULL, 0, NULL FROM windowed
         WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM locations)
       ORDER BY name NULLS FIRST`,
    );
    return rows.map((row) => ({ ...row, read: row.read === 1 }));
  }

  /** The stored location a key reads (by the key's fingerprint), if a run stored it. */
  storedLocationOfKey(fingerprint: string) {
    return this.db.one<{ id: string; name: string | null }>(
      `SELECT id, name FROM locations WHERE api_key_fingerprint = ${this.db.p(1)}`,
      [fingerprint],
    );
  }

  /** Whether a run stored this location already. */
  async isLocationStored(locationId: string): Promise<boolean> {
    const sql = `SELECT 1 AS found FROM locations WHERE id = ${this.db.p(1)}`;
    return (await this.db.one(sql, [locationId])) !== undefined;
  }

  /**
   * The UTC offset of a location at an instant, in minutes: its applied time zone setting's, else
   * the one its latest stored order was sent with, else the one the first run learned from its
   * reports. Every part of pos-sync that asks for a location's today (the plan, status, verify)
   * asks here, so that they agree.
   */
  async utcOffsetMinutes(locationId: string, at: Date): Promise<number | undefined> {
    return (await this.utcOffsets(locationId))(at);
  }

  /** The same rule, read once for many instants (a page's times, a list of changes). */
  async utcOffsets(locationId: string): Promise<(at: Date) => number | undefined> {
    const zone = await this.timeZoneOf(locationId);
    if (zone !== null) {
      const clock = LocalClock.of(zone);
      return (at) => clock.offsetMinutesAt(at.getTime());
    }
    const latest = await this.db.one<{ sent: string | null }>(this.db.dialect.newestOrderSent, [
      locationId,
    ]);
    const fromOrders = latest?.sent ? utcOffsetOf(latest.sent) : undefined;
    if (fromOrders !== undefined) return () => fromOrders;
    const learned = await this.db.state(locationId, "utc_offset_minutes");
    const offset = learned === undefined ? undefined : Number(learned);
    return () => offset;
  }

  /** The first day the location's API holds, as a run learned it from its reports. */
  startDate(locationId: string): Promise<string | undefined> {
    return this.db.state(locationId, "start_date");
  }

  /** The time zone a location's rows are stamped on (locations.time_zone); null: the hours as
   * the API writes them. */
  timeZoneOf(locationId: string): Promise<string | null> {
    return this.zoneOf(locationId);
  }

  private async storedTimeZone(locationId: string): Promise<string | null> {
    const zone = await this.db.one<{ time_zone: string | null }>(
      `SELECT time_zone FROM locations WHERE id = ${this.db.p(1)}`,
      [locationId],
    );
    return zone?.time_zone ?? null;
  }

  /** The location's country as its record gives it (an ISO 3166 code), for its number format. */
  async countryOf(locationId: string): Promise<string | null> {
    const row = await this.db.one<{ country: string | null }>(
      `SELECT country FROM locations WHERE id = ${this.db.p(1)}`,
      [locationId],
    );
    return row?.country ?? null;
  }
}
