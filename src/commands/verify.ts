/** `pos-sync verify`: compares each stored day with the API's count, and reports with orders;
 * with `--repair`, reads again with the sync engine every day that disagrees, and checks again. */

import { EXIT, UsageError } from "../errors.js";
import {
  daysToRepair,
  repairCount,
  runVerify,
  type VerifyOptions,
  type VerifyResult,
} from "../proof/verify.js";
import { keyFingerprint } from "../secrets.js";
import { exitCodeFor } from "../sync/run-result.js";
import { formatRepair, formatVerify } from "../ui/format-verify.js";
import { TerminalProgress } from "../ui/progress-display.js";
import { DAY_STREAMS } from "../vocabulary.js";
import { dayFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import {
  CONFIG_FLAGS,
  CONFIG_HELP,
  commandConfig,
  commandLogger,
  commandLogLevel,
  isInteractive,
  openReadableDestination,
} from "./common.js";
import { executeRun } from "./sync.js";

const OPTIONS = {
  since: { type: "string" },
  until: { type: "string" },
  location: { type: "string" },
  repair: { type: "boolean" },
  json: { type: "boolean" },
  "allow-rejected": { type: "boolean" },
  ...CONFIG_FLAGS,
} as const;

const HELP = `Usage: pos-sync verify [--since D] [--until D] [--location ID|NAME] [--repair]
                      [--allow-rejected] [--json] [--config FILE] [--db PATH|URL]

Asks the API for each day's totalCount of orders and reports (one request of size 1 each) and
compares it with what is stored (live records plus rejected ones, each counted once); a day
whose counts differ is proved from its listing, as --repair proves every day (an order kept on
purpose, which a live report lists and the API serves by id, is stored and listed by none); checks
that every stored report agrees with its stored orders (v_report_reconciliation), and says
which of a report's missing orders were set aside in rejected_records. Reads the database only
(opened read-only; exit 2 when there is none). Exits 1 when anything differs, so it can gate a
BI refresh.

  --since YYYY-MM-DD       first day (default: the first day ever synced)
  --until YYYY-MM-DD       last day (default: the location's today)
  --location ID|NAME       one location, by id or name
  --repair                 read each day's listing whole instead of its count alone, and
                           compare every listed record with the one stored (its content
                           hash and its rows in every relation); then read every day that
                           disagrees again, as sync does (same
                           writers, history, deletion guard, rejects), and check again: exit 0
                           when everything agrees after the repair, 1 when something still
                           differs (listed)
  --allow-rejected         a report whose missing orders are all set aside in rejected_records
                           (the API serves them breaking the spec) is no mismatch: listed, and
                           exit 0 if nothing else differs
  --json                   machine-readable output
${CONFIG_HELP}
`;

type Verification = Omit<VerifyOptions, "destination">;

async function verifyOnce(verification: Verification): Promise<VerifyResult> {
  const destination = await openReadableDestination(verification.config);
  try {
    return await runVerify({ ...verification, destination });
  } finally {
    await destination.close();
  }
}

function exitCode(result: VerifyResult): number {
  if (result.locations.some((l) => l.keyRejected)) return EXIT.keyRejected;
  return result.ok ? EXIT.ok : EXIT.incomplete;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "verify");
  const since = dayFlag(values.since, "since");
  const until = dayFlag(values.until, "until");
  if (since !== undefined && until !== undefined && since > until)
    throw new UsageError(`--since ${since} is after --until ${until}`);
  const repair = values.repair === true;
  const config = commandConfig(values, io, true);
  const logger = commandLogger(config, io);
  for (const notice of config.notices) logger.warn(notice);
  const verification: Verification = {
    config,
    logger,
    allowRejected: values["allow-rejected"] === true,
    content: repair,
    transport: { waitScale: io.waitScale },
    ...(values.location === undefined ? {} : { location: values.location }),
    range: {
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
    },
  };
  const before = await verifyOnce(verification);
  if (values.location !== undefined && before.locations.length === 0)
    throw new UsageError(`--location ${JSON.stringify(values.location)} has no configured API key`);
  const repairDays = daysToRepair(before);
  if (!repair || before.ok || repairCount(repairDays) === 0) {
    io.stdout.write(values.json ? `${JSON.stringify(before, null, 2)}\n` : formatVerify(before));
    return exitCode(before);
  }
  if (!values.json) io.stdout.write(formatVerify(before));
  // Only the locations with days to read again.
  const keys = new Set(
    before.locations.filter((l) => l.locationId && repairDays[l.locationId]).map((l) => l.key),
  );
  const repaired = await executeRun(
    {
      scope: {
        config: {
          ...config,
          locations: config.locations.filter((l) => keys.has(keyFingerprint(l.apiKey))),
        },
        trigger: "repair",
        streams: [...DAY_STREAMS],
        repairDays,
      },
      logLevel: commandLogLevel(config, io),
      logTo: "stderr",
      ...(isInteractive(io) ? { progress: new TerminalProgress(io.stderr) } : {}),
    },
    logger,
    io,
  );
  const after = await verifyOnce(verification);
  io.stdout.write(
    values.json
      ? `${JSON.stringify({ ...after, before, repair: { days: repairDays, run: repaired } }, null, 2)}\n`
      : formatRepair(repairDays, repaired, after),
  );
  if (exitCodeFor(repaired) === EXIT.keyRejected) return EXIT.keyRejected;
  return exitCode(after);
}

export const verifyCommand: Command = {
  name: "verify",
  help: HELP,
  run,
};
