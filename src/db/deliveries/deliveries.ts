/**
 * The deliveries table as the daemon writes it, on either database (one SQL text, sql/dialect.ts):
 * a message owed to a recipient is recorded once (the unique key of kind, key, channel and
 * recipient), and waits there, the outbox, until it is sent. Several processes may share it
 * (PostgreSQL's workers): recording twice inserts nothing the second time, and a waiting message
 * is sent by the one process whose claim changed its row. A message ends sent, failed (refused
 * for good) or retired (its recipient left the settings); an ended one's next_attempt_at is when
 * it ended.
 */
import type { SqlSession } from "../sql/dialect.js";

export type DeliveryKind = "morning report" | "alert";

export interface NewDelivery {
  kind: DeliveryKind;
  key: string;
  channel: string;
  recipient: string;
  subject: string;
  /** JSON: what is sent. */
  body: string;
}

export interface WaitingDelivery extends NewDelivery {
  id: number;
  attempts: number;
}

/** A message as recorded, and where it stands. */
export interface RecordedDelivery {
  id: number;
  key: string;
  channel: string;
  recipient: string;
  status: "waiting" | "sent" | "failed" | "retired";
  sentAt: string | null;
  /** When it is tried next; once failed or retired, when it ended. */
  nextAttemptAt: string;
  lastError: string | null;
}

export class DeliveryStore {
  constructor(private readonly sql: SqlSession) {}

  private p(n: number): string {
    return this.sql.dialect.param(n);
  }

  /** The recipients a message of this kind and key is recorded for, sent or waiting. */
  async recordedFor(
    kind: DeliveryKind,
    key: string,
  ): Promise<{ channel: string; recipient: string }[]> {
    return this.sql.all(
      `SELECT channel, recipient FROM deliveries WHERE kind = ${this.p(1)} AND key = ${this.p(2)}`,
      [kind, key],
    );
  }

  /** The messages of this kind whose key starts with `prefix` (a day's morning reports: the
   * day and a space), each with its recipient and where it stands, oldest first. */
  async recordedWithPrefix(kind: DeliveryKind, prefix: string): Promise<RecordedDelivery[]> {
    return this.sql.all(
      `SELECT id, key, channel, recipient, status, sent_at AS "sentAt",
         next_attempt_at AS "nextAttemptAt", last_error AS "lastError"
       FROM deliveries
       WHERE kind = ${this.p(1)} AND substr(key, 1, ${this.p(3)}) = ${this.p(2)}
       ORDER BY id`,
      [kind, prefix, prefix.length],
    );
  }

  /** Records each message, due at once, unless it is recorded already; answers how many were. */
  async record(deliveries: readonly NewDelivery[], now: Date): Promise<number> {
    let recorded = 0;
    for (const d of deliveries) {
      const rows = await this.sql.all(
        `INSERT INTO deliveries (kind, key, channel, recipient, subject, body, status, attempts,
           next_attempt_at, created_at)
         VALUES (${[1, 2, 3, 4, 5, 6].map((n) => this.p(n)).join(", ")}, 'waiting', 0,
           ${this.p(7)}, ${this.p(7)})
         ON CONFLICT (kind, key, channel, recipient) DO NOTHING
         RETURNING id`,
        [d.kind, d.key, d.channel, d.recipient, d.subject, d.body, now.toISOString()],
      );
      recorded += rows.length;
    }
    return recorded;
  }

  /** Waiting messages whose next attempt is due, oldest first, from after the message
   * `afterId` (a page of the outbox). */
  due(now: Date, limit: number, afterId = 0): Promise<WaitingDelivery[]> {
    return this.sql.all(
      `SELECT id, kind, key, channel, recipient, subject, body, attempts FROM deliveries
       WHERE status = 'waiting' AND next_attempt_at <= ${this.p(1)} AND id > ${this.p(3)}
       ORDER BY id LIMIT ${this.p(2)}`,
      [now.toISOString(), limit, afterId],
    );
  }

  /**
   * Takes a due message for sending: counts the attempt and moves its next one to `until`, so
   * that no other process sends it meanwhile, nor this one again should it stop mid-send. False
   * when another process took it first.
   */
  async claim(delivery: WaitingDelivery, now: Date, until: Date): Promise<boolean> {
    const rows = await this.sql.all(
      `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = ${this.p(1)}
       WHERE id = ${this.p(2)} AND status = 'waiting' AND attempts = ${this.p(3)}
         AND next_attempt_at <= ${this.p(4)}
       RETURNING id`,
      [until.toISOString(), delivery.id, delivery.attempts, now.toISOString()],
    );
    return rows.length === 1;
  }

  async sent(id: number, now: Date): Promise<void> {
    await this.sql.all(
      `UPDATE deliveries SET status = 'sent', sent_at = ${this.p(1)}, last_error = NULL
       WHERE id = ${this.p(2)} RETURNING id`,
      [now.toISOString(), id],
    );
  }

  /** An attempt failed in a way that may pass: the message waits for `retryAt`, with why. A
   * message retired meanwhile stays so. */
  async retryLater(id: number, retryAt: Date, error: string): Promise<void> {
    await this.sql.all(
      `UPDATE deliveries SET next_attempt_at = ${this.p(1)}, last_error = ${this.p(2)}
       WHERE id = ${this.p(3)} AND status = 'waiting' RETURNING id`,
      [retryAt.toISOString(), error, id],
    );
  }

  /** An attempt was refused for good: the message ends as failed at `now`, with why; it is not
   * tried again. */
  async failedForGood(id: number, now: Date, error: string): Promise<void> {
    await this.sql.all(
      `UPDATE deliveries SET status = 'failed', next_attempt_at = ${this.p(1)},
         last_error = ${this.p(2)}
       WHERE id = ${this.p(3)} AND status = 'waiting' RETURNING id`,
      [now.toISOString(), error, id],
    );
  }

  /** The recipients messages wait for, each once. */
  waitingRecipients(): Promise<{ channel: string; recipient: string }[]> {
    return this.sql.all(
      `SELECT DISTINCT channel, recipient FROM deliveries WHERE status = 'waiting'
       ORDER BY channel, recipient`,
    );
  }

  /** Ends every message waiting for this recipient as retired at `now`, with why, whether due
   * or not; answers how many. */
  async retire(
    recipient: { channel: string; recipient: string },
    now: Date,
    why: string,
  ): Promise<number> {
    const rows = await this.sql.all(
      `UPDATE deliveries SET status = 'retired', next_attempt_at = ${this.p(1)},
         last_error = ${this.p(2)}
       WHERE status = 'waiting' AND channel = ${this.p(3)} AND recipient = ${this.p(4)}
       RETURNING id`,
      [now.toISOString(), why, recipient.channel, recipient.recipient],
    );
    return rows.length;
  }
}
