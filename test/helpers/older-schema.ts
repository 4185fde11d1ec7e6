/** A database as an older pos-sync left it: every migration but the newest applied, and the data
 * of a newer one copied into it. */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { PG_MIGRATIONS_FOLDER } from "../../src/db/pg/migrate.js";
import { MIGRATIONS_FOLDER } from "../../src/db/sqlite/open.js";
import { FILL_CLOCK_OFFSETS } from "../../src/db/upgrade-progress.js";
import { openTestDb } from "./db.js";

interface Journal {
  entries: { tag: string }[];
}

/** How many of this version's migrations in `folder` come from `tag` on. */
export function migrationsFrom(tag: string, folder = MIGRATIONS_FOLDER): number {
  const journal = JSON.parse(
    readFileSync(join(folder, "meta", "_journal.json"), "utf8"),
  ) as Journal;
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag}`);
  return journal.entries.length - at;
}

/** How many of this version's PostgreSQL migrations come after `tag`. */
export function pgMigrationsAfter(tag: string): number {
  return migrationsFrom(tag, PG_MIGRATIONS_FOLDER) - 1;
}

/** A migrations folder holding all but the last `missing` migrations of this version (the caller
 * removes it). */
export function olderMigrationsFolder(missing: number): string {
  const folder = mkdtempSync(join(tmpdir(), "pos-sync-migrations-"));
  mkdirSync(join(folder, "meta"));
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
  ) as Journal;
  journal.entries = journal.entries.slice(0, -missing);
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const { tag } of journal.entries) {
    copyFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
  }
  return folder;
}

/** Creates a database at `path` that lacks this version's last `missing` migrations. */
export function createOlderDatabase(path: string, missing = 1): void {
  const folder = olderMigrationsFolder(missing);
  try {
    openTestDb(path, { migrationsFolder: folder }).close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Upgrades of stored data later than every older schema these helpers make: such a file has
 * not finished them, whatever the copied database has. */
const UPGRADES_SINCE = [FILL_CLOCK_OFFSETS];

/** Copies every row of the tables an older schema has, in the columns both have, from a database
 * of this version (but the record of upgrades it could not have run: UPGRADES_SINCE). The older
 * schema's `raw` columns (JSON the typed tables held before the raw archive) get a small JSON of
 * the record's id. */
export function copyCommonColumns(target: Database.Database, sourcePath: string): void {
  target.exec(`ATTACH DATABASE '${sourcePath}' AS source`);
  target.pragma("foreign_keys = OFF");
  const tables = target
    .prepare(
      "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%'",
    )
    .pluck()
    .all() as string[];
  const columnsOf = (schema: string, table: string) =>
    (target.pragma(`${schema}.table_info("${table}")`) as { name: string }[]).map((c) => c.name);
  for (const table of tables) {
    const sourceColumns = new Set(columnsOf("source", table));
    const columns = columnsOf("main", table).filter((c) => sourceColumns.has(c) || c === "raw");
    const values = columns.map((c) => (sourceColumns.has(c) ? `"${c}"` : `json_object('id', id)`));
    target.exec(
      `INSERT INTO main."${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT ${values.join(", ")} FROM source."${table}"`,
    );
  }
  if (tables.includes("schema_upgrades"))
    target
      .prepare("DELETE FROM main.schema_upgrades WHERE name IN (SELECT value FROM json_each(?))")
      .run(JSON.stringify(UPGRADES_SINCE));
  target.pragma("foreign_keys = ON");
  target.exec("DETACH DATABASE source");
}
