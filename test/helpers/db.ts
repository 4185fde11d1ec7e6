/** Real SQLite files in a temporary directory, removed after the test file. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { type Db, type OpenOptions, openDatabase } from "../../src/db/sqlite/open.js";

/** A fresh directory for this test file's databases. */
export function useTempDir(): () => string {
  const dir = mkdtempSync(join(tmpdir(), "pos-sync-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let count = 0;
  return () => join(dir, `db-${++count}.sqlite`);
}

export function openTestDb(path: string, options?: OpenOptions): Db {
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
