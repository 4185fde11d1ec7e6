/**
 * Opening a database file only to read it, from any directory: one the reader may not write to
 * included (a service's data directory read by another user, a read-only mount, a backup).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { DatabaseError } from "../errors.js";

/** Beyond this, a copy in memory costs more than a status is worth: the user is told instead. */
export const MAX_IN_MEMORY_COPY_BYTES = 1024 ** 3;

/** Header bytes 18 and 19: the file format versions, 2 in WAL mode and 1 with a rollback journal. */
const FORMAT_VERSION_OFFSETS = [18, 19] as const;
const WAL_FORMAT = 2;
const ROLLBACK_FORMAT = 1;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** A WAL file with content holds committed transactions that the main file does not. */
function hasWalContent(path: string): boolean {
  const wal = `${path}-wal`;
  return existsSync(wal) && statSync(wal).size > 0;
}

/**
 * The whole file, read into memory as a rollback-journal database. Only when no WAL content
 * exists: then the main file holds every committed transaction, and the copy is exact.
 */
function inMemoryCopy(path: string): Database.Database {
  const size = statSync(path).size;
  if (size > MAX_IN_MEMORY_COPY_BYTES) {
    throw new DatabaseError(
      `cannot read the database ${path}: its directory is read-only, and at ${Math.round(size / 1024 ** 2)} MB ` +
        "the file is too large to read into memory; let this user write to the directory, or read a copy",
      "SQLITE_READONLY_DIRECTORY",
    );
  }
  const image = readFileSync(path);
  for (const offset of FORMAT_VERSION_OFFSETS) {
    if (image[offset] === WAL_FORMAT) image[offset] = ROLLBACK_FORMAT;
  }
  return new Database(image, { readonly: true });
}

/**
 * A read-only connection: the file must exist, and nothing is ever written to it. A WAL-mode
 * file needs its -wal and -shm files to exist or to be creatable beside it; in a directory this
 * user may not write to, or on a read-only mount, where they do not exist (no connection has the
 * file open), SQLite fails at the first read. Its `immutable` URI option would avoid
 * that, but better-sqlite3 is built without URI file names: an exact copy in memory does it.
 */
export function openSqliteReadOnly(path: string, timeoutMs: number): Database.Database {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true, timeout: timeoutMs });
  try {
    // The first read opens the WAL: where a read-only directory fails.
    sqlite.pragma("schema_version");
    return sqlite;
  } catch (error) {
    sqlite.close();
    if (!cannotMakeWalFiles(error)) throw error;
    if (hasWalContent(path)) throw walOutOfReach(path, codeOf(error) ?? "SQLITE_CANTOPEN");
    return inMemoryCopy(path);
  }
}

/** A directory this user may not write to answers SQLITE_READONLY_DIRECTORY; a read-only mount
 * (EROFS: a backup, a container volume mounted :ro) answers SQLITE_CANTOPEN. */
function cannotMakeWalFiles(error: unknown): boolean {
  const code = codeOf(error);
  return code === "SQLITE_READONLY_DIRECTORY" || code === "SQLITE_CANTOPEN";
}

/** The -wal holds transactions the file does not, and SQLite cannot read it without a -shm. */
function walOutOfReach(path: string, code: string): DatabaseError {
  return new DatabaseError(
    `cannot read the database ${path}: its directory cannot be written (a read-only mount?) and ` +
      "its -wal file holds transactions the file does not; open it once where it can be written, " +
      "or copy the file with its -wal to a writable place",
    code,
  );
}
