/**
 * Whether a database file is one pos-sync may open: none yet, an empty file, a SQLite database
 * with nothing in it, or one pos-sync made. Any other file is another program's, and every command
 * refuses it before it is opened as a database, leaving it byte for byte as it was: opening it to
 * write would switch it to WAL and migrate pos-sync's tables into it (design.md, "Files that are
 * not ours").
 */
import { statSync } from "node:fs";
import Database from "better-sqlite3";
import { UsageError } from "../../errors.js";
import { headOf, SQLITE_MAGIC } from "../../output-file.js";

/** The tables only a pos-sync database has together. */
const OURS = ["__drizzle_migrations", "sync_runs"] as const;

/** Names of another program's tables shown in the refusal, at most. */
const NAMED = 3;

function size(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    // Absent (created by the open), or unreadable: the open says what is wrong.
    return undefined;
  }
}

/**
 * The tables and views of a SQLite file. Read on a connection that may write, not a read-only
 * one: on a file in WAL mode, a read-only connection leaves -wal and -shm files behind, where
 * the last connection that may write removes them as it closes. Undefined when no such connection
 * can read the file (a read-only directory): a read-only open then finds no pos-sync tables.
 */
function relationsOf(path: string): string[] | undefined {
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(path, { fileMustExist: true });
    return sqlite
      .prepare<[], string>(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      )
      .pluck()
      .all();
  } catch {
    return undefined;
  } finally {
    sqlite?.close();
  }
}

/** Throws a UsageError, naming what the file holds, unless pos-sync may open it. */
export function refuseForeignDatabase(path: string): void {
  if (path === ":memory:" || !size(path)) return;
  const leftAlone =
    "pos-sync leaves it as it is: give --db or POS_DB_PATH a pos-sync database or a new file";
  if (!headOf(path).startsWith(SQLITE_MAGIC))
    throw new UsageError(`${path} is not a SQLite database; ${leftAlone}`);
  const relations = relationsOf(path);
  if (!relations || relations.length === 0) return;
  if (OURS.every((name) => relations.includes(name))) return;
  // The command line shows the message with control characters made visible (cli.ts).
  const named = relations.slice(0, NAMED).map((name) => `"${name}"`);
  const more = relations.length > NAMED ? ` and ${relations.length - NAMED} more` : "";
  throw new UsageError(
    `${path} is another program's SQLite database (it holds ${named.join(", ")}${more}); ${leftAlone}`,
  );
}
