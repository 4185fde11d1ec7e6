/**
 * What the daemon sends people, between runs: after each run, the health alerts its outcome opens
 * or closes; after each run and every minute, the morning reports that fell due, then the outbox.
 * Everything is recorded in the database before it is sent (db/deliveries/), so a restart or a
 * second worker sends nothing twice and loses nothing owed. A failure here is logged and tried
 * again at the next pass: it never stops the syncing.
 */

import { type AlertEvent, alertAbout, alertMessage } from "../alerts/alert-message.js";
import {
  alertChanges,
  auditRepairs,
  type Finding,
  keysRejected,
  type OpenAlertState,
  staleData,
  syncFailing,
} from "../alerts/alert-rules.js";
import { RUNS_DECIDED_ON } from "../alerts/sync-failing.js";
import type { Config } from "../config/config.js";
import type { AlertStore } from "../db/deliveries/alerts.js";
import type { DeliveryKind, DeliveryStore } from "../db/deliveries/deliveries.js";
import type { Reader } from "../db/reads/reader.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import type { Message } from "../messages/message.js";
import { deliverWaiting } from "../messages/outbox/outbox.js";
import { recordMessage } from "../messages/outbox/record.js";
import { type Recipient, recipientsOf, sameRecipient } from "../messages/recipients.js";
import { recordOwedReport } from "../morning-report/record-report.js";
import { dueReports, type LocationClock } from "../morning-report/report-due.js";
import { keyFingerprint } from "../secrets.js";
import type { RunResult } from "../sync/run-result.js";
import type { DaemonMetrics } from "./metrics.js";

/** Where the notifier reads and records, on the daemon's database. */
export interface NotifierStorage {
  readable(): Reader;
  messages(): { deliveries: DeliveryStore; alerts: AlertStore };
}

export interface NotifierOptions {
  config: Config;
  storage: NotifierStorage;
  logger: Logger;
  metrics: DaemonMetrics;
  /** The outbox's waits, as a share of the real ones (clock/waits.ts). */
  waitScale: number;
  /** Aborted when the daemon stops: no new pass, and the outbox stops between messages. */
  signal?: AbortSignal;
  now?: () => Date;
}

/** How long after an alert closed its message is still recorded for a recipient without one. */
const CLOSED_RECENTLY_MS = 3_600_000;

export class Notifier {
  private readonly recipients: Recipient[];
  private readonly now: () => Date;
  private readonly configuredKeys: Set<string>;

  constructor(private readonly options: NotifierOptions) {
    this.recipients = recipientsOf(options.config.messages);
    this.now = options.now ?? (() => new Date());
    this.configuredKeys = new Set(options.config.locations.map((l) => keyFingerprint(l.apiKey)));
  }

  /** After a run: the alerts its outcome opens or closes, then what is due. `result` is
   * undefined when the run could not even be recorded. */
  async afterRun(result: RunResult | undefined): Promise<void> {
    await this.pass(result);
  }

  /** Every minute between runs: the alerts time alone opens (a sync failing for an hour, data
   * growing old), the reports due, the outbox. */
  async check(): Promise<void> {
    await this.pass(undefined);
  }

  private async pass(result: RunResult | undefined): Promise<void> {
    if (this.options.signal?.aborted) return;
    await this.guard("decide the alerts", () => this.updateAlerts(result));
    if (this.recipients.length > 0) {
      await this.guard("record the alerts' messages", () => this.recordAlertMessages());
      await this.guard("make the morning report", () => this.recordDueReports());
    }
    // With no recipient left, the outbox still retires what waits for the ones removed.
    await this.guard("send the outbox", () => this.deliver());
    await this.guard("read the outbox", async () =>
      this.options.metrics.deliveriesRead(
        await this.options.storage.readable().messages.deliveryState(this.now()),
      ),
    );
  }

  private async guard(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.options.logger.warn(
        { error: messageOf(error) },
        `could not ${what}; trying again later`,
      );
    }
  }

  /** The locations of the configured keys, as stored. */
  private async configuredLocations(reader: Reader) {
    return (await reader.locations.knownLocations()).filter(
      (l) => l.read && l.key !== null && this.configuredKeys.has(l.key),
    );
  }

  /** Opens and closes alerts on what the database says, and on what the run did when there was
   * one (its keys, its audit). */
  private async updateAlerts(result: RunResult | undefined): Promise<void> {
    const reader = this.options.storage.readable();
    const { alerts } = this.options.storage.messages();
    const now = this.now();
    const [runs, readAt, locations, open] = await Promise.all([
      reader.messages.recentRunOutcomes(RUNS_DECIDED_ON),
      reader.messages.lastOrdersReadAt(),
      this.configuredLocations(reader),
      reader.messages.openAlerts(),
    ]);
    const lastRead = new Map(readAt.map((row) => [row.locationId, row.at]));
    const findings: Finding[] = [
      syncFailing(runs, now),
      ...staleData(
        locations.map((l) => ({ id: l.id, name: l.name, lastReadAt: lastRead.get(l.id) })),
        now,
      ),
      ...(result
        ? [...keysRejected(result.stats.locations), ...auditRepairs(result.stats.locations)]
        : []),
    ];
    const locationIds = new Set(locations.map((l) => l.id));
    const auditing = this.options.config.auditPeriodDays > 0;
    const retired = (alert: OpenAlertState) => {
      if (alert.kind === "key rejected") return !this.configuredKeys.has(alert.subject);
      if (alert.kind === "audit repairing" && !auditing) return true;
      return alert.kind !== "sync failing" && !locationIds.has(alert.subject);
    };
    const changes = alertChanges(open, findings, retired);
    for (const finding of changes.opens) {
      // Undefined when another worker opened it meanwhile.
      const opened = await alerts.open(finding.kind, finding.subject, finding.detail, now);
      if (opened)
        this.options.logger.warn(
          { alert: opened.kind, subject: opened.subject, detail: opened.detail },
          "alert opened",
        );
    }
    for (const { alert, why } of changes.closes) {
      const closed = await alerts.close(alert.id, why, now);
      if (closed)
        this.options.logger.info(
          { alert: closed.kind, subject: closed.subject, why },
          "alert closed",
        );
    }
  }

  /**
   * The messages of the open alerts and of those closed in the last hour, for each recipient
   * without one: recorded here rather than where the alert opens or closes, so that one the
   * process could not record then (a database failing, a process stopped between the two
   * writes) is recorded at the next pass; a message recorded already is left as it is.
   */
  private async recordAlertMessages(): Promise<void> {
    const { alerts } = this.options.storage.messages();
    const reader = this.options.storage.readable();
    const now = this.now();
    // Every location stored, configured or not: an alert's end may be told after its key left.
    // Read only for a message to make: most passes have none.
    let locations: ReturnType<Reader["locations"]["knownLocations"]> | undefined;
    const record = async (key: string, alert: AlertEvent) => {
      const missing = await this.unrecorded("alert", key);
      if (missing.length > 0) {
        locations ??= reader.locations.knownLocations();
        const message = alertMessage({ ...alert, about: alertAbout(alert, await locations) });
        await this.record("alert", key, message, missing);
      }
    };
    for (const alert of await reader.messages.openAlerts())
      await record(`${alert.id} opened`, alert);
    for (const alert of await alerts.closedSince(new Date(now.getTime() - CLOSED_RECENTLY_MS)))
      await record(`${alert.id} closed`, alert);
  }

  /** The recipients without a message of this kind and key: a read, so that a pass with nothing
   * new writes nothing. */
  private async unrecorded(kind: DeliveryKind, key: string): Promise<Recipient[]> {
    const recorded = await this.options.storage.messages().deliveries.recordedFor(kind, key);
    return this.recipients.filter((r) => !recorded.some((d) => sameRecipient(r, d)));
  }

  /** Records the message for each of `recipients`; one recorded meanwhile is left as it is. */
  private async record(
    kind: DeliveryKind,
    key: string,
    message: Message,
    recipients: readonly Recipient[],
  ): Promise<void> {
    const { deliveries } = this.options.storage.messages();
    await recordMessage(deliveries, { kind, key, message, recipients }, this.now());
  }

  private async recordDueReports(): Promise<void> {
    const reader = this.options.storage.readable();
    const { deliveries } = this.options.storage.messages();
    const now = this.now();
    const clocks: LocationClock[] = [];
    for (const location of await this.configuredLocations(reader)) {
      const offsets = await reader.locations.utcOffsets(location.id);
      clocks.push({
        id: location.id,
        timeZone: await reader.locations.timeZoneOf(location.id),
        offsetAt: (epochMs) => offsets(new Date(epochMs)) ?? 0,
      });
    }
    for (const due of dueReports(now, this.options.config.messages.atMinutes, clocks)) {
      const recorded = await recordOwedReport(reader, deliveries, {
        day: due.day,
        locationIds: due.locationIds,
        recipients: this.recipients,
        now,
        waitForProof: !due.late,
      });
      for (const { key, proved, recipients } of recorded) {
        this.options.logger.info(
          { report: key, clock: due.clock, proved, recipients: recipients.length },
          proved
            ? "the morning report is ready: its days are complete and proved"
            : "the morning report goes as it is: its latest hour passed before its days were proved",
        );
      }
    }
  }

  private async deliver(): Promise<void> {
    const { deliveries } = this.options.storage.messages();
    await deliverWaiting(deliveries, {
      channels: this.options.config.messages,
      logger: this.options.logger,
      waitScale: this.options.waitScale,
      now: this.now,
      onAttempt: (delivery, outcome) =>
        this.options.metrics.messageAttempted(delivery.channel, outcome),
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
  }
}
