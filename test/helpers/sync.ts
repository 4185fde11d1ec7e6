/** Running the sync engine in-process against a test simulator, with its clock on the
 * simulator's today. */
import { type Config, loadConfig } from "../../src/config/config.js";
import type { SyncDestination } from "../../src/db/destination.js";
import { SqliteDestination } from "../../src/db/sqlite/destination.js";
import type { Db } from "../../src/db/sqlite/open.js";
import type { Simulator } from "../../src/simulator/server.js";
import { runSync, type SyncOptions } from "../../src/sync/run.js";
import type { RunResult } from "../../src/sync/run-result.js";
import type { RunScope } from "../../src/sync/run-scope.js";
import { FAST_RETRY } from "./client.js";
import { type CapturedLogger, captureLogs } from "./logs.js";

export function simulatorConfig(simulator: Simulator, overrides: Partial<Config> = {}): Config {
  const config = loadConfig({
    env: {
      POS_API_URL: simulator.url,
      POS_API_KEYS: simulator.keys.join(","),
      POS_DB_PATH: ":unused:",
    },
    needsApi: true,
  });
  return { ...config, ...overrides };
}

/** Noon UTC on the simulator's today: every location's today is that day. */
export function simulatorNow(simulator: Simulator): () => Date {
  return () => new Date(`${simulator.dataset.today}T12:00:00.000Z`);
}

export interface TestRun {
  result: RunResult;
  logs: CapturedLogger;
}

/** A run's scope and surroundings, in one object: what a test says of its run. */
export type TestSyncOptions = Partial<Omit<SyncOptions, "scope">> &
  Partial<Omit<RunScope, "config">> & { configOverrides?: Partial<Config> };

export function syncOnce(
  simulator: Simulator,
  db: Db,
  options: TestSyncOptions = {},
): Promise<TestRun> {
  const keepRaw = options.configOverrides?.keepRaw ?? true;
  const keepHistory = options.configOverrides?.keepHistory ?? true;
  return syncInto(simulator, new SqliteDestination(db, { keepRaw, keepHistory }), options);
}

/** One run into a destination of any kind (the caller closes it). */
export async function syncInto(
  simulator: Simulator,
  destination: SyncDestination,
  options: TestSyncOptions = {},
): Promise<TestRun> {
  const logs = captureLogs("debug");
  const { configOverrides, trigger, streams, range, repairDays, audit, acceptDeletions, ...rest } =
    options;
  const scope: RunScope = {
    config: simulatorConfig(simulator, configOverrides),
    trigger: trigger ?? "cli",
    ...(streams ? { streams } : {}),
    ...(range ? { range } : {}),
    ...(repairDays ? { repairDays } : {}),
    ...(audit ? { audit } : {}),
    ...(acceptDeletions ? { acceptDeletions } : {}),
  };
  const result = await runSync({
    scope,
    destination,
    logger: logs.logger,
    now: simulatorNow(simulator),
    transport: {
      retry: FAST_RETRY,
      timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 },
    },
    ...rest,
  });
  return { result, logs };
}

/** One run into each destination, opened for it and closed after; a run that does not succeed
 * fails the caller. */
export async function syncEach(
  simulator: Simulator,
  targets: readonly { open(): Promise<SyncDestination> }[],
): Promise<void> {
  for (const target of targets) {
    const destination = await target.open();
    try {
      const { result } = await syncInto(simulator, destination);
      if (result.status !== "succeeded")
        throw new Error(`the sync into ${destination.where} ended ${result.status}`);
    } finally {
      await destination.close();
    }
  }
}
