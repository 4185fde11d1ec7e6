/**
 * A command's hold on a SQLite file for its runs: the connection the runs write through, from
 * this thread, with the writer lease that keeps a second writer out, and the WAL started over
 * once the runs are done.
 */
import type { Logger } from "../../log.js";
import type { HeldDatabase, RunHold, RunHoldOptions } from "../database.js";
import { SqliteDestination } from "./destination.js";
import { type Db, openDatabase } from "./open.js";
import { sqliteReader } from "./reader.js";
import { checkpointAndTruncate } from "./wal.js";
import { WriterLease } from "./writer-lease.js";

/**
 * Takes the database's writer lease for a command. Should another process take it over after
 * all (this one stalled past its time-to-live), the work stops: two writers must never overlap.
 */
export function acquireWriterLease(
  db: Db,
  options: { command: string; logger: Logger; stop: AbortController; onLost?: () => void },
): WriterLease {
  return WriterLease.acquire(db, {
    command: options.command,
    onLost: () => {
      options.onLost?.();
      options.logger.error("another process took over the database's writer lease; stopping");
      options.stop.abort();
    },
  });
}

/** A held connection, as runs write through it (remote-destination.ts serves the destination). */
export function heldDatabase(db: Db): HeldDatabase {
  return {
    where: db.path,
    reads: sqliteReader(db, { lent: true }),
    destinationForRun: (options) => new SqliteDestination(db, options),
  };
}

/** Opens the file (creating and migrating it when needed) and takes its writer lease. */
export function holdForRuns(path: string, options: RunHoldOptions): RunHold {
  const db = openDatabase(
    path,
    options.onUpgradeProgress ? { onUpgradeProgress: options.onUpgradeProgress } : {},
  );
  let lease: WriterLease;
  try {
    lease = acquireWriterLease(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    held: heldDatabase(db),
    release() {
      try {
        trimWal(db, options.logger);
        lease.release();
      } finally {
        db.close();
      }
    },
  };
}

/** Starts the WAL over once the runs are done. Only a reader of the file holding an old snapshot
 * (a BI tool's long query) keeps it from that, and then the file stays as large as the run made
 * it until a later run, which the user is told (the daemon tries again while idle by itself). */
function trimWal(db: Db, logger: Logger): void {
  let outcome: ReturnType<typeof checkpointAndTruncate>;
  try {
    outcome = checkpointAndTruncate(db.sqlite, db.path);
  } catch {
    // Whatever kept the checkpoint from the file, the run met it already and said so.
    return;
  }
  if (outcome.truncated || outcome.walBytes === 0) return;
  const mb = (outcome.walBytes / 1024 ** 2).toFixed(1);
  logger.warn(
    { walBytes: outcome.walBytes },
    `a reader of ${db.path} holds an old snapshot, so its -wal file stays at ${mb} MB: the next run (or the daemon, while idle) cuts it back once that reader is done`,
  );
}
