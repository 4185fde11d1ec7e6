/**
 * The background service: syncs on a schedule and at start, holds the database's writer lease
 * for its whole life, serves health and metrics when asked to, and stops cleanly on a signal.
 */
import type { Config } from "../config.js";
import type { Db } from "../db/open.js";
import { WriterLease } from "../db/writer-lease.js";
import type { Logger } from "../log.js";
import { collectStatus } from "../sync/status.js";
import { runSyncInWorker } from "../sync/worker-runner.js";
import { HealthTracker } from "./health.js";
import { startStatusServer } from "./http.js";
import { DaemonMetrics } from "./metrics.js";
import { Scheduler, type TickReason } from "./scheduler.js";

export interface DaemonOptions {
  config: Config;
  db: Db;
  logger: Logger;
  schedule: string;
  /** Serve /healthz and /metrics on this port (0 picks one); none when undefined. */
  http?: { host: string; port: number };
  /** After the last success, how long failing runs still count as healthy. */
  healthMaxAgeMs: number;
  /** Aborted by SIGTERM or SIGINT: the daemon stops. */
  signal: AbortSignal;
  /** Told the address of the status server once it listens. */
  onListening?: (url: string) => void;
}

export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { config, db, logger, signal } = options;
  let leaseLost = false;
  const stop = new AbortController();
  signal.addEventListener("abort", () => stop.abort(), { once: true });
  const lease = WriterLease.acquire(db, {
    command: "daemon",
    onLost: () => {
      leaseLost = true;
      logger.error("another process took over the database's writer lease; stopping");
      stop.abort();
    },
  });
  const metrics = new DaemonMetrics();
  const health = new HealthTracker(options.healthMaxAgeMs);
  const server = options.http ? await startStatusServer(options.http, health, metrics) : undefined;
  if (server) {
    logger.info({ url: server.url }, "serving /healthz and /metrics");
    options.onListening?.(server.url);
  }

  const runOnce = async (reason: TickReason) => {
    metrics.runStarted();
    health.runStarted();
    try {
      const result = await runSyncInWorker({
        input: {
          config,
          trigger: "daemon",
          logLevel: config.logLevel,
          logFd: 1,
          progress: "log",
          reportAttempts: true,
        },
        heapMb: config.memoryMb,
        signal: stop.signal,
        onAttempt: (event) => metrics.onAttempt(event),
      });
      metrics.runFinished(result, collectStatus(db));
      health.runFinished(result.status, result.error);
      logger.info(
        { runId: result.runId, reason, status: result.status, requests: result.requests },
        "run finished",
      );
    } catch (error) {
      // The run could not even be recorded (a failing disk): try again at the next tick.
      const message = error instanceof Error ? error.message : String(error);
      health.runFinished("failed", message);
      logger.error({ reason, err: error }, `run failed: ${message}`);
    }
  };

  const scheduler = new Scheduler(options.schedule, runOnce, logger);
  logger.info(
    { schedule: options.schedule, locations: config.locations.length, database: db.path },
    "daemon started",
  );
  scheduler.start();
  await new Promise<void>((resolve) => {
    if (stop.signal.aborted) resolve();
    else stop.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  logger.info("daemon stopping: finishing the page in hand");
  await scheduler.stop();
  await server?.close();
  lease.release();
  logger.info({ skippedTicks: scheduler.skippedTicks }, "daemon stopped");
  return leaseLost ? 1 : 0;
}
