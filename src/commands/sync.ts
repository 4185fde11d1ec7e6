/** `pos-sync sync`: one run, incremental or over explicit days. */

import { today } from "../clock/today.js";
import { SETTINGS } from "../config/settings.js";
import { databaseFor } from "../db/choose.js";
import { UsageError } from "../errors.js";
import type { Logger } from "../log.js";
import { type RunRequest, startRun } from "../runner/start-run.js";
import { SyncWorker } from "../runner/sync-worker.js";
import { exitCodeFor, type RunResult } from "../sync/run-result.js";
import { visible } from "../terminal-text.js";
import { TerminalProgress } from "../ui/progress-display.js";
import { formatSummary } from "../ui/summary.js";
import { upgradeProgressWriter } from "../ui/upgrade-progress.js";
import { type DayRange, isStream, STREAMS, type Stream } from "../vocabulary.js";
import { dayFlag, integerFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import {
  CONFIG_FLAGS,
  CONFIG_HELP,
  commandConfig,
  commandLogger,
  commandLogLevel,
  isInteractive,
  stopOnSignals,
} from "./common.js";

/** The easternmost time zone: its today is the last calendar day that has begun anywhere. */
const LATEST_UTC_OFFSET_MINUTES = 14 * 60;

const OPTIONS = {
  since: { type: "string" },
  until: { type: "string" },
  streams: { type: "string" },
  "lookback-days": { type: "string" },
  concurrency: { type: "string" },
  "accept-deletions": { type: "boolean" },
  "no-raw": { type: "boolean" },
  "no-history": { type: "boolean" },
  "time-zone": { type: "string" },
  ...CONFIG_FLAGS,
} as const;

const HELP = `Usage: pos-sync sync [--since D] [--until D] [--streams list] [--lookback-days N]
                     [--concurrency N] [--accept-deletions] [--no-raw] [--no-history]
                     [--time-zone ZONE] [--config FILE] [--db PATH|URL]

Replicates every location behind the configured API keys into the database, day by day.
With no dates the run is incremental: every day not yet complete, the lookback days before
it and before today, and today. With dates it reads exactly those days (both included).

  --since YYYY-MM-DD       first day to read (alone: through each location's today)
  --until YYYY-MM-DD       last day to read
  --streams LIST           some of ${STREAMS.join(",")} (default all)
  --lookback-days N        days read again behind the checkpoint (default POS_LOOKBACK_DAYS, 3)
  --concurrency N          requests in flight (default POS_CONCURRENCY, 4)
  --accept-deletions       mark deleted whatever a day's complete read no longer lists, even
                           when it is most of the day (without it such a day is left as it was
                           and reported suspicious)
  --no-raw                 keep no raw JSON of the records written (default POS_KEEP_RAW, true)
  --no-history             keep no earlier versions of changed orders (default POS_ORDER_HISTORY, true)
  --time-zone ZONE         IANA time zone of the locations without their own in the config
                           file, for the hours of UTC timestamps (default POS_TIME_ZONE)
${CONFIG_HELP}

Exit codes: 0 every window complete, 1 some windows failed, 2 bad usage or configuration,
3 an API key was rejected.
`;

function parseStreams(value: string | undefined): Stream[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.filter((name) => !isStream(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--streams takes some of ${STREAMS.join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
  return names as Stream[];
}

/**
 * The days asked for. A day after today has no records yet: refused, rather than stored as a
 * checkpoint that later reads as a gap. "Today" is the latest calendar day anywhere (UTC+14),
 * so that a location ahead of this machine's clock can still ask for its own today.
 */
function parseRange(
  sinceText: string | undefined,
  untilText: string | undefined,
): DayRange | undefined {
  const since = dayFlag(sinceText, "since");
  const until = dayFlag(untilText, "until");
  if (until !== undefined && since === undefined) throw new UsageError("--until needs --since");
  if (since === undefined) return undefined;
  const latestToday = today(new Date(), LATEST_UTC_OFFSET_MINUTES);
  for (const [flag, day] of [
    ["since", since],
    ["until", until],
  ] as const) {
    if (day !== undefined && day > latestToday)
      throw new UsageError(
        `--${flag} ${day} is in the future (today is ${today()}): nothing to read yet`,
      );
  }
  if (until === undefined) return { since };
  if (since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
  return { since, until };
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "sync");
  const range = parseRange(values.since, values.until);
  const streams = parseStreams(values.streams);
  const config = commandConfig(values, io, true, {
    lookbackDays: integerFlag(values["lookback-days"], "lookback-days", SETTINGS.lookbackDays),
    concurrency: integerFlag(values.concurrency, "concurrency", SETTINGS.concurrency),
    keepRaw: values["no-raw"] === true ? false : undefined,
    orderHistory: values["no-history"] === true ? false : undefined,
    timeZone: values["time-zone"],
  });
  const logger = commandLogger(config, io);
  for (const notice of config.notices) logger.warn(notice);
  const request: SyncRequest = {
    scope: {
      config,
      trigger: "cli",
      ...(streams ? { streams } : {}),
      ...(range ? { range } : {}),
      acceptDeletions: values["accept-deletions"] === true,
    },
    logLevel: commandLogLevel(config, io),
    logTo: "stderr",
    ...(isInteractive(io) ? { progress: new TerminalProgress(io.stderr) } : {}),
  };
  return report(await executeRun(request, logger, io), io);
}

export type SyncRequest = Omit<RunRequest, "signal" | "held" | "worker" | "waitScale">;

/** One run into the configured database, stopped cleanly on the first SIGINT or SIGTERM. */
export async function executeRun(
  request: SyncRequest,
  logger: Logger,
  io: CommandIo,
): Promise<RunResult> {
  // The run's thread loads its modules while this one opens the database.
  const { config } = request.scope;
  const worker = SyncWorker.start(config.memoryMb);
  try {
    const database = await databaseFor(config);
    const stop = new AbortController();
    // Held by this thread where it writes the run's pages (with the writer lease that keeps a
    // second writer out); nothing to hold where the run's thread writes the database itself.
    const hold = await database.holdForRuns(config, {
      command: request.scope.trigger === "repair" ? "verify --repair" : "sync",
      logger,
      stop,
      onUpgradeProgress: isInteractive(io)
        ? upgradeProgressWriter(io.stderr, true)
        : (progress) => {
            if (progress.done >= 1) logger.info(progress, "upgraded the layout of a table");
          },
    });
    const release = stopOnSignals(stop, logger);
    try {
      // The run itself goes to a worker thread, with a heap ceiling; this thread keeps the
      // lease, the signals and the terminal.
      return await startRun({
        ...request,
        worker,
        waitScale: io.waitScale,
        ...(hold.held ? { held: hold.held } : {}),
        signal: stop.signal,
      });
    } finally {
      release();
      hold.release();
    }
  } finally {
    worker.discard();
  }
}

function report(result: RunResult, io: CommandIo): number {
  io.stdout.write(formatSummary(result));
  const code = exitCodeFor(result);
  // The error may quote the API (a server's message): one visible line.
  if (code !== 0 && result.error) io.stderr.write(`pos-sync: ${visible(result.error)}\n`);
  return code;
}

export const syncCommand: Command = {
  name: "sync",
  help: HELP,
  run,
};
