/** Vitest's global setup: one SQLite file migrated as a new install leaves it, which the test
 * files copy (`inject("sqliteTemplate")`, helpers/db.ts) where a test opens a new database:
 * migrating a new file replays every migration (about 0.3 s), a copy takes milliseconds. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/db/sqlite/open.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated SQLite file to copy. */
    sqliteTemplate: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "pos-sync-template-"));
  const path = join(dir, "template.sqlite");
  // Closed, its WAL checkpointed into the file: the file alone is the database.
  openDatabase(path).close();
  project.provide("sqliteTemplate", path);
  return () => rmSync(dir, { recursive: true, force: true });
}
