/**
 * The views' migrations, generated from src/db/sql/views.ts (`npm run db:views`). When the views the
 * latest generated migration of a folder creates differ from what the source renders, a new
 * migration is appended to the folder, with its drizzle journal entry and a copy of the schema
 * snapshot (views are not in drizzle's snapshots, so the schema has not moved). A migration once
 * released is never rewritten: databases that applied it would not see the change.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { POSTGRES_DIALECT, SQLITE_DIALECT } from "../src/db/sql/dialect.js";
import { GENERATED_VIEWS_MARK, viewStatements, viewsMigration } from "../src/db/sql/views.js";
import { postgresComments } from "./data-dictionary/pg-comments.js";

const root = fileURLToPath(new URL("..", import.meta.url));

export const VIEW_MIGRATION_FOLDERS: readonly {
  name: string;
  folder: string;
  /** The views' migration as the source renders it. */
  render: () => string;
}[] = [
  { name: "drizzle", folder: join(root, "drizzle"), render: () => viewsMigration(SQLITE_DIALECT) },
  {
    name: "drizzle/pg",
    folder: join(root, "drizzle", "pg"),
    render: () => viewsMigration(POSTGRES_DIALECT, postgresComments()),
  },
];

interface JournalEntry {
  idx: number;
  version: string;
  when: number;
  tag: string;
  breakpoints: boolean;
}

interface Journal {
  entries: JournalEntry[];
}

const journalPath = (folder: string) => join(folder, "meta", "_journal.json");
const snapshotPath = (folder: string, idx: number) =>
  join(folder, "meta", `${String(idx).padStart(4, "0")}_snapshot.json`);

function readJournal(folder: string): Journal {
  return JSON.parse(readFileSync(journalPath(folder), "utf8")) as Journal;
}

/** The text of the folder's latest generated view migration, if it has one. */
export function latestViewMigration(folder: string): { tag: string; sql: string } | undefined {
  for (const entry of readJournal(folder).entries.toReversed()) {
    const sql = readFileSync(join(folder, `${entry.tag}.sql`), "utf8");
    if (sql.startsWith(GENERATED_VIEWS_MARK)) return { tag: entry.tag, sql };
  }
  return undefined;
}

/** Appends a migration of the views as the source renders them; its tag. */
function appendViewMigration(folder: string, sql: string): string {
  const journal = readJournal(folder);
  const last = journal.entries.at(-1);
  if (!last) throw new Error(`${folder} has no migration to follow`);
  const idx = last.idx + 1;
  const tag = `${String(idx).padStart(4, "0")}_views`;
  writeFileSync(join(folder, `${tag}.sql`), sql);
  journal.entries.push({ ...last, idx, tag, when: Math.max(Date.now(), last.when + 1) });
  writeFileSync(journalPath(folder), `${JSON.stringify(journal, null, 2)}\n`);
  const previous = snapshotPath(folder, last.idx);
  if (existsSync(previous)) {
    const snapshot = JSON.parse(readFileSync(previous, "utf8")) as { id: string };
    const next = { ...snapshot, id: randomUUID(), prevId: snapshot.id };
    writeFileSync(snapshotPath(folder, idx), `${JSON.stringify(next, null, 2)}\n`);
  }
  return tag;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { name, folder, render } of VIEW_MIGRATION_FOLDERS) {
    const sql = render();
    const latest = latestViewMigration(folder);
    const done =
      latest && viewStatements(latest.sql) === viewStatements(sql)
        ? `up to date (${latest.tag})`
        : `wrote ${appendViewMigration(folder, sql)}.sql`;
    process.stdout.write(`${name}: ${done}\n`);
  }
}
