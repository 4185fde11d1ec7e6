/**
 * The background service: syncs on a schedule and at start, holds its database for its whole life
 * (storage.ts: SQLite's writer lease, or PostgreSQL's reader beside other daemons), sends the
 * morning report and the health alerts (notifier.ts), serves health and metrics when asked to, and
 * stops cleanly on a signal.
 */

import { RUNS_DECIDED_ON } from "../alerts/sync-failing.js";
import type { Config } from "../config/config.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { collectStatus } from "../read-models/status.js";
import { startRun } from "../runner/start-run.js";
import type { RunResult } from "../sync/run-result.js";
import { HealthTracker } from "./health.js";
import { startStatusServer } from "./http.js";
import { DaemonMetrics } from "./metrics.js";
import { Notifier } from "./notifier.js";
import { pageClosed } from "./page-access.js";
import { Scheduler, type TickReason } from "./scheduler.js";
import { StatusPageSource } from "./status-page-source.js";
import { type DaemonStorage, openDaemonStorage } from "./storage.js";

export interface DaemonOptions {
  config: Config;
  logger: Logger;
  /** Serve the status page, /healthz and /metrics on this port (0 picks one); none when
   * undefined. */
  http?: { host: string; port: number };
  /** Aborted by SIGTERM or SIGINT: the daemon stops. */
  signal: AbortSignal;
  /** Told the address of the status server once it listens. */
  onListening?: (url: string) => void;
  /** How often a WAL truncation that a reader blocked is tried again (default 5 s). */
  walRetryMs?: number;
  /** The share of the waits the daemon waits: the outbox's retries, how often it looks, and
   * its runs' back-off (clock/waits.ts). */
  waitScale: number;
}

const WAL_RETRY_MS = 5_000;

/** How often the notifier looks for a report due and messages to send again, between runs. */
const NOTIFIER_EVERY_MS = 60_000;

/**
 * Health starts from the database's runs, not from nothing: a daemon restarted while one key of
 * several fails would otherwise call itself starting afresh, and one restarted while every run
 * fails would forget the streak the alert counts.
 */
async function recallRuns(
  storage: DaemonStorage,
  health: HealthTracker,
  logger: Logger,
): Promise<void> {
  try {
    const reader = storage.readable();
    const [runs, lastSuccessAt] = await Promise.all([
      reader.messages.recentRunOutcomes(RUNS_DECIDED_ON),
      reader.checkpoints.lastSuccessAt(),
    ]);
    health.recall(runs, lastSuccessAt);
  } catch (error) {
    // The first run reads the database too, and says more if it cannot.
    logger.warn({ error: messageOf(error) }, "could not read the runs recorded before");
  }
}

/** Said once, at start: a page refused by every request would otherwise look like a fault. */
function warnIfPageClosed(host: string, token: string | undefined, logger: Logger): void {
  if (!pageClosed(host, token)) return;
  logger.warn(
    { host },
    `the status page at / answers 403 on ${host} without POS_HTTP_TOKEN: set it to serve the page beyond this machine; /healthz and /metrics are served`,
  );
}

export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { config, logger, signal } = options;
  const stop = new AbortController();
  signal.addEventListener("abort", () => stop.abort(), { once: true });
  // A SQLite file is the daemon's to hold, with its writer lease, for the runs it serves their
  // writes to; the runs write PostgreSQL themselves (db/database.ts).
  const storage: DaemonStorage = await openDaemonStorage(config, {
    logger,
    stop,
    walRetryMs: options.walRetryMs ?? WAL_RETRY_MS,
  });
  const metrics = new DaemonMetrics();
  const health = new HealthTracker();
  await recallRuns(storage, health, logger);
  let server: Awaited<ReturnType<typeof startStatusServer>> | undefined;
  try {
    const page = new StatusPageSource(storage, config.schedule);
    server = options.http
      ? await startStatusServer(
          { ...options.http, token: config.httpToken },
          { health, metrics, page, logger },
        )
      : undefined;
  } catch (error) {
    // A port in use: nothing ran, and the next daemon must find the database free.
    await storage.close();
    throw error;
  }
  if (server && options.http) {
    logger.info(
      { url: server.url, tokenRequired: config.httpToken !== undefined },
      "serving the status page at /, /healthz and /metrics",
    );
    warnIfPageClosed(options.http.host, config.httpToken, logger);
    options.onListening?.(server.url);
  }

  const { waitScale } = options;
  const notifier = new Notifier({
    config,
    storage,
    logger,
    metrics,
    waitScale,
    signal: stop.signal,
  });

  const runOnce = async (reason: TickReason) => {
    let finished: RunResult | undefined;
    metrics.runStarted();
    health.runStarted();
    const { held } = storage.beforeRun();
    try {
      const result = await startRun({
        scope: {
          config,
          trigger: "daemon",
          ...(config.auditPeriodDays > 0
            ? { audit: { periodDays: config.auditPeriodDays, requests: config.auditRequests } }
            : {}),
        },
        ...(held ? { held } : {}),
        logLevel: config.logLevel,
        logTo: "stdout",
        waitScale,
        onAttempt: (event) => metrics.onAttempt(event),
        signal: stop.signal,
      });
      finished = result;
      storage.afterRun(result.status === "failed");
      metrics.runFinished(result, await collectStatus(storage.readable()));
      health.runFinished(result.status, result.error);
      logger[result.status === "succeeded" ? "info" : "warn"](
        {
          runId: result.runId,
          reason,
          status: result.status,
          requests: result.requests,
          ...(result.stats.audit() ? { audit: result.stats.audit() } : {}),
          ...(result.error ? { error: result.error } : {}),
        },
        "run finished",
      );
    } catch (error) {
      // The run could not even be recorded (a failing disk): try again at the next tick.
      const message = messageOf(error);
      health.runFinished("failed", message);
      logger.error({ reason }, `run failed: ${message}`);
      storage.afterRun(true);
    }
    try {
      await notifier.afterRun(finished);
    } finally {
      storage.idle();
    }
  };

  const scheduler = new Scheduler(config.schedule, runOnce, logger);
  logger.info(
    { schedule: config.schedule, locations: config.locations.length, database: storage.name },
    "daemon started",
  );
  scheduler.start();
  const notifierTimer = setInterval(
    () => scheduler.errand(() => notifier.check()),
    Math.max(100, NOTIFIER_EVERY_MS * waitScale),
  );
  await new Promise<void>((resolve) => {
    if (stop.signal.aborted) resolve();
    else stop.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  logger.info("daemon stopping: finishing the page in hand");
  clearInterval(notifierTimer);
  await scheduler.stop();
  await server?.close();
  await storage.close();
  logger.info({ skippedTicks: scheduler.skippedTicks }, "daemon stopped");
  return storage.lost ? 1 : 0;
}
