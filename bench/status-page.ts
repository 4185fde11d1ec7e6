/**
 * Benchmark 8: what the status page costs a daemon. A chain is synced into SQLite, then its page
 * is read and rendered the two ways: on the calling thread (as the PostgreSQL daemon does, whose
 * queries wait off the thread, and as `status --html` does), and in a worker thread (as the
 * SQLite daemon does). Figures: the time to a page, its size, and the longest stall of the main
 * thread's event loop meanwhile: the time a run's writes, which land on that thread, would wait.
 */
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { openDatabase } from "../src/db/sqlite/open.js";
import { sqliteReader } from "../src/db/sqlite/reader.js";
import { collectStatusPage } from "../src/read-models/status-page.js";
import { startSimulator } from "../src/simulator/server.js";
import { renderStatusPage } from "../src/ui/status-page/page.js";
import { dec, int, log } from "./lib.js";
import { syncSimulator } from "./simulator-sync.js";

const SCHEDULE = "*/15 * * * *";
const ROUNDS = 3;

export interface StatusPageResult {
  locations: number;
  days: number;
  orders: number;
  pageBytes: number;
  /** As the daemon sends it to a browser that accepts gzip. */
  gzippedBytes: number;
  inThreadMs: number;
  inThreadStallMs: number;
  inWorkerMs: number;
  inWorkerStallMs: number;
}

async function syncChain(path: string, locations: number, days: number): Promise<number> {
  const simulator = await startSimulator({ seed: 8, locations, days, today: "2026-11-22" });
  try {
    const result = await syncSimulator(simulator, path);
    return result.stats.locations.reduce(
      (sum, location) => sum + (location.streams.orders?.inserted ?? 0),
      0,
    );
  } finally {
    await simulator.close();
  }
}

/**
 * The longest the main thread went without turning its event loop while `work` ran: a timer
 * every millisecond notes the gaps between its ticks (a run's writes would have waited as long).
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const at = performance.now();
    longest = Math.max(longest, at - last);
    last = at;
  }, 1);
  try {
    const value = await work();
    // One more turn of the loop, so that a stall at the very end is counted too.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { value, stallMs: longest };
  } finally {
    clearInterval(ticker);
  }
}

/** The median time of `render`, and the main thread's longest stall over all rounds. */
async function measure(
  render: () => Promise<string>,
): Promise<{ ms: number; stallMs: number; bytes: number; gzippedBytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  let gzippedBytes = 0;
  let stallMs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const { value, stallMs: stall } = await longestStall(render);
    times.push(performance.now() - started);
    bytes = Buffer.byteLength(value);
    gzippedBytes = gzipSync(value).length;
    stallMs = Math.max(stallMs, stall);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(ROUNDS / 2)] ?? 0, stallMs, bytes, gzippedBytes };
}

export async function benchStatusPage(options: {
  locations: number;
  days: number;
  dir: string;
}): Promise<StatusPageResult> {
  const { locations, days, dir } = options;
  log(
    `8. status page: ${locations} locations × ${days} days synced, then its page read ${ROUNDS} times each way…`,
  );
  const path = join(dir, "status-page.sqlite");
  const orders = await syncChain(path, locations, days);
  const now = new Date("2026-11-22T18:00:00.000Z");
  const inThread = await measure(async () => {
    const destination = sqliteReader(openDatabase(path, { readonly: true }));
    try {
      const page = await collectStatusPage(destination, { schedule: SCHEDULE, now });
      return renderStatusPage(page, { refreshSeconds: 60 });
    } finally {
      await destination.close();
    }
  });
  // The worker runs compiled code (`npm run bench` builds first), as the daemon does.
  const { renderStatusPageInThread } = (await import(
    "../dist/daemon/status-page-thread.js" as string
  )) as typeof import("../src/daemon/status-page-thread.js");
  const inWorker = await measure(() =>
    renderStatusPageInThread({
      database: { dbPath: path, postgres: undefined },
      schedule: SCHEDULE,
      now: now.toISOString(),
      refreshSeconds: 60,
    }),
  );
  const result: StatusPageResult = {
    locations,
    days,
    orders,
    pageBytes: inThread.bytes,
    gzippedBytes: inThread.gzippedBytes,
    inThreadMs: inThread.ms,
    inThreadStallMs: inThread.stallMs,
    inWorkerMs: inWorker.ms,
    inWorkerStallMs: inWorker.stallMs,
  };
  log(
    `   ${int(orders)} orders; a page of ${int(result.pageBytes / 1024)} KB (${int(result.gzippedBytes / 1024)} KB gzipped); on the calling thread ${int(result.inThreadMs)} ms (main thread stalled up to ${int(result.inThreadStallMs)} ms); in a worker ${int(result.inWorkerMs)} ms (main thread stalled up to ${dec(result.inWorkerStallMs)} ms)`,
  );
  return result;
}
