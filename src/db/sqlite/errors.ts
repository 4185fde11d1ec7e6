/** SQLite failures in words a user can act on. */
import { DatabaseError } from "../errors.js";

const SQLITE_PROBLEMS: Readonly<Record<string, string>> = {
  SQLITE_FULL: "the disk is full",
  SQLITE_CANTOPEN:
    "the file cannot be opened (does its directory exist, and may pos-sync write there?)",
  SQLITE_READONLY: "the file or its directory is read-only",
  SQLITE_PERM: "permission denied",
  SQLITE_BUSY: "another process holds a lock on it",
  SQLITE_LOCKED: "another connection holds a lock on it",
  SQLITE_CORRUPT: "the file is corrupt",
  SQLITE_NOTADB: "the file is not a SQLite database",
  SQLITE_IOERR: "a disk input/output error occurred",
  SQLITE_TOOBIG: "a value is too large to store",
};

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

/** The problem an SQLite error code stands for; extended codes (SQLITE_IOERR_WRITE) fall back
 * to their primary code. */
export function sqliteProblem(code: string): string | undefined {
  return SQLITE_PROBLEMS[code] ?? SQLITE_PROBLEMS[code.split("_").slice(0, 2).join("_")];
}

export function isSqliteError(error: unknown): boolean {
  return codeOf(error).startsWith("SQLITE_");
}

/** A failure of the storage itself (disk full, read-only, corrupt, locked), which stops a run;
 * a constraint violation is a problem with one record's data instead. */
export function isStorageFailure(error: unknown): boolean {
  return isSqliteError(error) && !codeOf(error).startsWith("SQLITE_CONSTRAINT");
}

/** Wraps an SQLite (or file system) error into a DatabaseError naming the file and the fix. */
export function databaseError(error: unknown, path: string, doing: string): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const code = codeOf(error);
  const problem =
    sqliteProblem(code) ??
    (code === "EACCES"
      ? "permission denied"
      : error instanceof Error
        ? error.message
        : String(error));
  return new DatabaseError(
    `cannot ${doing} ${path}: ${problem} (${code})`,
    code,
    code.startsWith("SQLITE_BUSY"),
  );
}
