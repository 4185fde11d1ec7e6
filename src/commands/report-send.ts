/**
 * `report --send`: the daemon's delivery, run once. The report is recorded for each recipient
 * owed it, by the rule the daemon records by (morning-report/record-report.ts), then the outbox
 * sends what is due, each message to its one recipient with its stable Message-ID or
 * Idempotency-Key; a second `--send` of the same day finds it recorded and sends nothing new.
 * The whole outbox is sent, not only this report: without a daemon, this command is what sends
 * what an earlier run left waiting. Only to the recipients its settings name, though, and it
 * retires nobody's messages: a cron line's settings may name fewer than the daemon's.
 */

import type { Config } from "../config/config.js";
import type { OutboxStorage } from "../db/database.js";
import { ConfigError, EXIT } from "../errors.js";
import { type Logger, silentLogger } from "../log.js";
import { deliverWaiting } from "../messages/outbox/outbox.js";
import { delivered, sendOutcome } from "../messages/outbox/send-outcome.js";
import { recipientsOf } from "../messages/recipients.js";
import { reportedLocations } from "../morning-report/morning-report.js";
import { recordOwedReport } from "../morning-report/record-report.js";
import { type DaySent, formatSend } from "../ui/format-send.js";
import type { CommandIo } from "./command.js";
import { commandLogger } from "./common.js";

export interface SendRequest {
  day?: string;
  location?: string;
  /** Sent again to every recipient, even one that had it. */
  resend: boolean;
}

/** Refused before the database is opened: nothing is recorded for nowhere. */
export function checkChannels(config: Config): void {
  const { mail, webhookUrl } = config.messages;
  if (mail === undefined && webhookUrl === undefined) {
    throw new ConfigError(
      "report --send: nowhere to send it: set POS_REPORT_SMTP_URL, POS_REPORT_FROM and POS_REPORT_TO, or POS_REPORT_WEBHOOK_URL",
    );
  }
}

/** What the outbox would log, the command prints for each recipient; LOG_LEVEL asks for both. */
function outboxLogger(config: Config, io: CommandIo): Logger {
  return io.env.LOG_LEVEL === undefined ? silentLogger() : commandLogger(config, io);
}

/** Records, sends, and says what became of the report for each recipient; answers the exit
 * code: 0 when every recipient has it, now or before; 1 when one waits or will not get it. */
export async function sendReport(
  storage: OutboxStorage,
  request: SendRequest,
  config: Config,
  io: CommandIo,
): Promise<number> {
  const recipients = recipientsOf(config.messages);
  const now = new Date();
  const days = new Map<string, string[]>();
  const asked = {
    ...(request.day === undefined ? {} : { day: request.day }),
    ...(request.location === undefined ? {} : { location: request.location }),
  };
  for (const { id, day } of await reportedLocations(storage.reader, { ...asked, now }))
    days.set(day, [...(days.get(day) ?? []), id]);
  if (days.size === 0) {
    throw new ConfigError(
      "report --send: no location's day to report: the database holds no location read yet (run pos-sync sync)",
    );
  }
  const keys = new Set<string>();
  for (const [day, locationIds] of days) {
    const recorded = await recordOwedReport(storage.reader, storage.deliveries, {
      day,
      locationIds,
      recipients,
      now,
      resend: request.resend,
    });
    for (const { key } of recorded) keys.add(key);
  }
  const sentNow = new Set<number>();
  await deliverWaiting(storage.deliveries, {
    channels: config.messages,
    logger: outboxLogger(config, io),
    waitScale: io.waitScale,
    drain: true,
    leaveUnconfigured: true,
    onAttempt: (delivery, outcome) => {
      if (outcome === "sent") sentNow.add(delivery.id);
    },
  });
  const sent: DaySent[] = [];
  for (const [day, locationIds] of days) {
    const ofDay = await storage.deliveries.recordedWithPrefix("morning report", `${day} `);
    // A resend is judged by its own messages: the day's earlier ones are why it is one.
    const judged = request.resend ? ofDay.filter((m) => keys.has(m.key)) : ofDay;
    sent.push({
      day,
      locations: locationIds.length,
      resend: request.resend,
      outcomes: recipients.map((recipient) => ({
        recipient,
        outcome: sendOutcome(recipient, locationIds, judged, sentNow),
      })),
    });
  }
  const text = formatSend(sent);
  io.stdout.write(text.stdout);
  io.stderr.write(text.stderr);
  const everyone = sent.every((day) => day.outcomes.every(({ outcome }) => delivered(outcome)));
  return everyone ? EXIT.ok : EXIT.incomplete;
}
