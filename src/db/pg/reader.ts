/**
 * The reader of a PostgreSQL schema (../reads/reader.ts, the same SQL as SQLite's), with what
 * only PostgreSQL keeps: the turns of several workers (turns.ts), and the raw archive's
 * documents as text. Opened for reading only: a schema that is missing or older than this
 * version is refused rather than half read.
 */
import { describePostgresUrl, type PostgresTarget } from "../../config/config.js";
import { ConfigError } from "../../errors.js";
import type { RawDocuments } from "../database.js";
import { composeReader, type Reader } from "../reads/reader.js";
import { ReadSession } from "../reads/session.js";
import { POSTGRES_DIALECT, type SqlSession } from "../sql/dialect.js";
import { connect, lending, openPool, type PgClient, type PgPool } from "./connect.js";
import { postgresError } from "./errors.js";
import { pendingMigrations } from "./migrate.js";
import { PgTurnReads } from "./turns.js";

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

/** The schema and server, for messages. */
export function pgWhere(target: PostgresTarget): string {
  return `${describePostgresUrl(target.url)} (schema ${target.schema})`;
}

/** A session whose failures are told as failed reads of the schema. */
function readSession(target: PostgresTarget, pool: PgPool): ReadSession {
  const read = lending(pool, target, (error) => postgresError(error, target, "read"));
  return new ReadSession(pgSession(read), pgWhere(target));
}

/** Connects to a schema this version's migrations made; never creates nor migrates it. */
async function openCheckedPool(target: PostgresTarget): Promise<PgPool> {
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
    return pool;
  } catch (error) {
    await pool.end();
    throw error;
  }
}

/** A reader of a schema this version's migrations made; closing it ends its connections. */
export async function openPgReader(target: PostgresTarget): Promise<Reader> {
  const pool = await openCheckedPool(target);
  return composeReader(readSession(target, pool), {
    close: () => pool.end(),
    turns: (session) => new PgTurnReads(session),
  });
}

/** The raw archive of a schema this version's migrations made, as text. */
export async function openPgRawDocuments(target: PostgresTarget): Promise<RawDocuments> {
  const pool = await openCheckedPool(target);
  const session = readSession(target, pool);
  return {
    async documents(table, id, locationId) {
      const rows = await session.all<{ document: string }>(
        `SELECT document::text AS document FROM raw_records
         WHERE table_name = $1 AND id = $2 AND ($3::text IS NULL OR location_id = $3)
         ORDER BY location_id`,
        [table, id, locationId ?? null],
      );
      return rows.map((row) => row.document);
    },
    close: () => pool.end(),
  };
}
