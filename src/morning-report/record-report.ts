/**
 * Recording a day's morning report for the recipients owed it: the one way the daemon's reports
 * and `report --send` are recorded, so that neither sends anyone a location's day that the other,
 * or an earlier run, recorded for them. What is recorded, the outbox sends
 * (messages/outbox/outbox.ts).
 */
import type { DeliveryStore } from "../db/deliveries/deliveries.js";
import { morningReportKey, resentKey } from "../messages/message-keys.js";
import { recordMessage } from "../messages/outbox/record.js";
import { type Recipient, sameRecipient } from "../messages/recipients.js";
import { collectMorningReport, type ReportReader } from "./morning-report.js";
import { owedReports } from "./report-due.js";
import { reportMessage } from "./report-message.js";

export interface ReportToRecord {
  day: string;
  locationIds: readonly string[];
  recipients: readonly Recipient[];
  now: Date;
  /** The daemon before a report's latest hour: one whose days are not all proved waits. */
  waitForProof?: boolean;
  /** `report --resend`: every recipient, whatever was recorded, under a key of its own. */
  resend?: boolean;
}

export interface RecordedReport {
  key: string;
  locationIds: string[];
  recipients: Recipient[];
  /** Every location's day was complete and proved. */
  proved: boolean;
}

/**
 * Records the report of `day` for each recipient owed it: the locations no report of that day
 * recorded for them covers, recipients owed the same locations sharing one message. Answers what
 * was recorded; a message another process recorded meanwhile is left as it is.
 */
export async function recordOwedReport(
  reader: ReportReader,
  deliveries: DeliveryStore,
  what: ReportToRecord,
): Promise<RecordedReport[]> {
  const owed = what.resend
    ? [{ locationIds: [...what.locationIds], recipients: [...what.recipients] }]
    : await owedNow(deliveries, what);
  const recorded: RecordedReport[] = [];
  for (const { locationIds, recipients } of owed) {
    const report = await collectMorningReport(reader, {
      day: what.day,
      locationIds,
      now: what.now,
    });
    const proved = report.locations.every((l) => l.health.proved);
    if (!proved && what.waitForProof) continue;
    const first = morningReportKey(what.day, locationIds);
    const key = what.resend ? resentKey(first, what.now) : first;
    const message = reportMessage(report);
    await recordMessage(deliveries, { kind: "morning report", key, message, recipients }, what.now);
    recorded.push({ key, locationIds, recipients, proved });
  }
  return recorded;
}

/** Who is owed which locations, by what the day's recorded reports cover for each: a read, so
 * that a pass with nothing owed writes nothing. */
async function owedNow(deliveries: DeliveryStore, what: ReportToRecord) {
  const recorded = await deliveries.recordedWithPrefix("morning report", `${what.day} `);
  return owedReports(what, what.recipients, (r) =>
    recorded.filter((d) => sameRecipient(r, d)).map((d) => d.key),
  );
}
