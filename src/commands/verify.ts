/** `pos-sync verify`: compares each stored day with the API's count, and reports with orders. */

import { EXIT, UsageError } from "../errors.js";
import { runVerify } from "../read-models/verify.js";
import { formatVerify } from "../ui/format-verify.js";
import { dayFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import {
  CONFIG_FLAGS,
  CONFIG_HELP,
  commandConfig,
  commandLogger,
  openReadableDestination,
} from "./common.js";

const OPTIONS = {
  since: { type: "string" },
  until: { type: "string" },
  json: { type: "boolean" },
  "allow-rejected": { type: "boolean" },
  ...CONFIG_FLAGS,
} as const;

const HELP = `Usage: pos-sync verify [--since D] [--until D] [--allow-rejected] [--json] [--config FILE]
                      [--db PATH|URL]

Asks the API for each day's totalCount of orders and reports (one request of size 1 each) and
compares it with what is stored (live records plus rejected ones, each counted once); checks
that every stored report agrees with its stored orders (v_report_reconciliation), and says
which of a report's missing orders were set aside in rejected_records. Reads the database only
(opened read-only; exit 2 when there is none). Exits 1 when anything differs, so it can gate a
BI refresh.

  --since YYYY-MM-DD       first day (default: the first day ever synced)
  --until YYYY-MM-DD       last day (default: the location's today)
  --allow-rejected         a report whose missing orders are all set aside in rejected_records
                           (the API serves them breaking the spec) is no mismatch: listed, and
                           exit 0 if nothing else differs
  --json                   machine-readable output
${CONFIG_HELP}
`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "verify");
  const since = dayFlag(values.since, "since");
  const until = dayFlag(values.until, "until");
  if (since !== undefined && until !== undefined && since > until)
    throw new UsageError(`--since ${since} is after --until ${until}`);
  const config = commandConfig(values, io, true);
  const logger = commandLogger(config, io);
  for (const notice of config.notices) logger.warn(notice);
  const destination = await openReadableDestination(config);
  try {
    const result = await runVerify({
      config,
      destination,
      logger,
      allowRejected: values["allow-rejected"] === true,
      range: {
        ...(since === undefined ? {} : { since }),
        ...(until === undefined ? {} : { until }),
      },
    });
    io.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : formatVerify(result));
    if (result.locations.some((l) => l.keyRejected)) return EXIT.keyRejected;
    return result.ok ? EXIT.ok : EXIT.incomplete;
  } finally {
    await destination.close();
  }
}

export const verifyCommand: Command = {
  name: "verify",
  help: HELP,
  run,
};
