/**
 * Connections to a PostgreSQL destination: a pool whose sessions use the configured schema and
 * UTC, and whose values come back as the SQLite destination gives them (numbers for bigint and
 * numeric, YYYY-MM-DD for dates, ISO 8601 for instants, SQLite's own text for the views' wall
 * clocks), so that code reading either reads alike.
 */
import pg from "pg";
import type { PostgresTarget } from "../../config/config.js";
import { postgresError } from "./errors.js";
import { internalSchemaOf } from "./schemas.js";

const { Pool, types } = pg;

const OID = { int8: 20, numeric: 1700, date: 1082, timestamptz: 1184, timestamp: 1114 } as const;

const parseTimestamptz = types.getTypeParser(OID.timestamptz);

/** PostgreSQL's text of a timestamp (`2026-11-27 17:00:22.33`) in SQLite's own form, to the
 * millisecond (`2026-11-27 17:00:22.330`). */
function sqliteDateTimeText(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  return `${whole}.${fraction.padEnd(3, "0").slice(0, 3)}`;
}

/** Values as the rest of pos-sync expects them (see the header). */
const TYPE_PARSERS: Record<number, (text: string) => unknown> = {
  // Counts, content hashes and run ids all fit in a double (hashes are 48 bits).
  [OID.int8]: Number,
  // Amounts are read back for messages and comparisons; analysts reading numeric get exact
  // decimals from the server, which this does not change.
  [OID.numeric]: Number,
  [OID.date]: (text) => text,
  [OID.timestamptz]: (text) => (parseTimestamptz(text) as Date).toISOString(),
  // The views' wall clocks and `…_utc` instants, as SQLite writes them: 2026-11-27 17:00:22.334.
  [OID.timestamp]: sqliteDateTimeText,
};

const typeParsers = {
  getTypeParser: ((oid: number, format?: string) =>
    TYPE_PARSERS[oid] ?? types.getTypeParser(oid, format as "text")) as typeof types.getTypeParser,
};

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

/** A pool of at most `size` connections to the destination. */
export function openPool(target: PostgresTarget, size: number): PgPool {
  const pool = new Pool({
    connectionString: target.url,
    max: size,
    types: typeParsers,
    // The schema is checked to be a plain lower-case name (config.ts): no quoting is needed.
    options: `-c search_path=${target.schema},${internalSchemaOf(target.schema)} -c TimeZone=UTC`,
    application_name: "pos-sync",
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection the server drops must not end the process; the next query reconnects.
  pool.on("error", () => {});
  return pool;
}

/** One connection of the pool for work that must stay on one session (locks, transactions). */
export async function connect(pool: PgPool, target: PostgresTarget): Promise<PgClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw postgresError(error, target, "connect to");
  }
}

/** Runs each work on a connection of the pool, released after; `failed` is what a failure of
 * the work becomes. */
export function lending(pool: PgPool, target: PostgresTarget, failed: (error: unknown) => unknown) {
  return async <T>(work: (client: PgClient) => Promise<T>): Promise<T> => {
    const client = await connect(pool, target);
    try {
      return await work(client);
    } catch (error) {
      throw failed(error);
    } finally {
      client.release();
    }
  };
}
