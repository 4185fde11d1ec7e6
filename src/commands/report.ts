/** `pos-sync report`: the morning report of a day, printed, written as a page, or sent by e-mail
 * and webhook. Reads the database only. */

import type { Config } from "../config/config.js";
import { DeliveryError, describeWebhookUrl } from "../delivery/delivery.js";
import { sendMail } from "../delivery/mail.js";
import { mailBody, webhookBody } from "../delivery/message.js";
import { postWebhook } from "../delivery/webhook.js";
import { ConfigError, UsageError } from "../errors.js";
import { reportHtml } from "../morning-report/html.js";
import { collectMorningReport, type MorningReport } from "../morning-report/morning-report.js";
import { reportMessage } from "../morning-report/report-message.js";
import { reportText } from "../morning-report/text.js";
import { MORNING_REPORT_PAGE, refuseToReplace, writeOutputFile } from "../output-file.js";
import { dayFlag } from "./args.js";
import { type Command, type CommandIo, parseFlags } from "./command.js";
import { CONFIG_FLAGS, CONFIG_HELP, commandConfig, openReadableDestination } from "./common.js";

const OPTIONS = {
  day: { type: "string" },
  location: { type: "string" },
  json: { type: "boolean" },
  html: { type: "string" },
  send: { type: "boolean" },
  ...CONFIG_FLAGS,
} as const;

const HELP = `Usage: pos-sync report [--day D] [--location NAME] [--json | --html FILE] [--send]
                       [--config FILE] [--db PATH|URL]

The morning report of a day: each location's sales, orders, guests and average order against the
same weekday of the four weeks before; the day's exceptions, each with the employee, the order,
the amount and the time (cancelled after payment, items voided after close, discounts above the
operator's usual, orders paid short, training orders with payments, orders changed after the
report, reports that do not reconcile); and whether the data behind it is complete and proved.
Locations with exceptions come first. Reads the database only (exit 2 when there is none).

  --day YYYY-MM-DD         the day; default: yesterday on each location's clock
  --location ID|NAME       one location
  --json                   machine-readable output
  --html FILE              write the report as one HTML page (the e-mail's HTML part); never over
                           a database, its -wal/-shm/.lock files, the --config file or a file
                           other than a page (exit 2)
  --send                   deliver it: by e-mail (POS_REPORT_SMTP_URL, POS_REPORT_FROM,
                           POS_REPORT_TO) and to a webhook (POS_REPORT_WEBHOOK_URL), whichever is
                           set; exit 1, naming the channel, when one fails
${CONFIG_HELP}
`;

/** Delivers the report by every channel set up, e-mail first; stops at the first that fails, so
 * that a failing mail server delivers nothing anywhere. Answers what was delivered. */
async function send(report: MorningReport, config: Config, io: CommandIo): Promise<number> {
  const { mail, webhookUrl } = config.report;
  if (mail === undefined && webhookUrl === undefined) {
    throw new ConfigError(
      "report --send: nowhere to send it: set POS_REPORT_SMTP_URL, POS_REPORT_FROM and POS_REPORT_TO, or POS_REPORT_WEBHOOK_URL",
    );
  }
  const message = reportMessage(report);
  try {
    if (mail !== undefined) {
      const receipt = await sendMail(mail, { subject: message.subject, ...mailBody(message) });
      const delivered = mail.to.filter((to) => !receipt.rejected.includes(to));
      io.stdout.write(`Sent the report by e-mail to ${delivered.join(", ")}\n`);
      if (receipt.rejected.length > 0) {
        io.stderr.write(
          `pos-sync: e-mail: the mail server refused ${receipt.rejected.join(", ")}: check POS_REPORT_TO\n`,
        );
        return 1;
      }
    }
    if (webhookUrl !== undefined) {
      await postWebhook(webhookUrl, webhookBody(message));
      io.stdout.write(`Posted the report to ${describeWebhookUrl(webhookUrl)}\n`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error;
    io.stderr.write(`pos-sync: ${error.message}\n`);
    return 1;
  }
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const values = parseFlags(argv, OPTIONS, "report");
  if (values.html !== undefined && values.json)
    throw new UsageError("report: give --json or --html FILE, not both");
  const day = dayFlag(values.day, "day");
  const config = commandConfig(values, io, false);
  const inUse = {
    database: config.postgres ? undefined : config.dbPath,
    configFile: values.config,
  };
  // Refused before the database is read: nothing is done for a page that cannot be written.
  if (values.html !== undefined) refuseToReplace(values.html, MORNING_REPORT_PAGE, inUse);
  const destination = await openReadableDestination(config);
  let report: MorningReport;
  try {
    report = await collectMorningReport(destination, {
      ...(day === undefined ? {} : { day }),
      ...(values.location === undefined ? {} : { location: values.location }),
    });
  } finally {
    await destination.close();
  }
  if (values.html !== undefined) {
    writeOutputFile(values.html, reportHtml(report), MORNING_REPORT_PAGE, inUse);
    io.stdout.write(`Wrote the morning report to ${values.html}\n`);
  } else if (values.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else if (!values.send) {
    io.stdout.write(reportText(report));
  }
  return values.send ? send(report, config, io) : 0;
}

export const reportCommand: Command = {
  name: "report",
  help: HELP,
  run,
};
