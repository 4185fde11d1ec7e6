/**
 * Opening the database: connection settings for a worker that writes while BI tools read, and
 * migrations applied before anything else touches the file.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { packagePath } from "../../package-root.js";
import type { UpgradeProgress } from "../upgrade-progress.js";
import { databaseError } from "./errors.js";
import { migrateSqlite } from "./migrate.js";
import { openSqliteReadOnly } from "./open-read-only.js";
import { refuseForeignDatabase } from "./ownership.js";
import { BEFORE_MIGRATIONS, runUpgrades } from "./upgrades/index.js";

export const MIGRATIONS_FOLDER = packagePath("drizzle");

/** Largest WAL kept on disk after a checkpoint (see wal.ts). */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** How long a write waits for another connection's lock before failing, in milliseconds. */
export const BUSY_TIMEOUT_MS = 10_000;

export interface Db {
  path: string;
  sqlite: Database.Database;
  close(): void;
}

export interface OpenOptions {
  /** Apply pending migrations (default true). Read-only connections never migrate. */
  migrate?: boolean;
  readonly?: boolean;
  migrationsFolder?: string;
  /** Told how an upgrade of a file that holds data goes (migrations, then upgrades/): a progress
   * display, or logs. */
  onUpgradeProgress?: (progress: UpgradeProgress) => void;
}

/**
 * WAL lets readers (BI tools) and the writer work at the same time: a long read transaction
 * elsewhere never blocks a sync. synchronous=NORMAL is durable across crashes of the process and
 * loses at most the last transactions on power loss, which the next run fetches again.
 */
function applyPragmas(sqlite: Database.Database, readonly: boolean): void {
  if (!readonly) sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // 8 MB of page cache: as fast as 16 or 64 MB here (benchmark 1, 100,000 orders), and 8 MB
  // less resident memory, of the 200 a chain's sync may take.
  sqlite.pragma("cache_size = -8192");
  // Checkpoint every ~40 MB of WAL rather than 4 MB: each checkpoint syncs the disk, and during a
  // backfill they cost a sixth of the write time at the default (measured in bench/ingest.ts).
  sqlite.pragma("wal_autocheckpoint = 10000");
  // A WAL that grew while a reader held an old snapshot is cut back to this size by the next
  // checkpoint that resets it, rather than keeping its largest size on disk for good.
  if (!readonly) sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  // The sorts and temporary tables of big queries (a day's summaries at 2,500 orders, the
  // checks over a whole history) go to temporary files, cached up to SQLite's default: held in
  // memory whole, they raised a sync's resident memory by 12-25 MB for tens of milliseconds.
  sqlite.pragma("temp_store = FILE");
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  const readonly = options.readonly ?? false;
  refuseForeignDatabase(path);
  let sqlite: Database.Database;
  try {
    if (!readonly && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    sqlite = readonly
      ? openSqliteReadOnly(path, BUSY_TIMEOUT_MS)
      : new Database(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw databaseError(error, path, "open the database");
  }
  try {
    applyPragmas(sqlite, readonly);
    if (!readonly && options.migrate !== false) {
      // The upgrades need this version's schema: a file migrated from another folder (an
      // older release's, in tests) is left as that release would leave it.
      const ours = options.migrationsFolder === undefined;
      const { onUpgradeProgress } = options;
      migrateSqlite(
        sqlite,
        options.migrationsFolder ?? MIGRATIONS_FOLDER,
        onUpgradeProgress,
        ours ? BEFORE_MIGRATIONS : {},
      );
      if (ours) runUpgrades(sqlite, onUpgradeProgress);
    }
    return { path, sqlite, close: () => sqlite.close() };
  } catch (error) {
    sqlite.close();
    throw databaseError(error, path, "prepare the database");
  }
}
