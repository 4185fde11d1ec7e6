/**
 * Keeping the write-ahead log small. Every committed write goes to `<database>-wal` first;
 * checkpoints copy it into the database, and only a checkpoint that finds no reader on an older
 * snapshot may start the log over. A BI tool that holds one read transaction while a backfill
 * writes therefore makes the log grow by everything written meanwhile (measured: about 70 MB a
 * second during a backfill), and without a truncating checkpoint the file keeps that size.
 * After each run pos-sync checkpoints and truncates it; if a reader still blocks that, the daemon
 * tries again until it succeeds.
 */
import { statSync } from "node:fs";
import type Database from "better-sqlite3";

export interface CheckpointOutcome {
  /** True when the whole log was copied and the file truncated to zero bytes. */
  truncated: boolean;
  /** Size of the -wal file afterwards, in bytes (0 when absent). */
  walBytes: number;
}

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

export function walSize(dbPath: string): number {
  try {
    return statSync(`${dbPath}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * Checkpoints the whole log and truncates the file, without waiting: a reader on an older
 * snapshot or another writer makes it give up at once (truncated false) rather than block.
 */
export function checkpointAndTruncate(
  sqlite: Database.Database,
  dbPath: string,
): CheckpointOutcome {
  const timeout = sqlite.pragma("busy_timeout", { simple: true }) as number;
  sqlite.pragma("busy_timeout = 0");
  try {
    const [row] = sqlite.pragma("wal_checkpoint(TRUNCATE)") as CheckpointRow[];
    return { truncated: row?.busy === 0, walBytes: walSize(dbPath) };
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY"))
      return { truncated: false, walBytes: walSize(dbPath) };
    throw error;
  } finally {
    sqlite.pragma(`busy_timeout = ${timeout}`);
  }
}

/** Has a connection read the database, which creates the -shm of a WAL database: the files are
 * then all there. Any read does; the run log is there in every migrated database, and small. */
export function touchSharedMemory(sqlite: Database.Database): void {
  sqlite.prepare("SELECT COUNT(*) FROM sync_runs").get();
}
