/**
 * What every read of a destination stands on: one SQL text for both databases (sql/dialect.ts),
 * run on the destination's own session, a failure told as the destination tells it, and the
 * values remembered per location (sync_state). The reads build on it by who asks: the sync's
 * (day-facts.ts), the checkpoints' (checkpoints.ts), status' (status.ts), changes'
 * (changes.ts); reader.ts is all of them. No writes.
 */

import type { SqlSession } from "../sql/dialect.js";

/** The name under which sync_state keeps a location's UTC offset, learned before any order of
 * it was stored. */
export const UTC_OFFSET_STATE = "utc_offset_minutes";
/** The name under which sync_state keeps the first day of a location's history. */
export const START_DATE_STATE = "start_date";
/** The name under which sync_state keeps where the audit's pace stands for a location. */
export const AUDIT_PACE_STATE = "audit_pace";

export class ReaderBase {
  /** `location` is the destination's, for messages; `release` closes what the reader opened. */
  constructor(
    protected readonly sql: SqlSession,
    readonly location: string,
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
  protected async state(locationId: string, name: string): Promise<string | undefined> {
    const row = await this.one<{ value: string }>(
      `SELECT value FROM sync_state WHERE location_id = ${this.p(1)} AND name = ${this.p(2)}`,
      [locationId, name],
    );
    return row?.value;
  }
}
