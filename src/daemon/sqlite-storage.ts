/**
 * The daemon's hold on a SQLite database: its own connection, open for its whole life, with the
 * writer lease that keeps other writers out, opened afresh when its files were replaced or a run
 * failed (connection.ts), and the WAL truncated while idle.
 */
import type { Config } from "../config/config.js";
import { AlertStore } from "../db/deliveries/alerts.js";
import { DeliveryStore } from "../db/deliveries/deliveries.js";
import { databaseError } from "../db/sqlite/errors.js";
import { sqliteReader, sqliteSession } from "../db/sqlite/reader.js";
import { checkpointAndTruncate } from "../db/sqlite/wal.js";
import type { WriterLease } from "../db/sqlite/writer-lease.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { acquireWriterLease } from "../runner/start-run.js";
import { DaemonConnection } from "./connection.js";
import { renderStatusPageInThread } from "./status-page-thread.js";
import type { DaemonStorage, PageRequest } from "./storage.js";

export class SqliteDaemonStorage implements DaemonStorage {
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
  static open(
    config: Config,
    logger: Logger,
    stop: AbortController,
    walRetryMs: number,
  ): SqliteDaemonStorage {
    const connection = new DaemonConnection(config.dbPath);
    let storage: SqliteDaemonStorage | undefined;
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
    storage = new SqliteDaemonStorage(
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
    return { db: this.connection.current };
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

  renderStatusPage(request: PageRequest): Promise<string> {
    return renderStatusPageInThread({
      dbPath: this.connection.path,
      schedule: request.schedule,
      now: request.now.toISOString(),
      refreshSeconds: request.refreshSeconds,
    });
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
 * few seconds while the daemon is idle, until it succeeds (see db/sqlite/wal.ts).
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
