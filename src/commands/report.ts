/** `pos-sync report`: the morning report of a day, printed, written as a page, or sent by e-mail
 * and webhook. Reads the database only, unless it sends: what it sends is recorded
 * (report-send.ts). */

import { databaseFile, databaseFor } from "../db/choose.js";
import { UsageError } from "../errors.js";
import { reportHtml } from "../morning-report/html.js";
import { collectMorningReport } from "../morning-report/morning-report.js";
import { reportText } from "../morning-report/text.js";
import { MORNING_REPORT_PAGE, refuseToReplace, writeOutputFile } from "../output-file.js";
import { dayFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, openReadableDestination } from "./common.js";
import { checkChannels, sendReport } from "./report-send.js";

const OPTIONS = {
  day: { type: "string" },
  location: { type: "string" },
  json: { type: "boolean" },
  html: { type: "string" },
  send: { type: "boolean" },
  resend: { type: "boolean" },
  ...CONFIG_FLAGS,
} as const;

const HELP = `Usage: pos-sync report [--day D] [--location NAME] [--json | --html FILE]
                       [--send | --resend] [--config FILE] [--db PATH|URL]

The morning report of a day: each location's sales, orders, guests and average order against the
same weekday of the four weeks before; the day's exceptions, each with the employee, the order,
the amount and the time (cancelled after payment, items voided after close, discounts above the
operator's usual, orders paid short, training orders with payments, orders changed after the
report, reports that do not reconcile); and whether the data behind it is complete and proved.
Locations with exceptions come first. Reads the database only (exit 2 when there is none),
unless it sends: then it records what it sends there.

  --day YYYY-MM-DD         the day; default: yesterday on each location's clock
  --location ID|NAME       one location
  --json                   machine-readable output
  --html FILE              write the report as one HTML page (the e-mail's HTML part); never over
                           a database, its -wal/-shm/.lock files, the --config file or a file
                           other than a page (exit 2)
  --send                   deliver it as the daemon does, through the same outbox: one e-mail
                           to each address of POS_REPORT_TO (POS_REPORT_SMTP_URL,
                           POS_REPORT_FROM) and one post to POS_REPORT_WEBHOOK_URL, each recorded,
                           so that a recipient who had the day's report (from the daemon or an
                           earlier --send) gets nothing new; says what became of each; exit 1
                           when one waits in the outbox or was refused for good
  --resend                 send it again to every recipient, even one who had it: a new message
                           (its own Message-ID), recorded as sent again
${CONFIG_HELP}
`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "report");
  if (values.html !== undefined && values.json)
    throw new UsageError("report: give --json or --html FILE, not both");
  const day = dayFlag(values.day, "day");
  const sending = values.send === true || values.resend === true;
  const config = commandConfig(values, io, false);
  if (sending) checkChannels(config);
  const inUse = {
    database: databaseFile(config),
    configFile: values.config,
  };
  // Refused before the database is read: nothing is done for a page that cannot be written.
  if (values.html !== undefined) refuseToReplace(values.html, MORNING_REPORT_PAGE, inUse);
  const asked = {
    ...(day === undefined ? {} : { day }),
    ...(values.location === undefined ? {} : { location: values.location }),
  };
  // Read-only unless it sends: what it sends is recorded.
  const storage = sending ? await (await databaseFor(config)).openOutbox(config) : undefined;
  const reader = storage?.reader ?? (await openReadableDestination(config));
  try {
    if (values.html !== undefined || values.json || !sending) {
      const report = await collectMorningReport(reader, asked);
      if (values.html !== undefined) {
        writeOutputFile(values.html, reportHtml(report), MORNING_REPORT_PAGE, inUse);
        io.stdout.write(`Wrote the morning report to ${values.html}\n`);
      } else if (values.json) {
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        io.stdout.write(reportText(report));
      }
    }
    return storage === undefined
      ? 0
      : await sendReport(storage, { ...asked, resend: values.resend === true }, config, io);
  } finally {
    await (storage ?? reader).close();
  }
}

export const reportCommand: Command = {
  name: "report",
  help: HELP,
  run,
};
