/**
 * The records a day window holds, for proving it complete and for soft deletion: a record that a
 * complete read of its day no longer lists keeps its rows (for audit) and gets `deleted_at`;
 * every view leaves it out. ReplacingWriter clears the mark when the record is listed again.
 * One instance per day stream's table.
 */
import type Database from "better-sqlite3";

export class DayDeletions {
  private readonly stored: Database.Statement<[string], number>;
  private readonly live: Database.Statement<[string, string], number>;
  private readonly unlistedIds: Database.Statement<[string, string, string], string>;
  private readonly mark: Database.Statement<[string, string]>;
  private readonly days: Database.Statement<[string], { locationId: string; day: string }>;

  constructor(sqlite: Database.Database, table: string) {
    this.stored = sqlite
      .prepare<[string], number>(
        `SELECT COUNT(*) FROM "${table}" WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .pluck();
    this.live = sqlite
      .prepare<[string, string], number>(
        `SELECT COUNT(*) FROM "${table}" WHERE location_id = ? AND business_date = ? AND deleted_at IS NULL`,
      )
      .pluck();
    this.unlistedIds = sqlite
      .prepare<[string, string, string], string>(
        `SELECT id FROM "${table}" WHERE location_id = ? AND business_date = ? AND deleted_at IS NULL
         AND id NOT IN (SELECT value FROM json_each(?))`,
      )
      .pluck();
    this.days = sqlite.prepare(
      `SELECT DISTINCT location_id AS locationId, business_date AS day FROM "${table}"
       WHERE id IN (SELECT value FROM json_each(?))`,
    );
    this.mark = sqlite.prepare<[string, string]>(
      `UPDATE "${table}" SET deleted_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL`,
    );
  }

  /** How many of these records are stored, live or not. */
  countStored(ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    return this.stored.get(JSON.stringify(ids)) ?? 0;
  }

  /** Live records of a day, the listed ones included. */
  liveCount(locationId: string, day: string): number {
    return this.live.get(locationId, day) ?? 0;
  }

  /** Live records of a day that are not among the listed ids. */
  unlisted(locationId: string, day: string, listedIds: readonly string[]): string[] {
    return this.unlistedIds.all(locationId, day, JSON.stringify(listedIds));
  }

  /** The location days these records are listed under. */
  daysOf(ids: readonly string[]): { locationId: string; day: string }[] {
    return this.days.all(JSON.stringify(ids));
  }

  markDeleted(ids: readonly string[], at: string): number {
    if (ids.length === 0) return 0;
    return this.mark.run(at, JSON.stringify(ids)).changes;
  }
}
