/**
 * A run: every selected stream of every configured location, recorded in `sync_runs`, with
 * windows read concurrently within the bounds of POS_CONCURRENCY and written through one
 * connection.
 */
import { setMaxListeners } from "node:events";
import pLimit from "p-limit";
import { PosApiClient } from "../api/client.js";
import { type AttemptEvent, HttpTransport, type TransportOptions } from "../api/transport.js";
import type { SyncDestination } from "../db/destination.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { keyFingerprint } from "../secrets.js";
import {
  CATALOG_LISTS,
  type CatalogListDescription,
  DAY_STREAM_DESCRIPTIONS,
  type DayStreamDescription,
} from "../streams/index.js";
import { type RunStatus, STREAMS } from "../vocabulary.js";
import type { SyncContext } from "./context.js";
import { syncOneLocation } from "./location.js";
import { locationsLeftNotice, syncInTurn } from "./location-turns.js";
import { PageNormalizer } from "./normalize-page.js";
import { LogProgress, type Progress } from "./progress.js";
import type { RunResult } from "./run-result.js";
import type { RunScope } from "./run-scope.js";
import { RunStats } from "./stats.js";

/** A run's scope, and what this thread runs it with. */
export interface SyncOptions {
  scope: RunScope;
  destination: SyncDestination;
  logger: Logger;
  /** The day streams and catalog lists to read (default: all of them): tests add their own. */
  dayStreams?: readonly DayStreamDescription[];
  catalogLists?: readonly CatalogListDescription[];
  now?: () => Date;
  /** Stops the run: no new work, the page in hand is committed, the run is recorded interrupted. */
  signal?: AbortSignal;
  progress?: Progress;
  /** Transport settings beyond the configuration (tests shorten retries and timeouts). */
  transport?: Partial<TransportOptions>;
  /** Told about every HTTP attempt: metrics hang here. */
  onAttempt?: (event: AttemptEvent) => void;
}

/** Windows read at once beyond one per request slot: about as many as pages the writing side
 * takes at a time, so that a window whose page waits to be written never leaves the connection
 * pool idle. Each window in progress holds a page in memory: twice the concurrency instead cost
 * 8 MB more at concurrency 16, for no speed. */
const WINDOWS_BESIDE_REQUESTS = 4;

function runStatus(stats: RunStats, fatal: unknown, interrupted: boolean): RunStatus {
  if (fatal !== undefined) return "failed";
  if (interrupted) return "interrupted";
  if (stats.locations.length > 0 && stats.locations.every((l) => l.error !== null)) return "failed";
  return stats.failures > 0 ? "partial" : "succeeded";
}

function firstError(stats: RunStats, fatal: unknown): string | null {
  if (fatal !== undefined) return fatal instanceof Error ? fatal.message : String(fatal);
  return stats.locations.find((l) => l.error !== null)?.error ?? null;
}

export async function runSync(options: SyncOptions): Promise<RunResult> {
  const { scope, destination, logger } = options;
  const { config } = scope;
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  await destination.closeAbandonedRuns(startedAt);
  const runId = await destination.startRun(scope.trigger, startedAt);
  const runLogger = logger.child({ runId });
  const stop = new AbortController();
  // Each request waiting for a slot or in flight (a location reads its catalog lists at once)
  // and each location waiting for its turn listens for the stop: more than node's default of 10
  // is expected, not a leak.
  setMaxListeners(
    (config.locations.length + 1) * 8 + config.concurrency + WINDOWS_BESIDE_REQUESTS,
    stop.signal,
  );
  const onAbort = () => stop.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();

  const transport = new HttpTransport({
    baseUrl: config.apiUrl,
    concurrency: config.concurrency,
    logger: runLogger,
    ...options.transport,
  });
  if (options.onAttempt) transport.onAttempt(options.onAttempt);
  const stats = new RunStats();
  const progress = options.progress ?? new LogProgress(runLogger);
  const context: SyncContext = {
    scope,
    destination,
    pages: new PageNormalizer(destination, transport.lane),
    stats,
    logger: runLogger,
    progress,
    runId,
    streams: new Set(scope.streams ?? STREAMS),
    dayStreams: options.dayStreams ?? DAY_STREAM_DESCRIPTIONS,
    catalogLists: options.catalogLists ?? CATALOG_LISTS,
    now,
    startedAt,
    signal: stop.signal,
    windowLimit: pLimit(config.concurrency + WINDOWS_BESIDE_REQUESTS),
  };
  runLogger.info(
    {
      trigger: scope.trigger,
      locations: config.locations.length,
      // Without days asked for, each location's own checkpoints say what is read: all of its
      // history the first time, the days after them since.
      range: scope.range ?? (scope.repairDays ? "repair" : "from checkpoints"),
    },
    "sync started",
  );

  // Workers sharing the destination each hold a few locations at a time, so that the others
  // find some free: as many as requests in flight, which one location's windows fill already.
  const locationSlots = pLimit(config.concurrency);
  let fatal: unknown;
  /** The worker that synced each location this run left to it. */
  const leftTo: string[] = [];
  try {
    await Promise.all(
      config.locations.map(async (location) => {
        const client = new PosApiClient(transport, {
          apiKey: location.apiKey,
          authScheme: config.authScheme,
          paths: config.paths,
          signal: stop.signal,
        });
        try {
          const sync = () => syncOneLocation(context, client, location);
          if (!destination.claims) await sync();
          else {
            const turn = {
              claims: destination.claims,
              fingerprint: keyFingerprint(location.apiKey),
              slots: locationSlots,
            };
            const turned = await syncInTurn(context, turn, sync);
            if (turned.outcome === "synced elsewhere") {
              leftTo.push(turned.by ?? "another worker");
              runLogger.info({ key: turn.fingerprint }, "another worker synced this location");
            }
          }
        } catch (error) {
          // Only a database failure gets here: every location stops.
          fatal ??= error;
          stop.abort();
        }
      }),
    );
  } finally {
    progress.stop();
    options.signal?.removeEventListener("abort", onAbort);
    await transport.close();
  }

  const interrupted = options.signal?.aborted === true;
  const result: RunResult = {
    runId,
    status: runStatus(stats, fatal, interrupted),
    stats,
    requests: transport.stats.requests,
    retries: transport.stats.retries,
    rateLimited: transport.stats.rateLimited,
    startedAt,
    finishedAt: now().toISOString(),
    error: firstError(stats, fatal),
    notices: locationsLeftNotice(leftTo, config.locations.length),
  };
  try {
    await destination.finishRun(runId, {
      status: result.status,
      finishedAt: result.finishedAt,
      // Retries and rate-limited answers are kept for the status page's list of runs.
      stats: {
        locations: stats.locations,
        retries: result.retries,
        rateLimited: result.rateLimited,
        ...(result.notices.length > 0 ? { notices: result.notices } : {}),
      },
      requests: result.requests,
      error: result.error,
    });
  } catch (error) {
    // The disk that failed the run may fail this write too; the run row then stays "running"
    // and the next run records it as interrupted. The run's last writes, committed with its
    // end, are lost with it: a run that looked complete has failed.
    runLogger.error({ error: messageOf(error) }, "could not record the end of the run");
    if (result.status !== "failed") {
      result.status = "failed";
      result.error = messageOf(error);
    }
  }
  runLogger.info(
    { status: result.status, requests: result.requests, failures: stats.failures },
    "sync finished",
  );
  return result;
}
