/**
 * Writing a file the user names (`status --html`, `probe --write-config`, `demo --db`): one rule
 * for every command (design.md, "Files and terminals"), so that a mistyped name never costs data.
 * A command refuses, in one line (exit 2), to replace the database in use or one of its -wal,
 * -shm, -journal and .lock files, the configuration file in use, any SQLite database or
 * write-ahead log, anything but a regular file, or a file of another kind than it writes. It then
 * writes whole: beside the target, renamed over it, so that a reader (a mail job, a sync reading
 * its config) never sees half of it.
 */
import {
  closeSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from "node:fs";
import { resolve } from "node:path";
import { ConfigError, UsageError } from "./errors.js";

/** The first bytes of every SQLite database file (sqlite.org/fileformat). */
export const SQLITE_MAGIC = "SQLite format 3\0";
/** The files SQLite and pos-sync keep beside a database. */
const COMPANION_SUFFIXES = ["-wal", "-shm", "-journal", ".lock"] as const;
/** The first four bytes of a write-ahead log, big-endian (either byte order of its checksums). */
const WAL_MAGICS = new Set([0x377f0682, 0x377f0683]);
const HEAD_BYTES = 512;

/** What a command writes, and how to tell an existing file of that kind by its first bytes. */
export interface OutputKind {
  /** For messages: "the status page". */
  what: string;
  /** For messages: "an HTML page". */
  kind: string;
  /** Whether an existing file's first bytes (latin1) are of this kind. */
  isKind(head: string): boolean;
  /** A settings file may replace the configuration file in use: updating it is its purpose. */
  updatesSettings?: boolean;
}

export const STATUS_PAGE: OutputKind = {
  what: "the status page",
  kind: "an HTML page",
  isKind: (head) => /^(\xef\xbb\xbf)?\s*<(!doctype html|html)[\s>]/i.test(head),
};

export const MORNING_REPORT_PAGE: OutputKind = { ...STATUS_PAGE, what: "the morning report" };

export const SETTINGS_FILE: OutputKind = {
  what: "the settings",
  kind: "a JSON settings file",
  isKind: (head) => /^(\xef\xbb\xbf)?\s*\{/.test(head),
  updatesSettings: true,
};

/** The files a command works with, which no output may replace. */
export interface FilesInUse {
  /** The SQLite database (absent for PostgreSQL). */
  database?: string | undefined;
  configFile?: string | undefined;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The same file by name, or through another name (a link, a relative path, a hard link). */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const [first, second] = [statOf(a), statOf(b)];
  return (
    first !== undefined &&
    second !== undefined &&
    first.ino === second.ino &&
    first.dev === second.dev
  );
}

/** The first bytes of a file, as text: enough to tell what kind of file it is. */
export function headOf(path: string): string {
  const buffer = Buffer.alloc(HEAD_BYTES);
  const fd = openSync(path, "r");
  try {
    return buffer.toString("latin1", 0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

function isDatabase(path: string): boolean {
  try {
    return statOf(path)?.isFile() === true && headOf(path).startsWith(SQLITE_MAGIC);
  } catch {
    return false;
  }
}

/** Why `path` is one of the files in use, or a companion of a SQLite database; else undefined. */
export function protectedFileReason(path: string, inUse: FilesInUse): string | undefined {
  const { database, configFile } = inUse;
  if (database !== undefined && sameFile(path, database)) return "it is the database in use";
  for (const suffix of COMPANION_SUFFIXES) {
    if (database !== undefined && sameFile(path, `${database}${suffix}`))
      return `it is the ${suffix} file of the database in use`;
    if (path.endsWith(suffix) && isDatabase(path.slice(0, -suffix.length)))
      return `it is the ${suffix} file of the SQLite database ${path.slice(0, -suffix.length)}`;
  }
  if (configFile !== undefined && sameFile(path, configFile))
    return "it is the configuration file in use";
  return undefined;
}

/** Why an existing file at `path` may not be replaced by `output`; undefined when it may. */
function refusalReason(path: string, output: OutputKind, inUse: FilesInUse): string | undefined {
  const settingsInUse = output.updatesSettings ? { ...inUse, configFile: undefined } : inUse;
  const reason = protectedFileReason(path, settingsInUse);
  if (reason !== undefined) return reason;
  const stats = statOf(path);
  if (stats === undefined) return undefined;
  if (!stats.isFile())
    return stats.isDirectory() ? "it is a directory" : "it is not a regular file";
  const head = headOf(path);
  if (head.startsWith(SQLITE_MAGIC)) return "it is a SQLite database";
  if (head.length >= 4 && WAL_MAGICS.has(Buffer.from(head, "latin1").readUInt32BE(0)))
    return "it is a SQLite write-ahead log";
  if (head.trim() !== "" && !output.isKind(head)) return `it is not ${output.kind}`;
  return undefined;
}

/** Throws a UsageError (exit 2) when `path` is a file `output` must not replace. */
export function refuseToReplace(path: string, output: OutputKind, inUse: FilesInUse): void {
  let reason: string | undefined;
  try {
    reason = refusalReason(path, output, inUse);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    reason = `it cannot be read (${code})`;
  }
  if (reason !== undefined)
    throw new UsageError(
      `will not write ${output.what} to ${path}: ${reason}; choose another file`,
    );
}

/** Writes `text` to `path` whole, after refuseToReplace. */
export function writeOutputFile(
  path: string,
  text: string,
  output: OutputKind,
  inUse: FilesInUse,
  mode?: number,
): void {
  refuseToReplace(path, output, inUse);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, mode === undefined ? {} : { mode });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    const code = (error as { code?: string }).code ?? "unwritable";
    throw new ConfigError(`cannot write ${output.what} to ${path} (${code})`);
  }
}
