/** Real SQLite files in a temporary directory, removed after the test file. */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import { type Db, type OpenOptions, openDatabase } from "../../src/db/sqlite/open.js";

/** A fresh directory for this test file's databases. */
export function useTempDir(): () => string {
  const dir = mkdtempSync(join(tmpdir(), "pos-sync-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let count = 0;
  return () => join(dir, `db-${++count}.sqlite`);
}

/** Opens a test's database. A new one that this version migrates starts as a copy of the run's
 * migrated file (sqlite-global-setup.ts), which is what migrating it would make. */
export function openTestDb(path: string, options: OpenOptions = {}): Db {
  const template = inject("sqliteTemplate");
  const migratedHere =
    options.migrate !== false && !options.readonly && options.migrationsFolder === undefined;
  if (template && migratedHere && path !== ":memory:" && !existsSync(path))
    copyFileSync(template, path);
  return openDatabase(path, options);
}

/** Rows of a query, for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary columns
export function rows(db: Db, sql: string, ...params: unknown[]): any[] {
  return db.sqlite.prepare(sql).all(...params);
}

export function scalar(db: Db, sql: string, ...params: unknown[]): unknown {
  return db.sqlite
    .prepare(sql)
    .pluck()
    .get(...params);
}
