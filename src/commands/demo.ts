/**
 * `pos-sync demo`: the five-minute tour. Starts the simulator in this process, syncs it into
 * data/demo.sqlite with the same engine as `sync`, then shows what the database holds and three
 * example queries. A second run finds the days already complete and reads only what is new.
 */

import { addDays } from "../clock/days.js";
import { loadConfig } from "../config/config.js";
import { databaseFor } from "../db/choose.js";
import type { RunHold } from "../db/database.js";
import {
  completeOrderDays,
  formatDatabaseSummary,
  summarizeDatabase,
} from "../demo/database-summary.js";
import { formatExampleQueries } from "../demo/example-queries.js";
import { UsageError } from "../errors.js";
import { createLogger, isLogLevel, type LogLevel } from "../log.js";
import { collectChanges } from "../read-models/changes.js";
import { startRun } from "../runner/start-run.js";
import { simulatorToday } from "../simulator/clock.js";
import { type Simulator, startSimulator } from "../simulator/server.js";
import { exitCodeFor, type RunResult } from "../sync/run-result.js";
import type { StreamStats } from "../sync/stats.js";
import { formatChanges } from "../ui/format-changes.js";
import { MilestoneProgress, TerminalProgress } from "../ui/progress-display.js";
import { formatSummary } from "../ui/summary.js";
import { number } from "../ui/text.js";
import type { DayRange } from "../vocabulary.js";
import { integerFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { isInteractive, stopOnSignals } from "./common.js";

/** The demo's data: what a small chain's first two months look like. */
export const DEMO_DEFAULTS = {
  dbPath: "data/demo.sqlite",
  seed: 1,
  locations: 2,
  days: 60,
  ordersPerDay: [50, 200] as const,
};

const OPTIONS = {
  db: { type: "string" },
  seed: { type: "string" },
  locations: { type: "string" },
  days: { type: "string" },
  fresh: { type: "boolean" },
} as const;

const HELP = `Usage: pos-sync demo [--db PATH] [--fresh] [--seed N] [--locations N] [--days N]

Starts the POS API simulator in this process, syncs it into a SQLite file, then prints what
the file holds, whether the reports add up, and three example queries with their results.
Run it again: the second run is incremental and reads only the days that are not complete.

  --db PATH       the database file (default ${DEMO_DEFAULTS.dbPath})
  --fresh         delete the demo's file first and sync everything again
  --seed N        seed of the simulated data (default ${DEMO_DEFAULTS.seed})
  --locations N   simulated locations, one API key each (default ${DEMO_DEFAULTS.locations})
  --days N        days of data, ending today (default ${DEMO_DEFAULTS.days})

Nothing leaves this machine: the simulator listens on 127.0.0.1 for the length of the run.
The demo writes only to a database it made itself, and refuses any other file.
`;

interface DemoSettings {
  dbPath: string;
  fresh: boolean;
  seed: number;
  locations: number;
  days: number;
}

function parseSettings(argv: string[]): DemoSettings {
  const values = parseFlags(argv, OPTIONS, "demo");
  return {
    dbPath: values.db ?? DEMO_DEFAULTS.dbPath,
    fresh: values.fresh === true,
    seed: integerFlag(values.seed, "seed", { min: 0 }) ?? DEMO_DEFAULTS.seed,
    locations:
      integerFlag(values.locations, "locations", { min: 1, max: 20 }) ?? DEMO_DEFAULTS.locations,
    days: integerFlag(values.days, "days", { min: 1, max: 730 }) ?? DEMO_DEFAULTS.days,
  };
}

/** Days the first run syncs one at a time after its backfill. */
const DAILY_RUNS = 7;

const changesTitle = (dbPath: string) =>
  `Orders changed after the fact (npx pos-sync changes --db ${dbPath}; v_order_changes)`;

/** Logs say only what needs attention: the progress display and the summary tell the rest. */
function demoLogLevel(io: CommandIo): LogLevel {
  const asked = io.env.LOG_LEVEL;
  return asked !== undefined && isLogLevel(asked) ? asked : "warn";
}

function runKind(completeDays: number, daysLater: number): string {
  if (completeDays > 0)
    return (
      `Incremental run: ${completeDays} location-days of orders are already complete; only new ` +
      "days, the lookback days and today are read again."
    );
  const then =
    daysLater > 0
      ? ` as it was ${daysLater} days ago, then a run a day up to today, as a daemon would`
      : "";
  return `First run: a full backfill of every day the API has${then}.`;
}

/** One line for a run of the days after the backfill. */
function dailyRunLine(day: string, result: RunResult): string {
  const changed = sum(result, (s) => s.updated);
  const added = sum(result, (s) => s.inserted);
  return (
    `${day}: run #${result.runId} ${result.status}, ${number.format(result.requests)} requests, ` +
    `${number.format(added)} new records, ${number.format(changed)} changed`
  );
}

function sum(result: RunResult, pick: (stats: StreamStats) => number): number {
  let total = 0;
  for (const location of result.stats.locations)
    for (const stats of Object.values(location.streams)) total += pick(stats);
  return total;
}

function closingNotes(result: RunResult, dbPath: string, wasIncremental: boolean): string {
  const windows = sum(result, (s) => s.windows.planned);
  const changed = sum(result, (s) => s.inserted + s.updated);
  const lines = [
    wasIncremental
      ? `This incremental run read ${windows} windows in ${result.requests} requests and found ` +
        `${changed} new or changed records.`
      : "Run the demo again: the second run is incremental and reads only what is new.",
    `Open the file read-only from any SQLite client or BI tool: sqlite3 -readonly ${dbPath}`,
    `Every command reads it with --db: npx pos-sync status --db ${dbPath}`,
  ];
  return `${lines.join("\n")}\n`;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const settings = parseSettings(argv);
  // Only the demo's own file: a database in the environment must not be used.
  const file = loadConfig({ env: {}, flags: { dbPath: settings.dbPath }, needsApi: false });
  const database = await databaseFor(file);
  if (!database.demoFile) throw new UsageError("the demo writes only a database file of its own");
  // Before anything opens the file for writing: the demo may touch only a database it made.
  await database.demoFile.prepare(settings.dbPath, settings.fresh);
  const logLevel = demoLogLevel(io);
  const logger = createLogger({ level: logLevel });
  const stop = new AbortController();
  const release = stopOnSignals(stop, logger);
  let hold: RunHold | undefined;
  let simulator: Simulator | undefined;
  try {
    hold = await database.holdForRuns(file, { command: "demo", logger, stop });
    const held = hold.held;
    if (!held) throw new Error("the demo's runs write through the database it holds");
    const completeDays = await completeOrderDays(held.reads);
    // A first run syncs the API as it was a few days ago, then once a day up to today, as a
    // daemon would have: the orders changed in between (cancelled, voided, discounted after the
    // fact) land in order history.
    const daysLater = completeDays === 0 ? Math.min(DAILY_RUNS, settings.days - 1) : 0;
    simulator = await startSimulator({
      seed: settings.seed,
      locations: settings.locations,
      days: settings.days - daysLater,
      ordersPerDay: DEMO_DEFAULTS.ordersPerDay,
      today: addDays(simulatorToday(), -daysLater),
      port: 0,
    });
    io.stdout.write(
      `pos-sync demo: a simulated POS API with ${settings.locations} location(s) and ${settings.days} days of data\n` +
        `  API ${simulator.url} (in this process, seed ${settings.seed}) into ${settings.dbPath}\n` +
        `  ${runKind(completeDays, daysLater)}\n\n`,
    );
    const config = loadConfig({
      // Only the demo's own settings: a real API's key in the environment must not be used.
      env: { POS_API_URL: simulator.url, POS_API_KEYS: simulator.keys.join(",") },
      flags: { dbPath: settings.dbPath },
      needsApi: true,
    });
    // The days after the backfill are read by date: the run's clock is this machine's, ahead of
    // the simulator's until the last of them, and an incremental run would take the days
    // between for complete and empty.
    const syncNow = (range?: DayRange) =>
      startRun({
        scope: { config, trigger: "cli", ...(range ? { range } : {}) },
        held,
        logLevel,
        logTo: "stderr",
        progress: isInteractive(io)
          ? new TerminalProgress(io.stderr)
          : new MilestoneProgress(io.stderr),
        signal: stop.signal,
        waitScale: io.waitScale,
      });
    const { dataset } = simulator;
    let result = await syncNow(
      daysLater > 0 ? { since: dataset.firstDay, until: dataset.today } : undefined,
    );
    io.stdout.write(`${formatSummary(result)}\n`);
    const dailyRunsFrom = new Date().toISOString();
    for (let day = 1; day <= daysLater && exitCodeFor(result) === 0; day++) {
      dataset.advanceDay();
      const lookback = {
        since: addDays(dataset.today, -config.lookbackDays),
        until: dataset.today,
      };
      result = await syncNow(day === daysLater ? undefined : lookback);
      io.stdout.write(`${dailyRunLine(simulator.dataset.today, result)}\n`);
    }
    if (daysLater > 0) io.stdout.write("\n");
    const summary = await summarizeDatabase(held.reads);
    io.stdout.write(`${formatDatabaseSummary(summary, settings.dbPath)}\n`);
    io.stdout.write(`${await formatExampleQueries(held.reads)}\n`);
    const changes = await collectChanges(
      held.reads,
      daysLater > 0 ? { sinceInstant: dailyRunsFrom } : {},
    );
    // The daily runs read a week of the API's past in seconds: counted by run, not by when.
    const layout = {
      limit: 8,
      title: changesTitle(settings.dbPath),
      ...(daysLater > 0 ? { since: `found by the ${daysLater} daily runs` } : {}),
    };
    io.stdout.write(`${formatChanges(changes, layout)}\n`);
    io.stdout.write(closingNotes(result, settings.dbPath, completeDays > 0));
    const code = exitCodeFor(result);
    if (code !== 0 && result.error) io.stderr.write(`pos-sync: ${result.error}\n`);
    return code;
  } finally {
    release();
    hold?.release();
    await simulator?.close();
  }
}

export const demoCommand: Command = {
  name: "demo",
  help: HELP,
  run,
};
