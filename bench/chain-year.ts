/**
 * Benchmark 10, a year of a chain: N locations × D days of the simulator backfilled into SQLite by
 * one process and into PostgreSQL by two worker processes, at --concurrency 16; then the everyday
 * commands on each — status, status --html, changes, verify, an incremental sync, a daemon's run —
 * each timed as the command a user types (a process of its own), PostgreSQL's time beside
 * SQLite's. PostgreSQL's own figures come from pg_stat_statements, reset before each command:
 * the slowest statement each command ran. The reads every run and every status makes must not
 * grow with the history's length: this is where that shows.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { startThrowawayPostgres } from "../scripts/throwaway-postgres.js";
import { type BiTiming, readBiYear } from "./bi-year.js";
import { CLI, runWatched, type SimulatorProcess, startSimulatorProcess } from "./e2e.js";
import { dec, int, log, mb, now, seconds } from "./lib.js";

/** One statement as pg_stat_statements sums it up. */
export interface StatementTime {
  query: string;
  calls: number;
  maxMs: number;
  totalMs: number;
}

export interface EverydayCommand {
  name: string;
  sqliteSeconds: number;
  postgresSeconds: number;
  /** The slowest statement PostgreSQL ran for it. */
  slowest: StatementTime | undefined;
}

export interface ChainYearResult {
  locations: number;
  days: number;
  orders: number;
  backfill: {
    sqlite: { seconds: number; peakRss: number };
    postgres: { seconds: number; peakRss: number[] };
  };
  commands: EverydayCommand[];
  /** The slowest statements of all the everyday commands on PostgreSQL. */
  statements: StatementTime[];
  /** Benchmark 11's reads of the same year, when asked for (bi-year.ts). */
  bi?: BiTiming[];
}

const CONCURRENCY = "16";

/** The destination's settings: a SQLite file or a PostgreSQL schema. */
type Target = Record<string, string>;

/** A command as a user runs it; its wall time. Exit 1 is a finding (verify), not a failure. */
function timed(args: string[], env: Record<string, string>): Promise<number> {
  const start = now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", ...env },
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0 || code === 1) resolve(seconds(start));
      else reject(new Error(`pos-sync ${args.join(" ")} exited ${code}: ${stderr.trim()}`));
    });
  });
}

/** A daemon started, its first run (a sync, the audit's share, the status for /metrics) timed to
 * its "run finished" line, then stopped. */
function daemonRun(env: Record<string, string>): Promise<number> {
  const start = now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "daemon", "--schedule", "0 0 1 1 *"], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env },
    });
    let output = "";
    let elapsed: number | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      if (elapsed === undefined && output.includes('"msg":"run finished"')) {
        elapsed = seconds(start);
        child.kill("SIGTERM");
      }
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (elapsed !== undefined) resolve(elapsed);
      else reject(new Error(`the daemon exited ${code} before its run finished`));
    });
  });
}

/** Backfills with `workers` sync processes at once; the wall time and each one's peak RSS. */
async function backfill(
  workers: number,
  env: Record<string, string>,
): Promise<{ seconds: number; peakRss: number[] }> {
  const start = now();
  const runs = await Promise.all(
    Array.from({ length: workers }, () => runWatched([CLI, "sync"], env)),
  );
  for (const run of runs) {
    if (run.exitCode !== 0) throw new Error(`a backfill exited ${run.exitCode}:\n${run.summary}`);
  }
  return { seconds: seconds(start), peakRss: runs.map((run) => run.peakRss) };
}

/** pg_stat_statements on the throwaway server: reset, and the slowest since. */
class StatementLog {
  private constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<StatementLog> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    return new StatementLog(client);
  }

  async reset(): Promise<void> {
    await this.client.query("SELECT pg_stat_statements_reset()");
  }

  async slowest(limit: number): Promise<StatementTime[]> {
    const { rows } = await this.client.query<{
      query: string;
      calls: string;
      max_exec_time: number;
      total_exec_time: number;
    }>(
      `SELECT query, calls, max_exec_time, total_exec_time FROM pg_stat_statements
       WHERE query NOT LIKE '%pg_stat_statements%'
       ORDER BY max_exec_time DESC LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      query: row.query.replace(/\s+/g, " ").trim(),
      calls: Number(row.calls),
      maxMs: row.max_exec_time,
      totalMs: row.total_exec_time,
    }));
  }

  async orders(schema: string): Promise<number> {
    const { rows } = await this.client.query(`SELECT COUNT(*) AS n FROM ${schema}.orders`);
    return Number(rows[0]?.n ?? 0);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

/** The everyday commands, each a function of the destination's settings. */
function everydayCommands(dir: string): { name: string; run: (env: Target) => Promise<number> }[] {
  let page = 0;
  return [
    { name: "status", run: (env) => timed(["status"], env) },
    {
      name: "status --html",
      run: (env) => {
        page += 1;
        return timed(["status", "--html", join(dir, `status-${page}.html`)], env);
      },
    },
    { name: "changes", run: (env) => timed(["changes"], env) },
    { name: "verify", run: (env) => timed(["verify"], env) },
    { name: "incremental sync", run: (env) => timed(["sync"], env) },
    { name: "a daemon's run", run: (env) => daemonRun(env) },
  ];
}

/** The targets: on PostgreSQL, status and changes under a second, every command within twice
 * SQLite's time; each backfilling process under 200 MB. */
export function yearTargets(result: ChainYearResult): string {
  const seconds = (name: string) => result.commands.find((c) => c.name === name)?.postgresSeconds;
  const worst = Math.max(...result.commands.map((c) => c.postgresSeconds / c.sqliteSeconds));
  const peak = Math.max(result.backfill.sqlite.peakRss, ...result.backfill.postgres.peakRss);
  return `PostgreSQL status ${dec(seconds("status") ?? Number.NaN)} s, changes ${dec(seconds("changes") ?? Number.NaN)} s (< 1); at most ${dec(worst)} x SQLite's time (<= 2); peak RSS ${mb(peak)} (< 200 MB)`;
}

/** The first line of a statement, for a table. */
export function statementLine(statement: StatementTime, width = 110): string {
  return statement.query.length > width ? `${statement.query.slice(0, width)}…` : statement.query;
}

export async function benchChainYear(options: {
  locations: number;
  days: number;
  dir: string;
  /** Then benchmark 11's BI reads of the same year, rather than backfilling it again. */
  withBiReads?: boolean;
}): Promise<ChainYearResult> {
  const { locations, days, dir } = options;
  log(
    `10. a year of a chain: ${locations} locations × ${days} days, into SQLite (one process) and PostgreSQL (two workers), concurrency ${CONCURRENCY}; then the everyday commands…`,
  );
  const server = await startThrowawayPostgres({
    given: process.env.POS_BENCH_PG_URL,
    durable: true,
    settings: ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all"],
  });
  let simulator: SimulatorProcess | undefined;
  let statements: StatementLog | undefined;
  try {
    simulator = await startSimulatorProcess([
      ...["--seed", "10", "--locations", String(locations), "--days", String(days)],
    ]);
    statements = await StatementLog.open(server.url);
    const api = {
      POS_API_URL: simulator.url,
      POS_API_KEYS: simulator.key,
      POS_CONCURRENCY: CONCURRENCY,
    };
    const path = join(dir, "chain-year.sqlite");
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
    const sqlite: Target = { ...api, POS_DB_PATH: path };
    const postgres: Target = { ...api, POS_DB_URL: server.url, POS_DB_SCHEMA: "bench_year" };

    const onSqlite = await backfill(1, sqlite);
    log(
      `    backfill: SQLite ${dec(onSqlite.seconds)} s, peak RSS ${mb(onSqlite.peakRss[0] ?? 0)}`,
    );
    const onPostgres = await backfill(2, postgres);
    const orders = await statements.orders("bench_year");
    log(
      `    backfill: PostgreSQL ${dec(onPostgres.seconds)} s (two workers), peak RSS ${onPostgres.peakRss.map(mb).join(" and ")}; ${int(orders)} orders`,
    );

    const commands: EverydayCommand[] = [];
    const all: StatementTime[] = [];
    for (const command of everydayCommands(dir)) {
      const sqliteSeconds = await command.run(sqlite);
      await statements.reset();
      const postgresSeconds = await command.run(postgres);
      const slowest = await statements.slowest(3);
      all.push(...slowest.map((s) => ({ ...s, query: `${command.name}: ${s.query}` })));
      commands.push({ name: command.name, sqliteSeconds, postgresSeconds, slowest: slowest[0] });
      log(
        `    ${command.name}: SQLite ${dec(sqliteSeconds)} s, PostgreSQL ${dec(postgresSeconds)} s (${dec(postgresSeconds / sqliteSeconds)} ×); slowest statement ${dec(slowest[0]?.maxMs ?? 0)} ms`,
      );
    }
    const result = {
      locations,
      days,
      orders,
      backfill: {
        sqlite: { seconds: onSqlite.seconds, peakRss: onSqlite.peakRss[0] ?? 0 },
        postgres: onPostgres,
      },
      commands,
      statements: [],
    };
    log(`    targets: ${yearTargets(result)}`);
    all.sort((a, b) => b.maxMs - a.maxMs);
    const top = all.slice(0, 5);
    log("    PostgreSQL's slowest statements (max ms, calls, statement):");
    for (const s of top) log(`      ${dec(s.maxMs)} ms, ${s.calls}×: ${statementLine(s)}`);
    if (!options.withBiReads) return { ...result, statements: top };
    log();
    log("11. BI at a year: every view of the same year read as a BI tool filters it…");
    const bi = await readBiYear(path, { url: server.url, schema: "bench_year" });
    return { ...result, statements: top, bi };
  } finally {
    await statements?.close();
    await simulator?.stop();
    await server.stop();
  }
}
