/** One sync of everything a simulator serves into a SQLite file, at noon of the simulator's
 * today, quietly: what the benchmarks that need a synced chain start from. */
import { type Config, loadConfig } from "../src/config/config.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { createLogger } from "../src/log.js";
import type { Simulator } from "../src/simulator/server.js";
import { runSync } from "../src/sync/run.js";
import type { RunResult } from "../src/sync/run-result.js";

/** The configuration that reads every location of a simulator into `path`. */
export function simulatorConfig(simulator: Simulator, path: string): Config {
  return loadConfig({
    env: {
      POS_API_URL: simulator.url,
      POS_API_KEYS: simulator.keys.join(","),
      POS_DB_PATH: path,
      POS_CONCURRENCY: "8",
    },
    needsApi: true,
  });
}

export async function syncSimulator(
  simulator: Simulator,
  path: string,
  options: { keepHistory?: boolean } = {},
): Promise<RunResult> {
  const config = simulatorConfig(simulator, path);
  const destination = SqliteDestination.open(path, {
    keepRaw: true,
    keepHistory: options.keepHistory ?? true,
  });
  try {
    const result = await runSync({
      scope: { config, trigger: "cli" },
      destination,
      logger: createLogger({ level: "silent" }),
      // The simulator's today, as every location sees it.
      now: () => new Date(`${simulator.dataset.today}T12:00:00.000Z`),
    });
    if (result.status !== "succeeded") throw new Error(`a sync ended ${result.status}`);
    return result;
  } finally {
    await destination.close();
  }
}
