/**
 * Benchmark 6, PostgreSQL: (a) the real write path into PostgreSQL against the same into SQLite,
 * same pages, in this process; (b) a chain synced by 1, 2 and 4 worker processes sharing one
 * database, at 100 ms of latency, where the network is the limit: the wall time and the speed-up.
 * Its locations are small (about 20 orders a day): on these 2-core machines the simulator,
 * PostgreSQL and the workers share the CPU, and a heavier chain measures the CPU instead of how
 * the workers share the network's waits.
 *
 * The server is a throwaway one (scripts/throwaway-postgres.ts) with fsync on and
 * synchronous_commit off: the durability of SQLite in WAL with synchronous=NORMAL, as pos-sync
 * runs it. POS_BENCH_PG_URL names a server to use instead.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { startThrowawayPostgres } from "../scripts/throwaway-postgres.js";
import { orderSchema } from "../src/api/schemas.js";
import { validateRecords } from "../src/api/validate.js";
import type { PostgresTarget } from "../src/config/config.js";
import { CpuLane } from "../src/cpu-lane.js";
import type { SyncDestination } from "../src/db/destination.js";
import { PgDestination } from "../src/db/pg/destination.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { ORDERS } from "../src/streams/index.js";
import { PageNormalizer } from "../src/sync/normalize-page.js";
import { CLI, startSimulatorProcess } from "./e2e.js";
import { pagesOf } from "./ingest.js";
import { dec, int, log, now, seconds } from "./lib.js";

const LOCATION_ID = "bench-location";
const DAY = "2026-01-01";

export interface PostgresBenchResult {
  ingest: {
    orders: number;
    sqlitePerSecond: number;
    postgresPerSecond: number;
    ratio: number;
    /** The pages alone, SQLite's time over PostgreSQL's. */
    pagesRatio: number;
    /** The run's end, where the day's summaries are settled: seconds on each. */
    finish: { sqlite: number; postgres: number };
  };
  workers: {
    locations: number;
    days: number;
    orders: number;
    latencyMs: number;
    runs: { workers: number; seconds: number; requests: number; speedUp: number }[];
  };
}

/** An ingest's time in seconds: in all, and at the run's end (the summaries settled). */
interface IngestTime {
  seconds: number;
  finish: number;
}

/**
 * The sync's write path for pages of one day: validation, normalization and the write, pages
 * overlapping as windows do; the summaries settled and everything committed at the end, as a
 * run ends. JSON.parse, the transport's work, is timed apart and left out.
 */
async function ingest(
  destination: SyncDestination,
  pages: readonly string[],
  inFlight: number,
): Promise<IngestTime> {
  const syncedAt = new Date().toISOString();
  const normalizer = new PageNormalizer(destination);
  const runId = await destination.startRun("cli", syncedAt);
  const pending: Promise<unknown>[] = [];
  let parseSeconds = 0;
  const start = now();
  for (const text of pages) {
    const parseStart = now();
    const data = JSON.parse(text) as unknown[];
    parseSeconds += seconds(parseStart);
    const { records, rejects } = await validateRecords(orderSchema, data, new CpuLane());
    const page = { locationId: LOCATION_ID, day: DAY, records, rejects, runId, syncedAt };
    pending.push(normalizer.store(ORDERS, page));
    if (pending.length >= inFlight) await pending.shift();
  }
  await Promise.all(pending);
  const finishStart = now();
  await destination.finishRun(runId, {
    status: "succeeded",
    finishedAt: new Date().toISOString(),
    stats: {},
    requests: 0,
    error: null,
  });
  return { seconds: seconds(start) - parseSeconds, finish: seconds(finishStart) };
}

/** `pos-sync sync` in `workers` processes at once against one database; the wall time. */
function syncWorkers(
  workers: number,
  env: Record<string, string>,
): Promise<{ seconds: number; requests: number }> {
  const start = now();
  const runs = Array.from({ length: workers }, () => {
    const child = spawn(process.execPath, [CLI, "sync"], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", ...env },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    return new Promise<number>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code) => {
        if (code !== 0) reject(new Error(`a worker exited ${code}:\n${stdout}`));
        const requests = /(\d[\d,]*) requests/.exec(stdout)?.[1]?.replaceAll(",", "") ?? "0";
        resolve(Number(requests));
      });
    });
  });
  return Promise.all(runs).then((requests) => ({
    seconds: seconds(start),
    requests: requests.reduce((a, b) => a + b, 0),
  }));
}

async function count(target: PostgresTarget, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const { rows } = await client.query(sql.replaceAll("{schema}", target.schema));
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

export async function benchPostgres(options: {
  orders: number;
  chain: { locations: number; days: number; ordersPerDay: number };
  dir: string;
}): Promise<PostgresBenchResult> {
  log(`6. PostgreSQL: the write path for ${int(options.orders)} orders, against SQLite…`);
  const server = await startThrowawayPostgres({
    given: process.env.POS_BENCH_PG_URL,
    durable: true,
  });
  try {
    const pages = pagesOf(options.orders);
    const path = join(options.dir, "pg-compare.sqlite");
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
    const sqlite = SqliteDestination.open(path);
    const onSqlite = await ingest(sqlite, pages, 2).finally(() => sqlite.close());
    const target = { url: server.url, schema: "bench_ingest" };
    // As a sync with the default concurrency writes: four connections, four pages at once.
    const postgres = await PgDestination.open(target, { keepRaw: true, poolSize: 4 });
    const onPostgres = await ingest(postgres, pages, 4).finally(() => postgres.close());
    const stored = await count(target, "SELECT COUNT(*) AS n FROM {schema}.orders");
    if (stored !== options.orders) throw new Error(`${stored} orders stored of ${options.orders}`);
    const result: PostgresBenchResult["ingest"] = {
      orders: options.orders,
      sqlitePerSecond: options.orders / onSqlite.seconds,
      postgresPerSecond: options.orders / onPostgres.seconds,
      ratio: onSqlite.seconds / onPostgres.seconds,
      pagesRatio: (onSqlite.seconds - onSqlite.finish) / (onPostgres.seconds - onPostgres.finish),
      finish: { sqlite: onSqlite.finish, postgres: onPostgres.finish },
    };
    log(
      `   SQLite ${int(result.sqlitePerSecond)} orders/s, PostgreSQL ${int(result.postgresPerSecond)} orders/s: ratio ${dec(result.ratio)} (target >= 0.80)`,
    );
    log(
      `   the pages alone: ratio ${dec(result.pagesRatio)}; the run's end (the day's summaries): SQLite ${dec(result.finish.sqlite)} s, PostgreSQL ${dec(result.finish.postgres)} s`,
    );

    const { locations, days, ordersPerDay } = options.chain;
    const latencyMs = 100;
    log(
      `   ${locations} locations x ${days} days of about ${ordersPerDay} orders at ${latencyMs} ms, by 1, 2 and 4 workers (concurrency 4 each)…`,
    );
    const simulator = await startSimulatorProcess([
      ...["--seed", "11", "--locations", String(locations), "--days", String(days)],
      ...["--orders-per-day", `${ordersPerDay - 5}-${ordersPerDay + 5}`],
      ...["--latency", String(latencyMs)],
    ]);
    const runs: PostgresBenchResult["workers"]["runs"] = [];
    let orders = 0;
    try {
      for (const workers of [1, 2, 4]) {
        const schema = `bench_workers_${workers}`;
        const env = {
          POS_API_URL: simulator.url,
          POS_API_KEYS: simulator.key,
          POS_DB_URL: server.url,
          POS_DB_SCHEMA: schema,
          POS_CONCURRENCY: "4",
        };
        const run = await syncWorkers(workers, env);
        orders = await count(
          { url: server.url, schema },
          "SELECT COUNT(*) AS n FROM {schema}.orders",
        );
        const speedUp = (runs[0]?.seconds ?? run.seconds) / run.seconds;
        runs.push({ workers, seconds: run.seconds, requests: run.requests, speedUp });
        log(
          `   ${workers} worker${workers === 1 ? "" : "s"}: ${dec(run.seconds)} s, ${int(run.requests)} requests, ${int(orders)} orders; speed-up ${dec(speedUp)}${workers === 2 ? " (target >= 1.80)" : ""}`,
        );
      }
    } finally {
      await simulator.stop();
    }
    return { ingest: result, workers: { locations, days, orders, latencyMs, runs } };
  } finally {
    await server.stop();
  }
}
