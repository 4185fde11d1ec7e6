/**
 * Applying the SQLite migrations (drizzle/) as drizzle's migrator does: the ones newer than the
 * latest recorded, in one transaction, recorded in its journal (`__drizzle_migrations`, read by
 * migration-state.ts and drizzle's tools alike). Unlike it, this one says how far it is,
 * statement by statement, when it upgrades a file that holds data: one migration rebuilds the
 * tables of every order (0013_lean_layout).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";
import { SCHEMA_MIGRATIONS, type UpgradeProgress } from "../upgrade-progress.js";

/** Work that must be done before a migration can run (upgrades/index.ts, BEFORE_MIGRATIONS). */
export type BeforeMigration = (
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void,
) => void;

const JOURNAL = "__drizzle_migrations";

/** Each migration's name (its tag in the folder's journal), in the order of the files. */
function migrationNames(folder: string): string[] {
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => entry.tag);
}

/**
 * Applies the migrations the file lacks. Those in a row run in one transaction; work a migration
 * needs done before it (`before`, by migration name: moving data that it would drop) runs
 * between two such transactions, on its own terms, so that an interruption resumes it.
 */
export function migrateSqlite(
  sqlite: Database.Database,
  folder: string,
  onProgress: (progress: UpgradeProgress) => void = () => {},
  before: Readonly<Record<string, BeforeMigration>> = {},
): void {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const names = migrationNames(folder);
  sqlite.exec(
    `CREATE TABLE IF NOT EXISTS "${JOURNAL}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
  );
  const latestStatement = sqlite
    .prepare<[], number | string | null>(
      `SELECT created_at FROM "${JOURNAL}" ORDER BY created_at DESC LIMIT 1`,
    )
    .pluck();
  const latest = latestStatement.get();
  const newer = (at: number | string | null | undefined) => (migration: MigrationMeta) =>
    at == null || Number(at) < migration.folderMillis;
  const pending = migrations
    .map((migration, i) => ({ migration, name: names[i] ?? `migration ${i}` }))
    .filter(({ migration }) => newer(latest)(migration));
  if (pending.length === 0) return;
  // A new file has nothing to move: only an upgrade has progress worth telling.
  const report = latest == null ? () => {} : onProgress;
  const statements = pending.reduce((sum, { migration }) => sum + migration.sql.length, 0);
  const record = sqlite.prepare(`INSERT INTO "${JOURNAL}" ("hash", "created_at") VALUES (?, ?)`);
  let done = 0;
  const applyStretch = sqlite.transaction((stretch: typeof pending) => {
    // Read again under the write lock: another process may have applied them meanwhile.
    const stillNewer = newer(latestStatement.get());
    for (const { migration, name } of stretch) {
      if (!stillNewer(migration)) continue;
      for (const statement of migration.sql) {
        report({ upgrade: SCHEMA_MIGRATIONS, part: name, done: done / statements, items: 0 });
        if (statement.trim() !== "") sqlite.exec(statement);
        done++;
      }
      record.run(migration.hash, migration.folderMillis);
    }
  });
  const apply = (stretch: typeof pending) => applyStretch.immediate(stretch);
  let stretch: typeof pending = [];
  for (const item of pending) {
    const prerequisite = before[item.name];
    if (prerequisite) {
      if (stretch.length > 0) apply(stretch);
      stretch = [];
      prerequisite(sqlite, onProgress);
    }
    stretch.push(item);
  }
  apply(stretch);
  report({
    upgrade: SCHEMA_MIGRATIONS,
    part: pending.map(({ name }) => name).join(", "),
    done: 1,
    items: pending.length,
  });
}
