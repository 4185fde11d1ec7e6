/**
 * Benchmark 5: resident memory of `pos-sync sync` over a long backfill (at least a million
 * orders, no latency): it must stay flat as history grows. The simulator runs in another process.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { runSyncProcess, startSimulatorProcess } from "./e2e.js";
import { dec, int, log, mb } from "./lib.js";

export interface MemoryResult {
  orders: number;
  days: number;
  seconds: number;
  ordersPerSecond: number;
  rssAt: { p10: number; p50: number; p100: number };
  peakRss: number;
}

/** The resident memory once this share of the run's time had passed. */
function rssAt(samples: { elapsed: number; rss: number }[], share: number): number {
  // The last sample, taken as the process exits, reads 0.
  const running = samples.filter((s) => s.rss > 0);
  const end = running.at(-1)?.elapsed ?? 0;
  return running.find((s) => s.elapsed >= share * end)?.rss ?? running.at(-1)?.rss ?? 0;
}

export async function benchMemory(options: { orders: number; dir: string }): Promise<MemoryResult> {
  const perDay = 2_500;
  const days = Math.ceil(options.orders / perDay) + 1;
  log(
    `5. memory: syncing about ${int(days * perDay)} orders (${days} days of ${int(perDay)}), no latency…`,
  );
  const simulator = await startSimulatorProcess([
    "--seed",
    "11",
    "--days",
    String(days),
    "--orders-per-day",
    `${perDay}-${perDay}`,
  ]);
  const dbPath = join(options.dir, "memory.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  try {
    const run = await runSyncProcess({
      POS_API_URL: simulator.url,
      POS_API_KEY: simulator.key,
      POS_DB_PATH: dbPath,
    });
    if (run.exitCode !== 0) throw new Error(`sync exited ${run.exitCode}:\n${run.summary}`);
    const orders = Number(
      /orders\s+\d+\/\d+\s+([\d,]+)/.exec(run.summary)?.[1]?.replaceAll(",", "") ?? 0,
    );
    const result: MemoryResult = {
      orders,
      days,
      seconds: run.seconds,
      ordersPerSecond: orders / run.seconds,
      rssAt: {
        p10: rssAt(run.samples, 0.1),
        p50: rssAt(run.samples, 0.5),
        p100: rssAt(run.samples, 1),
      },
      peakRss: run.peakRss,
    };
    log(
      `   ${int(orders)} orders in ${dec(result.seconds)} s (${int(result.ordersPerSecond)} orders/s)`,
    );
    log(
      `   RSS at 10 %: ${mb(result.rssAt.p10)}, 50 %: ${mb(result.rssAt.p50)}, 100 %: ${mb(result.rssAt.p100)}; peak ${mb(result.peakRss)} (target < 200 MB, flat)`,
    );
    return result;
  } finally {
    await simulator.stop();
  }
}
