/** How far a database file's schema is from this version's: read without changing anything. */
import { readMigrationFiles } from "drizzle-orm/migrator";
import { type Db, MIGRATIONS_FOLDER } from "./open.js";

export interface MigrationState {
  /** False when the file holds no pos-sync schema at all (an empty or foreign SQLite file). */
  hasSchema: boolean;
  applied: number;
  /** Migrations of this version that the file lacks. */
  pending: number;
}

/** Which migrations drizzle would apply: those newer than the latest one recorded (the rule of
 * its migrator). */
export function migrationState(db: Db, migrationsFolder = MIGRATIONS_FOLDER): MigrationState {
  const { sqlite } = db;
  const migrations = readMigrationFiles({ migrationsFolder });
  const hasTable =
    sqlite
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
      .pluck()
      .get() !== undefined;
  if (!hasTable) return { hasSchema: false, applied: 0, pending: migrations.length };
  const applied = sqlite.prepare("SELECT COUNT(*) FROM __drizzle_migrations").pluck().get();
  const latest = sqlite
    .prepare("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1")
    .pluck()
    .get();
  const latestMillis = latest === undefined || latest === null ? undefined : Number(latest);
  return {
    hasSchema: Number(applied) > 0,
    applied: Number(applied),
    pending: migrations.filter((m) => latestMillis === undefined || latestMillis < m.folderMillis)
      .length,
  };
}
