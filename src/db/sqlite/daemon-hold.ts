/**
 * The daemon's hold on a SQLite database: its own connection, open for its whole life, with the
 * writer lease that keeps other writers out, opened afresh when its files were replaced or a run
 * failed (daemon-connection.ts), and the WAL truncated while idle. The status page is read on a
 * thread of its own, through a read-only connection of that thread's (capabilities).
 */
import { messageOf } from "../../errors.js";
import type { Logger } from "../../log.js";
import type { DaemonHold, DaemonHoldOptions } from "../database.js";
import { AlertStore } from "../deliveries/alerts.js";
import { DeliveryStore } from "../deliveries/deliveries.js";
import { DaemonConnection } from "./daemon-connection.js";
import { databaseError } from "./errors.js";
import { sqliteReader, sqliteSession } from "./reader.js";
import { acquireWriterLease, heldDatabase } from "./run-hold.js";
import { checkpointAndTruncate } from "./wal.js";
import type { WriterLease } from "./writer-lease.js";

export class SqliteDaemonHold implements DaemonHold {
  readonly name: string;
  private leaseLost = false;

  private constructor(
    private readonly connection: DaemonConnection,
    private readonly lease: WriterLease,
    private readonly wal: WalTrimmer,
    private readonly logger: Logger,
  ) {
    this.name = connection.path;
  }

  /** Opens the file and takes its writer lease; losing the lease later aborts `stop`. */
  static open(path: string, { logger, stop, walRetryMs }: DaemonHoldOptions): SqliteDaemonHold {
    const connection = new DaemonConnection(path);
    let storage: SqliteDaemonHold | undefined;
    let lease: WriterLease;
    try {
      lease = acquireWriterLease(connection.current, {
        command: "daemon",
        logger,
        stop,
        onLost: () => {
          if (storage) storage.leaseLost = true;
        },
      });
    } catch (error) {
      connection.close();
      throw error;
    }
    connection.attach(lease);
    storage = new SqliteDaemonHold(
      connection,
      lease,
      new WalTrimmer(connection, logger, walRetryMs),
      logger,
    );
    return storage;
  }

  get lost(): boolean {
    return this.leaseLost;
  }

  beforeRun() {
    this.wal.pause();
    reopenIfReplaced(this.connection, this.logger);
    return { held: heldDatabase(this.connection.current) };
  }

  afterRun(failed: boolean): void {
    if (failed) reopenAfterFailure(this.connection, this.logger);
  }

  readable() {
    return sqliteReader(this.connection.current, { lent: true });
  }

  /** On the daemon's own connection: the runs' writes, served on this thread too, are done by
   * then (the notifier works between runs). */
  messages() {
    const session = sqliteSession(this.connection.current.sqlite);
    return { deliveries: new DeliveryStore(session), alerts: new AlertStore(session) };
  }

  idle(): void {
    this.wal.trim();
  }

  async close(): Promise<void> {
    this.wal.pause();
    this.lease.release();
    try {
      this.connection.close();
    } catch (error) {
      this.logger.warn({ error: String(error) }, "could not close the database cleanly");
    }
  }
}

/** Before a run: a database whose files were deleted or replaced is opened afresh. */
function reopenIfReplaced(connection: DaemonConnection, logger: Logger): void {
  if (!connection.filesChanged()) return;
  logger.warn(
    { database: connection.path },
    "the database's files changed under the daemon; opening it again",
  );
  reopenAfterFailure(connection, logger);
}

/** After a run that failed: the next one starts from a fresh connection. */
function reopenAfterFailure(connection: DaemonConnection, logger: Logger): void {
  try {
    connection.reopen();
  } catch (error) {
    // Still failing (a full disk, a missing directory): the next run tries again.
    logger.error(
      { database: connection.path },
      `could not open the database again: ${messageOf(error)}`,
    );
  }
}

/**
 * Truncates the WAL after each run; when a reader's old snapshot blocks that, tries again every
 * few seconds while the daemon is idle, until it succeeds (see wal.ts).
 */
class WalTrimmer {
  private retry: NodeJS.Timeout | undefined;
  private reportedBlocked = false;

  constructor(
    private readonly connection: DaemonConnection,
    private readonly logger: Logger,
    private readonly retryMs: number,
  ) {}

  trim(): void {
    this.pause();
    let outcome: ReturnType<typeof checkpointAndTruncate>;
    try {
      outcome = checkpointAndTruncate(this.connection.current.sqlite, this.connection.path);
    } catch (error) {
      const { message } = databaseError(error, this.connection.path, "checkpoint");
      this.logger.warn({ error: message }, "could not checkpoint the WAL");
      return;
    }
    if (outcome.truncated) {
      if (this.reportedBlocked)
        this.logger.info("the WAL is truncated: the reader that held it back is done");
      this.reportedBlocked = false;
      return;
    }
    if (!this.reportedBlocked) {
      this.logger.warn(
        { walBytes: outcome.walBytes },
        "a reader holds an old snapshot, so the WAL cannot be truncated yet; trying again while idle",
      );
      this.reportedBlocked = true;
    }
    this.retry = setTimeout(() => this.trim(), this.retryMs);
    this.retry.unref();
  }

  /** No truncation while a run writes (its own checkpoints take care of the log). */
  pause(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
  }
}
