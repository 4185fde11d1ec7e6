/** `pos-sync status`: what is stored, what is missing, how the last run went. No API call. */
import type { WriteStream } from "node:tty";
import { databaseFile } from "../db/choose.js";
import { UsageError } from "../errors.js";
import { refuseToReplace, STATUS_PAGE } from "../output-file.js";
import { collectStatus } from "../read-models/status.js";
import { formatStatus } from "../ui/format-status.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, openReadableDestination } from "./common.js";
import { writeStatusPageFile } from "./status-page-file.js";

const OPTIONS = { json: { type: "boolean" }, html: { type: "string" }, ...CONFIG_FLAGS } as const;

const HELP = `Usage: pos-sync status [--json | --html FILE] [--config FILE] [--db PATH|URL]

Per location and stream: the last day complete without a gap, the days still open, the days
not complete (as date ranges, with why), row counts and rejected records; the catalog and
devices; the last run, and whether its process still runs; on PostgreSQL, which worker syncs
each location now and which did last. Reads the database only (it never creates nor changes
it; exit 2 when there is none).

Under each stream a calendar of its last eight weeks, one character a day, a space before each
Monday: # complete, o open, ! incomplete, ? suspicious, x failed, . never read, r complete or
open with rejected records. On a terminal the characters are also coloured; piped, with
NO_COLOR set (to anything but empty) or with TERM=dumb they are plain. FORCE_COLOR (anything
but empty, 0 or false) colours them anyway, unless NO_COLOR is set: NO_COLOR wins.

  --json                   machine-readable output
  --html FILE              write the status page the daemon serves at / (coverage calendars of
                           every synced day, the latest runs, 60 days of sales per location) as
                           one self-contained HTML file, for a job that mails it; "late" is
                           judged against POS_SCHEDULE. It never replaces a database, its
                           -wal/-shm/.lock files, the --config file or a file other than a
                           page (exit 2)
${CONFIG_HELP}
`;

/**
 * Whether the calendars are coloured. NO_COLOR wins over FORCE_COLOR: a person who turned colour
 * off everywhere (no-color.org) should not get it back from a variable some tool exported.
 */
export function wantsColor(stdout: NodeJS.WritableStream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return (stdout as WriteStream).isTTY === true && env.TERM !== "dumb";
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "status");
  if (values.html !== undefined && values.json)
    throw new UsageError("status: give --json or --html FILE, not both");
  const config = commandConfig(values, io, false);
  const inUse = {
    database: databaseFile(config),
    configFile: values.config,
  };
  // Refused before the database is read: nothing is done for a page that cannot be written.
  if (values.html !== undefined) refuseToReplace(values.html, STATUS_PAGE, inUse);
  const destination = await openReadableDestination(config);
  try {
    if (values.html !== undefined) {
      const bytes = await writeStatusPageFile(destination, config.schedule, values.html, inUse);
      io.stdout.write(`Wrote the status page to ${values.html} (${Math.ceil(bytes / 1024)} KB)\n`);
      return 0;
    }
    const report = await collectStatus(destination);
    io.stdout.write(
      values.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : formatStatus(report, { color: wantsColor(io.stdout, io.env) }),
    );
    return 0;
  } finally {
    await destination.close();
  }
}

export const statusCommand: Command = {
  name: "status",
  help: HELP,
  run,
};
