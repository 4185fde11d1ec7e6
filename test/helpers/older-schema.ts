/** A database as an older pos-sync left it: every migration but the newest applied. */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS_FOLDER } from "../../src/db/open.js";
import { openTestDb } from "./db.js";

interface Journal {
  entries: { tag: string }[];
}

/** A migrations folder holding all but the last `missing` migrations of this version. */
function olderMigrationsFolder(missing: number): string {
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
