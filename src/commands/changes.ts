/** `pos-sync changes`: what changed in the stored orders since a day or since the last run, in
 * plain language. Reads the database only. */
import { collectChanges } from "../read-models/changes.js";
import { describeChange, formatChanges } from "../ui/format-changes.js";
import { dayFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, openReadableDestination } from "./common.js";

const OPTIONS = {
  since: { type: "string" },
  location: { type: "string" },
  json: { type: "boolean" },
  ...CONFIG_FLAGS,
} as const;

const HELP = `Usage: pos-sync changes [--since D] [--location ID|NAME] [--json] [--config FILE]
                        [--db PATH|URL]

Says which stored orders changed after pos-sync first stored them — cancelled after payment,
items voided, discounts added, totals changed, orders the API stopped listing — when, by whom
and what it cost, one line each ("order 1042 at Trattoria Aurora, paid 58.40 at 21:12,
cancelled at 23:40 by Marco"): for a daily e-mail or a chat webhook. Times are on the
location's clock. Reads the order history (order_versions, v_order_changes); nothing when it is
switched off (POS_ORDER_HISTORY=false). Reads the database only (exit 2 when there is none).

  --since YYYY-MM-DD       changes pos-sync saw from that day on (00:00 UTC); default: those
                           the last run saw (from its start)
  --location ID|NAME       one location, by id or name
  --json                   machine-readable output (each change with its sentence)
${CONFIG_HELP}
`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "changes");
  const since = dayFlag(values.since, "since");
  const config = commandConfig(values, io, false);
  const destination = await openReadableDestination(config);
  try {
    const report = await collectChanges(destination, {
      ...(since === undefined ? {} : { sinceDay: since }),
      ...(values.location === undefined ? {} : { location: values.location }),
    });
    if (values.json) {
      const changes = report.changes.map((c) => ({ ...c, message: describeChange(c) }));
      io.stdout.write(`${JSON.stringify({ ...report, changes }, null, 2)}\n`);
    } else {
      io.stdout.write(formatChanges(report));
    }
    return 0;
  } finally {
    await destination.close();
  }
}

export const changesCommand: Command = {
  name: "changes",
  help: HELP,
  run,
};
