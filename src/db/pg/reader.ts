/**
 * The reader of a PostgreSQL destination (../reader.ts, the same SQL as SQLite's), with what
 * only PostgreSQL keeps: the turns of several workers, and the raw archive's documents as text.
 * Opened for reading only: a schema that is missing or older than this version is refused
 * rather than half read.
 */
import { describePostgresUrl, type PostgresTarget } from "../../config/config.js";
import { ConfigError } from "../../errors.js";
import type { LocationTurn } from "../destination.js";
import { SqlReader } from "../reads/reader.js";
import { POSTGRES_DIALECT, type SqlSession } from "../sql/dialect.js";
import { connect, lending, openPool, type PgClient, type PgPool } from "./connect.js";
import { postgresError } from "./errors.js";
import { pendingMigrations } from "./migrate.js";

/** A session that runs each statement on a connection `read` lends. */
export function pgSession(
  read: <T>(work: (client: PgClient) => Promise<T>) => Promise<T>,
): SqlSession {
  return {
    dialect: POSTGRES_DIALECT,
    all: <T>(sql: string, params: readonly unknown[] = []) =>
      read(async (client) => (await client.query(sql, [...params])).rows as T[]),
    table: (sql: string) =>
      read(async (client) => {
        const result = await client.query({ text: sql, rowMode: "array" });
        return { columns: result.fields.map((f) => f.name), rows: result.rows as unknown[][] };
      }),
  };
}

export class PgReader extends SqlReader {
  private constructor(target: PostgresTarget, pool: PgPool) {
    super(
      // A failure is told as a failed read of the destination.
      pgSession(lending(pool, target, (error) => postgresError(error, target, "read"))),
      `${describePostgresUrl(target.url)} (schema ${target.schema})`,
      () => pool.end(),
    );
  }

  /** Connects to a schema this version's migrations made; never creates nor migrates it. */
  static async open(target: PostgresTarget): Promise<PgReader> {
    const pool = openPool(target, 2);
    try {
      const client = await connect(pool, target);
      try {
        const pending = await pendingMigrations(client).catch((error: unknown) => {
          throw postgresError(error, target, "read");
        });
        const where = `the schema ${target.schema} of ${describePostgresUrl(target.url)}`;
        if (pending === undefined) {
          throw new ConfigError(
            `no pos-sync database in ${where}: check POS_DB_URL and POS_DB_SCHEMA, or create one with pos-sync migrate`,
          );
        }
        if (pending > 0) {
          throw new ConfigError(
            `${where} lacks ${pending} schema migration(s) of this pos-sync version: run pos-sync migrate first`,
          );
        }
      } finally {
        client.release();
      }
      return new PgReader(target, pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  /** The archived JSON of a record (of one location, or of every location that has it). */
  async rawDocuments(table: string, id: string, locationId?: string): Promise<string[]> {
    const rows = await this.all<{ document: string }>(
      `SELECT document::text AS document FROM raw_records
       WHERE table_name = $1 AND id = $2 AND ($3::text IS NULL OR location_id = $3)
       ORDER BY location_id`,
      [table, id, locationId ?? null],
    );
    return rows.map((row) => row.document);
  }

  /** Per location, the worker syncing it now and the last turn that finished: looked up key by
   * key on the claims' indexes (location_claims_open, location_claims_key), as a daemon's year of
   * turns is hundreds of thousands. The keys: the stored locations', and those of turns whose
   * location is not known yet. */
  override locationTurns(): Promise<LocationTurn[]> {
    return this.all(
      `SELECT k.key, running.worker AS "heldBy", running.started_at AS "heldSince",
              done.worker AS "lastDoneBy", done.finished_at AS "lastDoneAt"
       FROM (SELECT api_key_fingerprint AS key FROM locations
             UNION SELECT key_fingerprint FROM location_claims
               WHERE status = 'running' OR location_id IS NULL) k
       LEFT JOIN LATERAL (
         SELECT worker, started_at FROM location_claims c
         WHERE c.key_fingerprint = k.key AND c.status = 'running' ORDER BY c.id DESC LIMIT 1
       ) running ON true
       LEFT JOIN LATERAL (
         SELECT worker, finished_at FROM location_claims c
         WHERE c.key_fingerprint = k.key AND c.status = 'done' ORDER BY c.started_at DESC LIMIT 1
       ) done ON true
       WHERE EXISTS (SELECT 1 FROM location_claims c WHERE c.key_fingerprint = k.key)
       ORDER BY k.key`,
    );
  }
}
