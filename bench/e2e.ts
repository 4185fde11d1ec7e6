/**
 * Benchmarks 3 and 4: `pos-sync sync` as a child process against the simulator in another
 * process: one location's backfill at 20 ms and at 100 ms latency per request (default
 * concurrency), then again with nothing new; and a chain's week (many locations, concurrency 16).
 * Wall time against the network bound (requests × latency ÷ concurrency), the sync process's CPU
 * time per order (every thread; the simulator's CPU is its own process's), and its peak memory.
 * The backfill's CPU per order is also stated as a ratio to its floor (floor-sync.mjs, the same
 * work hand-written), the two run alternately.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { bytesPerOrder, dec, int, log, mb, now, processMemory, seconds } from "./lib.js";

export const CLI = join(import.meta.dirname, "..", "dist", "bin", "cli.js");
/** Preloaded into the sync's process: reports its CPU time when it exits. */
const CPU_AT_EXIT = join(import.meta.dirname, "cpu-at-exit.mjs");
/** The hand-written program that does the same work as a sync (its floor). */
const FLOOR = join(import.meta.dirname, "floor-sync.mjs");

export interface SimulatorProcess {
  url: string;
  key: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `pos-sync simulate` in its own process; resolves once it prints its address and key. */
export function startSimulatorProcess(args: string[]): Promise<SimulatorProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "simulate", "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" },
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const key = /POS_API_KEYS=(\S+)/.exec(output)?.[1];
      if (url && key) {
        resolve({
          url,
          key,
          child,
          stop: () =>
            new Promise((done) => {
              child.once("close", () => done());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("error", reject);
    child.once("close", (code) => reject(new Error(`the simulator exited (${code})`)));
  });
}

export interface SyncProcessResult {
  seconds: number;
  requests: number;
  /** User plus system CPU time of the sync's process, every thread, in seconds. */
  cpuSeconds: number;
  /** The same by thread (seconds; undefined where /proc is not there to tell). */
  threads: ThreadCpu | undefined;
  exitCode: number | null;
  peakRss: number;
  /** Resident memory sampled while it ran, with the seconds since it started. */
  samples: { elapsed: number; rss: number }[];
  summary: string;
}

/** A process's CPU by thread: the main thread, its worker threads, and V8's and libuv's helper
 * threads (the rest of the process's). */
export interface ThreadCpu {
  main: number;
  workers: number;
  helpers: number;
}

interface CpuLine {
  thread: "main" | "worker";
  threadMicros?: number;
  userMicros?: number;
  systemMicros?: number;
}

/** The process's CPU time in seconds, and by thread, from cpu-at-exit.mjs's lines. */
function cpuOf(report: string): { seconds: number; threads: ThreadCpu | undefined } {
  const lines = report
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CpuLine);
  const main = lines.find((line) => line.thread === "main");
  const seconds = ((main?.userMicros ?? Number.NaN) + (main?.systemMicros ?? Number.NaN)) / 1e6;
  const threadSeconds = lines.map((line) => (line.threadMicros ?? Number.NaN) / 1e6);
  if (!main || threadSeconds.some(Number.isNaN)) return { seconds, threads: undefined };
  const own = (main.threadMicros ?? 0) / 1e6;
  const workers = threadSeconds.reduce((a, b) => a + b, 0) - own;
  return { seconds, threads: { main: own, workers, helpers: seconds - own - workers } };
}

/** Runs `pos-sync sync` and watches its memory. */
export function runSyncProcess(env: Record<string, string>): Promise<SyncProcessResult> {
  return runWatched([CLI, "sync"], env);
}

/** Runs a node program, watching its memory and its CPU time. */
export function runWatched(
  args: string[],
  env: Record<string, string>,
): Promise<SyncProcessResult> {
  return new Promise((resolve, reject) => {
    const start = now();
    const child = spawn(process.execPath, ["--import", CPU_AT_EXIT, ...args], {
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env },
    });
    let cpuReport = "";
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      cpuReport += chunk;
    });
    let stdout = "";
    let peakRss = 0;
    const samples: { elapsed: number; rss: number }[] = [];
    const sample = () => {
      const memory = child.pid === undefined ? undefined : processMemory(child.pid);
      if (!memory) return;
      peakRss = Math.max(peakRss, memory.peak);
      samples.push({
        elapsed: seconds(start),
        rss: memory.rss,
      });
    };
    const timer = setInterval(sample, 50);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    // Read, or the child would block on a full pipe; its log is not needed.
    child.stderr?.resume();
    child.once("error", reject);
    child.once("exit", () => sample());
    child.once("close", (code) => {
      clearInterval(timer);
      const requests = Number(
        /(\d[\d,]*) requests/.exec(stdout)?.[1]?.replaceAll(",", "") ?? Number.NaN,
      );
      const cpu = cpuOf(cpuReport);
      resolve({
        seconds: seconds(start),
        requests,
        cpuSeconds: cpu.seconds,
        threads: cpu.threads,
        exitCode: code,
        peakRss,
        samples,
        summary: stdout,
      });
    });
  });
}

/** One sync from scratch against a simulator process, measured. */
export interface ScenarioResult {
  label: string;
  locations: number;
  days: number;
  latencyMs: number;
  concurrency: number;
  seconds: number;
  requests: number;
  /** Requests × latency ÷ concurrency: the time the network alone needs. */
  networkBound: number;
  ratio: number;
  peakRss: number;
  orders: number;
  cpuSeconds: number;
  cpuMicrosPerOrder: number;
  threads: ThreadCpu | undefined;
}

/** The backfill's CPU per order against its floor's, measured alternately in one session. */
export interface FloorComparison {
  /** pos-sync's CPU per order in each round (µs). */
  syncMicros: number[];
  /** The floor's (floor-sync.mjs), in the rounds between. */
  floorMicros: number[];
  /** Mean against mean. */
  ratio: number;
  /** Each round's CPU by thread: pos-sync's reading thread is its worker, its writing thread the
   * main one; the floor has one. */
  syncThreads: (ThreadCpu | undefined)[];
  floorThreads: (ThreadCpu | undefined)[];
}

export interface E2eResult {
  ordersPerDay: number;
  /** 180 days of one location at 20 ms, default concurrency. */
  backfill: ScenarioResult;
  /** The same backfill's CPU against the hand-written floor's. */
  floor: FloorComparison;
  /** The backfill's file, in bytes per order. */
  bytes: { withArchive: number; withoutArchive: number };
  /** The same at 100 ms. */
  slowNetwork: ScenarioResult;
  /** Many locations over a week, 20 ms, concurrency 16. */
  chain: ScenarioResult;
  incremental: { seconds: number; requests: number; rowsWritten: number };
}

const ORDERS_PER_DAY = 150;

interface Scenario {
  label: string;
  locations: number;
  days: number;
  latencyMs: number;
  concurrency: number;
}

function orderCount(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  const orders = db.prepare("SELECT COUNT(*) FROM orders").pluck().get() as number;
  db.close();
  return orders;
}

function removeDatabase(dbPath: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
}

/** Syncs a scenario into a fresh file; `then` runs against the same simulator and file. */
async function runScenario<T>(
  scenario: Scenario,
  dir: string,
  then?: (env: Record<string, string>, dbPath: string, result: ScenarioResult) => Promise<T>,
): Promise<{ result: ScenarioResult; after: T | undefined }> {
  log(`3. end to end: ${scenario.label}…`);
  const simulator = await startSimulatorProcess([
    "--seed",
    "7",
    "--locations",
    String(scenario.locations),
    "--days",
    String(scenario.days),
    "--orders-per-day",
    `${ORDERS_PER_DAY - 10}-${ORDERS_PER_DAY + 10}`,
    "--latency",
    String(scenario.latencyMs),
  ]);
  const dbPath = join(dir, "e2e.sqlite");
  removeDatabase(dbPath);
  const env = {
    POS_API_URL: simulator.url,
    POS_API_KEYS: simulator.key,
    POS_DB_PATH: dbPath,
    POS_CONCURRENCY: String(scenario.concurrency),
  };
  try {
    const run = await runSyncProcess(env);
    if (run.exitCode !== 0) throw new Error(`sync exited ${run.exitCode}:\n${run.summary}`);
    const orders = orderCount(dbPath);
    const networkBound = (run.requests * scenario.latencyMs) / 1000 / scenario.concurrency;
    const result: ScenarioResult = {
      ...scenario,
      seconds: run.seconds,
      requests: run.requests,
      networkBound,
      ratio: run.seconds / networkBound,
      peakRss: run.peakRss,
      orders,
      cpuSeconds: run.cpuSeconds,
      cpuMicrosPerOrder: (run.cpuSeconds * 1e6) / orders,
      threads: run.threads,
    };
    log(
      `   ${int(orders)} orders, ${int(run.requests)} requests in ${dec(run.seconds)} s; network bound ${dec(networkBound)} s; ratio ${dec(result.ratio)}`,
    );
    log(
      `   CPU ${dec(run.cpuSeconds)} s, ${int(result.cpuMicrosPerOrder)} µs per order (all threads of the sync's process); peak RSS ${mb(run.peakRss)}`,
    );
    return { result, after: then ? await then(env, dbPath, result) : undefined };
  } finally {
    await simulator.stop();
  }
}

/** The backfill's bytes per order, before anything else writes to the file. */
function fileBytes(dbPath: string): { withArchive: number; withoutArchive: number } {
  const bytes = bytesPerOrder(dbPath);
  log(
    `   the file: ${int(bytes.withArchive)} bytes per order with the raw archive, ${int(bytes.withoutArchive)} without it`,
  );
  return bytes;
}

/** One run of the floor into a fresh file: its CPU per order, and by thread. */
async function floorRun(
  env: Record<string, string>,
  dbPath: string,
): Promise<{ micros: number; threads: ThreadCpu | undefined }> {
  removeDatabase(dbPath);
  const run = await runWatched([FLOOR], { ...env, POS_DB_PATH: dbPath });
  if (run.exitCode !== 0) throw new Error(`the floor exited ${run.exitCode}:\n${run.summary}`);
  return { micros: (run.cpuSeconds * 1e6) / orderCount(dbPath), threads: run.threads };
}

/** Seconds of one part of each round's CPU, as "2.85, 2.80". */
function partOf(rounds: (ThreadCpu | undefined)[], part: keyof ThreadCpu): string {
  return rounds.map((threads) => (threads ? dec(threads[part]) : "?")).join(", ");
}

/**
 * The backfill's CPU per order as a ratio to the floor's, alternating: the scenario's run, the
 * floor, pos-sync again, the floor again, each into a fresh file, so that a machine that slows
 * down in between weighs on both alike.
 */
async function againstFloor(
  env: Record<string, string>,
  dir: string,
  first: ScenarioResult,
): Promise<FloorComparison> {
  log("   the same work, hand-written (bench/floor-sync.mjs), alternating with pos-sync…");
  const dbPath = join(dir, "floor.sqlite");
  const floors = [await floorRun(env, dbPath)];
  removeDatabase(dbPath);
  const again = await runSyncProcess({ ...env, POS_DB_PATH: dbPath });
  if (again.exitCode !== 0) throw new Error(`sync exited ${again.exitCode}:\n${again.summary}`);
  const syncMicros = [first.cpuMicrosPerOrder, (again.cpuSeconds * 1e6) / orderCount(dbPath)];
  const syncThreads = [first.threads, again.threads];
  floors.push(await floorRun(env, dbPath));
  removeDatabase(dbPath);
  const floorMicros = floors.map((floor) => floor.micros);
  const floorThreads = floors.map((floor) => floor.threads);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const ratio = mean(syncMicros) / mean(floorMicros);
  log(
    `   CPU per order: pos-sync ${syncMicros.map(int).join(", ")} µs, the floor ${floorMicros.map(int).join(", ")} µs; ${dec(ratio)} x the floor`,
  );
  log(
    `   by thread (s): pos-sync reading ${partOf(syncThreads, "workers")}, writing ${partOf(syncThreads, "main")}, helper threads ${partOf(syncThreads, "helpers")}; the floor's one ${partOf(floorThreads, "main")}, its helpers ${partOf(floorThreads, "helpers")}`,
  );
  return { syncMicros, floorMicros, ratio, syncThreads, floorThreads };
}

/** Benchmark 4: a second run with nothing new writes no order or report row. */
async function incrementalRun(env: Record<string, string>, dbPath: string) {
  log("4. incremental with nothing new…");
  const before = new Date().toISOString();
  const incremental = await runSyncProcess(env);
  const check = new Database(dbPath, { readonly: true });
  const rowsWritten = check
    .prepare(
      "SELECT (SELECT COUNT(*) FROM orders WHERE synced_at >= ?) + (SELECT COUNT(*) FROM reports WHERE synced_at >= ?)",
    )
    .pluck()
    .get(before, before) as number;
  check.close();
  log(
    `   ${int(incremental.requests)} requests in ${dec(incremental.seconds)} s, ${rowsWritten} order or report rows written (must be 0)`,
  );
  return { seconds: incremental.seconds, requests: incremental.requests, rowsWritten };
}

export async function benchEndToEnd(options: {
  days: number;
  chainLocations: number;
  dir: string;
}): Promise<E2eResult> {
  const backfill = await runScenario(
    {
      label: `one location, ${options.days} days of about ${ORDERS_PER_DAY} orders, 20 ms latency, concurrency 4`,
      locations: 1,
      days: options.days,
      latencyMs: 20,
      concurrency: 4,
    },
    options.dir,
    async (env, dbPath, result) => ({
      bytes: fileBytes(dbPath),
      incremental: await incrementalRun(env, dbPath),
      floor: await againstFloor(env, options.dir, result),
    }),
  );
  const slowNetwork = await runScenario(
    {
      label: `the same at 100 ms latency`,
      locations: 1,
      days: options.days,
      latencyMs: 100,
      concurrency: 4,
    },
    options.dir,
  );
  const chain = await runScenario(
    {
      label: `${options.chainLocations} locations, 7 days, 20 ms latency, concurrency 16`,
      locations: options.chainLocations,
      days: 7,
      latencyMs: 20,
      concurrency: 16,
    },
    options.dir,
  );
  if (!backfill.after) throw new Error("the incremental run did not run");
  return {
    ordersPerDay: ORDERS_PER_DAY,
    backfill: backfill.result,
    slowNetwork: slowNetwork.result,
    chain: chain.result,
    incremental: backfill.after.incremental,
    bytes: backfill.after.bytes,
    floor: backfill.after.floor,
  };
}
