/** Opening a PostgreSQL destination: a pool, and the schema migrated before anything else. */
import type { PostgresTarget } from "../../config/config.js";
import type { UpgradeProgress } from "../upgrade-progress.js";
import { connect, openPool, type PgPool } from "./connect.js";
import { type MigrationOutcome, migratePostgres, PG_MIGRATIONS_FOLDER } from "./migrate.js";

export interface OpenedPostgres {
  pool: PgPool;
  migration: MigrationOutcome;
}

/** A pool of `size` connections to a schema migrated to this version. */
export async function openPostgres(
  target: PostgresTarget,
  size: number,
  onProgress?: (progress: UpgradeProgress) => void,
): Promise<OpenedPostgres> {
  const pool = openPool(target, size);
  try {
    const client = await connect(pool, target);
    try {
      return {
        pool,
        migration: await migratePostgres(client, target, PG_MIGRATIONS_FOLDER, onProgress),
      };
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
}
