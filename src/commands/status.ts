/** `pos-sync status`: what is stored, what is missing, how the last run went. No API call. */
import { collectStatus } from "../read-models/status.js";
import { formatStatus } from "../ui/format-status.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, openReadableDestination } from "./common.js";

const OPTIONS = { json: { type: "boolean" }, ...CONFIG_FLAGS } as const;

const HELP = `Usage: pos-sync status [--json] [--config FILE] [--db PATH|URL]

Per location and stream: the last day complete without a gap, the days still open, the days
not complete (as date ranges, with why), row counts and rejected records; the catalog and
devices; the last run, and whether its process still runs; on PostgreSQL, which worker syncs
each location now and which did last. Reads the database only (it never creates nor changes
it; exit 2 when there is none).

  --json                   machine-readable output
${CONFIG_HELP}
`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "status");
  const config = commandConfig(values, io, false);
  const destination = await openReadableDestination(config);
  try {
    const report = await collectStatus(destination);
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
    return 0;
  } finally {
    await destination.close();
  }
}

export const statusCommand: Command = {
  name: "status",
  summary: "show what the database holds: complete days, gaps, rows, rejects, last run",
  help: HELP,
  run,
};
