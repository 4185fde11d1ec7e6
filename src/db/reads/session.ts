/**
 * What every read of a database stands on: one SQL text for both databases (sql/dialect.ts), run
 * on the database's own session, a failure told as the database tells it, and the values
 * remembered per location (sync_state). Each store of reads (reader.ts lists them) holds one of
 * these and reads through it alone. No writes.
 */

import type { SqlDialect, SqlSession } from "../sql/dialect.js";

/** What sync_state keeps for a location, by name: its UTC offset, learned before any order of
 * it was stored (utc_offset_minutes); the first day of its history (start_date); where the
 * audit's pace stands (audit_pace). */
export type LocationState = "utc_offset_minutes" | "start_date" | "audit_pace";

/** A failure as the session's owner tells it (a destination turns a broken disk into a
 * DatabaseError); the error as raised otherwise. */
type Failure = (error: unknown) => unknown;

export class ReadSession {
  /** `where` names the database, for messages (a file's path, a server and schema). */
  constructor(
    readonly sql: SqlSession,
    readonly where: string,
    private readonly failed: Failure = (error) => error,
  ) {}

  get dialect(): SqlDialect {
    return this.sql.dialect;
  }

  /** The placeholder of the n-th parameter. */
  p(n: number): string {
    return this.sql.dialect.param(n);
  }

  all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.sql.all<T>(sql, params).catch((error: unknown) => {
      throw this.failed(error);
    });
  }

  async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async count(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.one<{ n: number }>(sql, params))?.n ?? 0;
  }

  /** One named value remembered for a location (sync_state). */
  async state(locationId: string, name: LocationState): Promise<string | undefined> {
    const row = await this.one<{ value: string }>(
      `SELECT value FROM sync_state WHERE location_id = ${this.p(1)} AND name = ${this.p(2)}`,
      [locationId, name],
    );
    return row?.value;
  }
}
