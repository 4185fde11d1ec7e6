/**
 * The mark that tells a demo database from every other file: SQLite's application_id header
 * field, set by the demo on the file it creates. The demo writes to and deletes only marked
 * files, so a mistyped --db can never reach a real database.
 */
import { closeSync, openSync, readSync } from "node:fs";
import Database from "better-sqlite3";
import { SQLITE_MAGIC } from "../../output-file.js";

/** "PSDM" (pos-sync demo) in ASCII. */
export const DEMO_APPLICATION_ID = 0x5053444d;

const HEADER_BYTES = 100;
/** Where SQLite keeps application_id in the file header, big-endian (sqlite.org/fileformat). */
const APPLICATION_ID_OFFSET = 68;

export type FileKind = "demo database" | "unmarked SQLite database" | "not SQLite" | "empty file";

/**
 * What an existing file is, from its first 100 bytes. The header is read with a plain file read
 * rather than an SQLite connection, which could create -wal and -shm files beside a database
 * that is not ours. The demo sets its mark before the file turns to WAL mode, so the mark is in
 * the main file from the start and never only in a -wal.
 */
export function kindOfFile(path: string): FileKind {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, "r");
  let length: number;
  try {
    length = readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (length === 0) return "empty file";
  if (length < HEADER_BYTES || header.toString("latin1", 0, SQLITE_MAGIC.length) !== SQLITE_MAGIC)
    return "not SQLite";
  return header.readInt32BE(APPLICATION_ID_OFFSET) === DEMO_APPLICATION_ID
    ? "demo database"
    : "unmarked SQLite database";
}

/**
 * Creates a new, marked, empty database at path; fails with EEXIST when a file appeared there
 * since the caller looked, so that a file made meanwhile is never taken over.
 */
export function createMarkedDatabase(path: string): void {
  closeSync(openSync(path, "wx"));
  const sqlite = new Database(path);
  try {
    sqlite.pragma(`application_id = ${DEMO_APPLICATION_ID}`);
  } finally {
    sqlite.close();
  }
}
