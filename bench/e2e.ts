/**
 * Benchmarks 3 and 4: `pos-sync sync` as a child process against the simulator in another
 * process (one location, 20 ms latency per request, default concurrency), then again with
 * nothing new. Wall time against the network bound (requests × latency ÷ concurrency), and the
 * child's peak memory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { dec, int, log, mb, now, processMemory, seconds } from "./lib.js";

const CLI = join(import.meta.dirname, "..", "dist", "cli.js");

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
  exitCode: number | null;
  peakRss: number;
  /** Resident memory sampled while it ran, with the share of windows done at that moment. */
  samples: { progress: number; rss: number }[];
  summary: string;
}

/** Runs `pos-sync sync` and watches its memory and progress (its log of finished windows). */
export function runSyncProcess(
  env: Record<string, string>,
  plannedWindows?: number,
): Promise<SyncProcessResult> {
  return new Promise((resolve, reject) => {
    const start = now();
    const child = spawn(process.execPath, [CLI, "sync"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env },
    });
    let stdout = "";
    let pending = "";
    let windowsDone = 0;
    let peakRss = 0;
    const samples: { progress: number; rss: number }[] = [];
    const sample = () => {
      const memory = child.pid === undefined ? undefined : processMemory(child.pid);
      if (!memory) return;
      peakRss = Math.max(peakRss, memory.peak);
      samples.push({
        progress: plannedWindows ? windowsDone / plannedWindows : 0,
        rss: memory.rss,
      });
    };
    const timer = setInterval(sample, 50);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.includes('"window synced"')) windowsDone++;
    });
    child.once("error", reject);
    child.once("exit", () => sample());
    child.once("close", (code) => {
      clearInterval(timer);
      const requests = Number(
        /(\d[\d,]*) requests/.exec(stdout)?.[1]?.replaceAll(",", "") ?? Number.NaN,
      );
      resolve({
        seconds: seconds(start),
        requests,
        exitCode: code,
        peakRss,
        samples,
        summary: stdout,
      });
    });
  });
}

export interface E2eResult {
  days: number;
  ordersPerDay: number;
  latencyMs: number;
  concurrency: number;
  full: {
    seconds: number;
    requests: number;
    networkBound: number;
    ratio: number;
    peakRss: number;
    orders: number;
  };
  incremental: { seconds: number; requests: number; rowsWritten: number };
}

export async function benchEndToEnd(options: { days: number; dir: string }): Promise<E2eResult> {
  const latencyMs = 20;
  const concurrency = 4;
  const ordersPerDay = 150;
  log(
    `3. end to end: ${options.days} days of about ${ordersPerDay} orders, ${latencyMs} ms latency…`,
  );
  const simulator = await startSimulatorProcess([
    "--seed",
    "7",
    "--days",
    String(options.days),
    "--orders-per-day",
    `${ordersPerDay - 10}-${ordersPerDay + 10}`,
    "--latency",
    String(latencyMs),
  ]);
  const dbPath = join(options.dir, "e2e.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  const env = { POS_API_URL: simulator.url, POS_API_KEY: simulator.key, POS_DB_PATH: dbPath };
  try {
    const full = await runSyncProcess(env);
    if (full.exitCode !== 0) throw new Error(`sync exited ${full.exitCode}:\n${full.summary}`);
    const db = new Database(dbPath, { readonly: true });
    const orders = db.prepare("SELECT COUNT(*) FROM orders").pluck().get() as number;
    db.close();
    const networkBound = (full.requests * latencyMs) / 1000 / concurrency;

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

    const result: E2eResult = {
      days: options.days,
      ordersPerDay,
      latencyMs,
      concurrency,
      full: {
        seconds: full.seconds,
        requests: full.requests,
        networkBound,
        ratio: full.seconds / networkBound,
        peakRss: full.peakRss,
        orders,
      },
      incremental: { seconds: incremental.seconds, requests: incremental.requests, rowsWritten },
    };
    log(
      `   ${int(orders)} orders, ${int(full.requests)} requests in ${dec(full.seconds)} s; network bound ${dec(networkBound)} s`,
    );
    log(`   ratio ${dec(result.full.ratio)} (target <= 1.20); peak RSS ${mb(full.peakRss)}`);
    log(
      `   incremental: ${int(incremental.requests)} requests in ${dec(incremental.seconds)} s, ${rowsWritten} order or report rows written (must be 0)`,
    );
    return result;
  } finally {
    await simulator.stop();
  }
}
