/**
 * A database with what the status page is for: a backfill that met rate limits and server errors
 * on the way, one day of one location left incomplete (the API counted a record it never
 * listed), and a run that failed (a rejected key). Real syncs against the simulator; the test or
 * script gives the destination.
 */
import { addDays } from "../../src/clock/days.js";
import type { SyncDestination } from "../../src/db/destination.js";
import { SqliteDestination } from "../../src/db/sqlite/destination.js";
import type { Simulator } from "../../src/simulator/server.js";
import { ORDERS } from "../../src/streams/index.js";
import { simulatorEnv } from "./cli.js";
import { startDaemon } from "./daemon.js";
import { syncInto, type TestSyncOptions } from "./sync.js";
import { until } from "./wait.js";

export interface TroubledSync {
  /** The location (by its key) with the incomplete day. */
  locationKey: string;
  incompleteDay: string;
  /** The failed run's error, as recorded. */
  failedError: string;
}

/** Rate-limited answers and server errors met by the backfill (all retried). */
export const BACKFILL_RATE_LIMITS = 2;
export const BACKFILL_SERVER_ERRORS = 1;

/** The backfill, with answers that made it wait and retry. */
export async function backfillWithRetries(
  simulator: Simulator,
  destination: SyncDestination,
  options: TestSyncOptions = {},
): Promise<void> {
  simulator.faults.inject(
    ...Array.from({ length: BACKFILL_RATE_LIMITS }, () => ({
      kind: "status" as const,
      status: 429,
      retryAfter: "0",
    })),
    ...Array.from({ length: BACKFILL_SERVER_ERRORS }, () => ({
      kind: "status" as const,
      status: 503,
    })),
  );
  const { result } = await syncInto(simulator, destination, options);
  if (result.status !== "succeeded") throw new Error(`the backfill ${result.status}`);
}

/** One day of the first location read while the API counts a record more than it lists. */
export async function leaveDayIncomplete(
  simulator: Simulator,
  destination: SyncDestination,
  day: string,
  options: TestSyncOptions = {},
): Promise<string> {
  const locationKey = simulator.keys[0] as string;
  simulator.faults.set({ totalCountSkew: 1 });
  try {
    await syncInto(simulator, destination, {
      ...options,
      range: { since: day, until: day },
      dayStreams: [ORDERS],
      configOverrides: { locations: [{ apiKey: locationKey }] },
    });
  } finally {
    simulator.faults.reset();
  }
  return locationKey;
}

/** A run whose only key the API rejects: it fails, and says why. */
export async function failWithRejectedKey(
  simulator: Simulator,
  destination: SyncDestination,
  options: TestSyncOptions = {},
): Promise<string> {
  const { result } = await syncInto(simulator, destination, {
    ...options,
    configOverrides: { locations: [{ apiKey: "a-key-nobody-issued" }] },
  });
  if (result.status !== "failed" || !result.error) throw new Error("the run did not fail");
  return result.error;
}

/** A run in which the API refuses the key of a location already stored (as when the key is
 * revoked): the location's card, not a card of its own, must say so. */
export async function rejectStoredKey(
  simulator: Simulator,
  destination: SyncDestination,
  options: TestSyncOptions = {},
): Promise<{ locationKey: string; error: string }> {
  const locationKey = simulator.keys[0] as string;
  // The run's first request, the location's own record, is refused as a revoked key would be.
  simulator.faults.inject({ kind: "status", status: 401 });
  const { result } = await syncInto(simulator, destination, {
    ...options,
    configOverrides: { locations: [{ apiKey: locationKey }] },
  });
  if (result.status !== "failed" || !result.error) throw new Error("the run did not fail");
  return { locationKey, error: result.error };
}

/** The three, in order; the incomplete day is ten days back (beyond any lookback). */
export async function syncWithTrouble(
  simulator: Simulator,
  destination: SyncDestination,
  options: TestSyncOptions = {},
): Promise<TroubledSync> {
  await backfillWithRetries(simulator, destination, options);
  const incompleteDay = addDays(simulator.dataset.today, -10);
  const locationKey = await leaveDayIncomplete(simulator, destination, incompleteDay, options);
  const failedError = await failWithRejectedKey(simulator, destination, options);
  return { locationKey, incompleteDay, failedError };
}

/** Where a daemon in trouble serves its page, and the trouble it shows. */
export interface TroubledDaemon {
  url: string;
  incompleteDay: string;
  locationKey: string;
  stop(): Promise<void>;
}

/**
 * A database synced with retries and one incomplete day, and a daemon on it whose key the API
 * rejects: its run at start fails, and leaves the incomplete day as it is.
 */
export interface TroubledDaemonOptions {
  /** More of the daemon's environment (POS_HTTP_TOKEN, say). */
  env?: Record<string, string>;
  /** For the syncs before the daemon (a clock, say). */
  syncOptions?: TestSyncOptions;
  /** The daemon's schedule; by default one that never comes round during a test. */
  schedule?: string;
}

export async function startTroubledDaemon(
  simulator: Simulator,
  dbPath: string,
  options: TroubledDaemonOptions = {},
): Promise<TroubledDaemon> {
  const syncOptions = options.syncOptions ?? {};
  const destination = SqliteDestination.open(dbPath);
  let locationKey: string;
  const incompleteDay = addDays(simulator.dataset.today, -10);
  try {
    await backfillWithRetries(simulator, destination, syncOptions);
    locationKey = await leaveDayIncomplete(simulator, destination, incompleteDay, syncOptions);
  } finally {
    await destination.close();
  }
  const daemon = await startDaemon(["--schedule", options.schedule ?? "0 0 1 1 *"], {
    ...simulatorEnv(simulator, dbPath, options.env),
    POS_API_KEYS: "a-key-nobody-issued",
  });
  await until(() => /"msg":"run (finished|failed)/.test(daemon.output()), "the run to end");
  return {
    url: daemon.url,
    incompleteDay,
    locationKey,
    stop: async () => {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    },
  };
}
