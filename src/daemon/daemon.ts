/**
 * The background service: syncs on a schedule and at start, holds the database's writer lease
 * for its whole life, serves health and metrics when asked to, and stops cleanly on a signal.
 */

import type { Config } from "../config.js";
import { databaseError } from "../db/errors.js";
import { SqliteDestination } from "../db/sqlite-destination.js";
import { checkpointAndTruncate } from "../db/wal.js";
import type { WriterLease } from "../db/writer-lease.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { collectStatus } from "../read-models/status.js";
import { acquireWriterLease, startRun } from "../runner/start-run.js";
import { DaemonConnection } from "./connection.js";
import { HealthTracker } from "./health.js";
import { startStatusServer } from "./http.js";
import { DaemonMetrics } from "./metrics.js";
import { Scheduler, type TickReason } from "./scheduler.js";

export interface DaemonOptions {
  config: Config;
  logger: Logger;
  /** Serve /healthz and /metrics on this port (0 picks one); none when undefined. */
  http?: { host: string; port: number };
  /** After the last success, how long failing runs still count as healthy. */
  healthMaxAgeMs: number;
  /** Aborted by SIGTERM or SIGINT: the daemon stops. */
  signal: AbortSignal;
  /** Told the address of the status server once it listens. */
  onListening?: (url: string) => void;
  /** How often a WAL truncation that a reader blocked is tried again (default 5 s). */
  walRetryMs?: number;
}

const WAL_RETRY_MS = 5_000;

export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { config, logger, signal } = options;
  let leaseLost = false;
  const stop = new AbortController();
  signal.addEventListener("abort", () => stop.abort(), { once: true });
  const connection = new DaemonConnection(config.dbPath);
  let lease: WriterLease;
  try {
    lease = acquireWriterLease(connection.current, {
      command: "daemon",
      logger,
      stop,
      onLost: () => {
        leaseLost = true;
      },
    });
  } catch (error) {
    connection.close();
    throw error;
  }
  connection.attach(lease);
  const wal = new WalTrimmer(connection, logger, options.walRetryMs ?? WAL_RETRY_MS);
  const metrics = new DaemonMetrics();
  const health = new HealthTracker(options.healthMaxAgeMs);
  let server: Awaited<ReturnType<typeof startStatusServer>> | undefined;
  try {
    server = options.http ? await startStatusServer(options.http, health, metrics) : undefined;
  } catch (error) {
    // A port in use: nothing ran, and the next daemon must find the database free.
    lease.release();
    connection.close();
    throw error;
  }
  if (server) {
    logger.info({ url: server.url }, "serving /healthz and /metrics");
    options.onListening?.(server.url);
  }

  const runOnce = async (reason: TickReason) => {
    metrics.runStarted();
    health.runStarted();
    wal.pause();
    reopenIfReplaced(connection, logger);
    try {
      const result = await startRun({
        config,
        db: connection.current,
        trigger: "daemon",
        logLevel: config.logLevel,
        logTo: "stdout",
        onAttempt: (event) => metrics.onAttempt(event),
        signal: stop.signal,
      });
      if (result.status === "failed") reopenAfterFailure(connection, logger);
      metrics.runFinished(result, await collectStatus(new SqliteDestination(connection.current)));
      health.runFinished(result.status, result.error);
      logger[result.status === "succeeded" ? "info" : "warn"](
        {
          runId: result.runId,
          reason,
          status: result.status,
          requests: result.requests,
          ...(result.error ? { error: result.error } : {}),
        },
        "run finished",
      );
    } catch (error) {
      // The run could not even be recorded (a failing disk): try again at the next tick.
      const message = messageOf(error);
      health.runFinished("failed", message);
      logger.error({ reason }, `run failed: ${message}`);
      reopenAfterFailure(connection, logger);
    } finally {
      wal.trim();
    }
  };

  const scheduler = new Scheduler(config.schedule, runOnce, logger);
  logger.info(
    { schedule: config.schedule, locations: config.locations.length, database: config.dbPath },
    "daemon started",
  );
  scheduler.start();
  await new Promise<void>((resolve) => {
    if (stop.signal.aborted) resolve();
    else stop.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  logger.info("daemon stopping: finishing the page in hand");
  await scheduler.stop();
  wal.pause();
  await server?.close();
  lease.release();
  try {
    connection.close();
  } catch (error) {
    logger.warn({ error: String(error) }, "could not close the database cleanly");
  }
  logger.info({ skippedTicks: scheduler.skippedTicks }, "daemon stopped");
  return leaseLost ? 1 : 0;
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
 * few seconds while the daemon is idle, until it succeeds (see db/wal.ts).
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
