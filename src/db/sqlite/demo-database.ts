/**
 * Which file the demo may use: a database it made, or a path where nothing is yet. Anything else
 * (a real pos-sync database, another SQLite file, a text file) is refused before it is opened
 * for writing, and --fresh deletes only a database the demo made.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "../../errors.js";
import { protectedFileReason } from "../../output-file.js";
import { createMarkedDatabase, type FileKind, kindOfFile } from "./demo-marker.js";
import { databaseError } from "./errors.js";

const DESCRIPTIONS: Record<Exclude<FileKind, "demo database">, string> = {
  "unmarked SQLite database": "a SQLite database without the demo's mark",
  "not SQLite": "not a SQLite database",
  "empty file": "an empty file",
};

function refusal(path: string, kind: Exclude<FileKind, "demo database">): UsageError {
  return new UsageError(
    `${path} is not a database the demo made (${DESCRIPTIONS[kind]}), so the demo leaves it ` +
      "alone: choose another --db (a demo database from an earlier pos-sync has no mark: " +
      "delete it yourself)",
  );
}

/** Whether something exists at path; a directory or a device is refused outright. */
function existingFile(path: string): boolean {
  try {
    const stats = statSync(path);
    if (stats.isDirectory())
      throw new UsageError(`${path} is a directory: give --db the path of a database file`);
    if (!stats.isFile()) throw new UsageError(`${path} is not a regular file: give --db a file`);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    if (error instanceof UsageError) throw error;
    throw databaseError(error, path, "open the database");
  }
}

function deleteDemoDatabase(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
}

/** Throws unless the existing file at path is a database the demo made. */
function refuseUnlessDemoDatabase(path: string): void {
  let kind: FileKind;
  try {
    kind = kindOfFile(path);
  } catch (error) {
    throw databaseError(error, path, "read the database");
  }
  if (kind !== "demo database") throw refusal(path, kind);
}

/**
 * Makes path ready for the demo: a marked database, new or from an earlier demo run. With
 * fresh, a database the demo made is deleted first. Throws a UsageError for any other file,
 * which is left exactly as it was.
 */
export function prepareDemoDatabase(path: string, fresh: boolean): void {
  const reason = protectedFileReason(path, {});
  if (reason !== undefined)
    throw new UsageError(
      `will not use ${path} as the demo's database: ${reason}; choose another --db`,
    );
  if (existingFile(path)) {
    refuseUnlessDemoDatabase(path);
    if (!fresh) return;
    deleteDemoDatabase(path);
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    createMarkedDatabase(path);
  } catch (error) {
    // Made by someone else since we looked: used only if it is a demo database too.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") refuseUnlessDemoDatabase(path);
    else throw databaseError(error, path, "create the database");
  }
}
