/**
 * What every read of a destination stands on: one SQL text for both databases (sql/dialect.ts),
 * run on the destination's own session, a failure told as the destination tells it, and the
 * values remembered per location (sync_state). The reads build on it by who asks: the sync's
 * (day-facts.ts), the checkpoints' (checkpoints.ts), status' (status.ts), changes'
 * (changes.ts), the morning report's (morning-report.ts), the daemon's messages'
 * (deliveries.ts); reader.ts is all of them. No writes.
 */

import type { SqlSession } from "../sql/dialect.js";

/** What sync_state keeps for a location, by name: its UTC offset, learned before any order of
 * it was stored (utc_offset_minutes); the first day of its history (start_date); where the
 * audit's pace stands (audit_pace). */
export type LocationState = "utc_offset_minutes" | "start_date" | "audit_pace";

export class ReaderBase {
  /** `where` names the database, for messages (a file's path, a server and schema); `release`
   * closes what the reader opened. */
  constructor(
    protected readonly sql: SqlSession,
    readonly where: string,
    private readonly release: () => Promise<void> = async () => {},
  ) {}

  close(): Promise<void> {
    return this.release();
  }

  protected p(n: number): string {
    return this.sql.dialect.param(n);
  }

  protected all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.sql.all<T>(sql, params).catch((error: unknown) => {
      throw this.failed(error);
    });
  }

  /** What a failed read throws: the error as raised, unless a destination says otherwise. */
  protected failed(error: unknown): unknown {
    return error;
  }

  protected async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  protected async count(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.one<{ n: number }>(sql, params))?.n ?? 0;
  }

  /** One named value remembered for a location (sync_state). */
  protected async state(locationId: string, name: LocationState): Promise<string | undefined> {
    const row = await this.one<{ value: string }>(
      `SELECT value FROM sync_state WHERE location_id = ${this.p(1)} AND name = ${this.p(2)}`,
      [locationId, name],
    );
    return row?.value;
  }
}
