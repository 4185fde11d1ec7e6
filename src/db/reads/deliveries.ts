/**
 * What the daemon's messages read: the outbox, the last morning report sent and the open alerts
 * (status, the status page, the metrics), and the facts the alerts are decided on (the recent
 * runs, when each location's orders were last read).
 */

import type { RunOutcome } from "../../vocabulary.js";
import type { OpenAlert } from "../deliveries/alerts.js";
import type { ReadSession } from "./session.js";

export interface WaitingMessage {
  kind: string;
  key: string;
  channel: string;
  recipient: string;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
}

/** A message that ended unsent: refused for good (failed), or its recipient left the settings
 * (retired). */
export interface UndeliveredMessage {
  kind: string;
  key: string;
  channel: string;
  recipient: string;
  status: "failed" | "retired";
  attempts: number;
  endedAt: string;
  /** The server's answer, or why it was retired. */
  reason: string | null;
}

export interface SentReport {
  /** The report's day and clock. */
  key: string;
  sentAt: string;
  recipients: string[];
}

export interface DeliveryState {
  lastReport: SentReport | null;
  /** The outbox: how many wait, and the first few. */
  waiting: number;
  firstWaiting: WaitingMessage[];
  /** The messages that ended unsent in the last UNDELIVERED_DAYS days: how many of each, and
   * the latest few. */
  failed: number;
  retired: number;
  lastUndelivered: UndeliveredMessage[];
  openAlerts: OpenAlert[];
}

/** The outbox's messages status lists; the rest are counted. */
const WAITING_SHOWN = 5;

/** How far back status shows the messages that ended unsent: long enough to be seen after a
 * weekend away, short enough that one fixed stops being shown. */
export const UNDELIVERED_DAYS = 7;
const UNDELIVERED_SHOWN = 5;

export class MessageReads {
  constructor(private readonly db: ReadSession) {}

  async deliveryState(now: Date = new Date()): Promise<DeliveryState> {
    // An ended message's next_attempt_at is when it ended (DeliveryStore).
    const since = new Date(now.getTime() - UNDELIVERED_DAYS * 86_400_000).toISOString();
    const [last, waiting, firstWaiting, ended, lastUndelivered, openAlerts] = await Promise.all([
      this.db.one<{ key: string; sentAt: string }>(
        `SELECT key, sent_at AS "sentAt" FROM deliveries
         WHERE kind = 'morning report' AND status = 'sent'
         ORDER BY sent_at DESC, id DESC LIMIT 1`,
      ),
      this.db.count(`SELECT COUNT(*) AS n FROM deliveries WHERE status = 'waiting'`),
      this.db.all<WaitingMessage>(
        `SELECT kind, key, channel, recipient, attempts, next_attempt_at AS "nextAttemptAt",
           last_error AS "lastError", created_at AS "createdAt"
         FROM deliveries WHERE status = 'waiting' ORDER BY id LIMIT ${WAITING_SHOWN}`,
      ),
      this.db.all<{ status: string; n: number }>(
        `SELECT status, COUNT(*) AS n FROM deliveries
         WHERE status IN ('failed', 'retired') AND next_attempt_at >= ${this.db.p(1)}
         GROUP BY status`,
        [since],
      ),
      this.db.all<UndeliveredMessage>(
        `SELECT kind, key, channel, recipient, status, attempts, next_attempt_at AS "endedAt",
           last_error AS reason
         FROM deliveries
         WHERE status IN ('failed', 'retired') AND next_attempt_at >= ${this.db.p(1)}
         ORDER BY next_attempt_at DESC, id DESC LIMIT ${UNDELIVERED_SHOWN}`,
        [since],
      ),
      this.openAlerts(),
    ]);
    const endedAs = (status: string) => Number(ended.find((e) => e.status === status)?.n ?? 0);
    const recipients =
      last === undefined
        ? []
        : await this.db.all<{ recipient: string }>(
            `SELECT recipient FROM deliveries
             WHERE kind = 'morning report' AND key = ${this.db.p(1)} AND status = 'sent'
             ORDER BY channel, recipient`,
            [last.key],
          );
    return {
      lastReport:
        last === undefined ? null : { ...last, recipients: recipients.map((r) => r.recipient) },
      waiting,
      firstWaiting,
      failed: endedAs("failed"),
      retired: endedAs("retired"),
      lastUndelivered,
      openAlerts,
    };
  }

  /** The alerts open, oldest first. */
  openAlerts(): Promise<OpenAlert[]> {
    return this.db.all(
      `SELECT id, kind, subject, detail, opened_at AS "openedAt" FROM alerts
       WHERE closed_at IS NULL ORDER BY opened_at, id`,
    );
  }

  /** The latest runs, newest first; which count is the sync-failing rule's
   * (alerts/sync-failing.ts). */
  recentRunOutcomes(limit: number): Promise<RunOutcome[]> {
    return this.db.all(
      `SELECT status, started_at AS "startedAt", error FROM sync_runs
       ORDER BY id DESC LIMIT ${this.db.p(1)}`,
      [limit],
    );
  }

  /** Per location, when a run last read a day of its orders completely. */
  lastOrdersReadAt(): Promise<{ locationId: string; at: string }[]> {
    return this.db.all(
      `SELECT location_id AS "locationId", MAX(synced_at) AS at FROM sync_windows
       WHERE stream = 'orders' AND status IN ('complete', 'open') GROUP BY location_id`,
    );
  }
}
