/**
 * The deliveries table as the outbox writes it, on either database (one SQL text, sql/dialect.ts):
 * a message owed to a recipient is recorded once (the unique key of kind, key, channel and
 * recipient), and waits there, the outbox, until it is sent. Several processes may share it
 * (PostgreSQL's workers): recording twice inserts nothing the second time, and a waiting message
 * is sent by the one process whose claim locked its row (locked_at, locked_by), as
 * graphile-worker's jobs are: next_attempt_at is when it is due, the lock who sends it now, and a
 * lock expires (messages/outbox/claim.ts). A message ends sent, failed (refused for good) or
 * retired (its recipient left the settings), unlocked; an ended one's next_attempt_at is when it
 * ended.
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

  /** Waiting messages whose next attempt is due and that no process holds (none took them, or
   * its lock was taken before `lockExpiredBefore`), oldest first, from after the message
   * `afterId` (a page of the outbox). */
  due(now: Date, lockExpiredBefore: Date, limit: number, afterId = 0): Promise<WaitingDelivery[]> {
    return this.sql.all(
      `SELECT id, kind, key, channel, recipient, subject, body FROM deliveries
       WHERE status = 'waiting' AND next_attempt_at <= ${this.p(1)} AND id > ${this.p(3)}
         AND (locked_at IS NULL OR locked_at < ${this.p(4)})
       ORDER BY id LIMIT ${this.p(2)}`,
      [now.toISOString(), limit, afterId, lockExpiredBefore.toISOString()],
    );
  }

  /**
   * Takes a due message for sending: locks it for `owner` at `now` and counts the attempt, unless
   * another process holds it (a lock taken at or after `lockExpiredBefore`), it ended, or its
   * next attempt is not due. Answers the attempt's number, or undefined when it was not taken.
   * One statement: of two processes taking the same message, one changes its row.
   */
  async claim(
    id: number,
    owner: string,
    now: Date,
    lockExpiredBefore: Date,
  ): Promise<number | undefined> {
    const rows = await this.sql.all<{ attempts: number }>(
      `UPDATE deliveries SET attempts = attempts + 1, locked_at = ${this.p(1)},
         locked_by = ${this.p(2)}
       WHERE id = ${this.p(3)} AND status = 'waiting' AND next_attempt_at <= ${this.p(1)}
         AND (locked_at IS NULL OR locked_at < ${this.p(4)})
       RETURNING attempts`,
      [now.toISOString(), owner, id, lockExpiredBefore.toISOString()],
    );
    return rows[0] === undefined ? undefined : Number(rows[0].attempts);
  }

  /** The message went: it ends sent, unlocked, whoever holds it now (it went all the same). */
  async sent(id: number, now: Date): Promise<void> {
    await this.sql.all(
      `UPDATE deliveries SET status = 'sent', sent_at = ${this.p(1)}, last_error = NULL,
         locked_at = NULL, locked_by = NULL
       WHERE id = ${this.p(2)} RETURNING id`,
      [now.toISOString(), id],
    );
  }

  /** An attempt failed in a way that may pass: the message waits for `retryAt`, with why, and
   * is unlocked. Only while `owner` holds it: once its lock expired and another process took
   * it, that one's attempt decides. A message retired meanwhile stays so. */
  async retryLater(id: number, owner: string, retryAt: Date, error: string): Promise<void> {
    await this.sql.all(
      `UPDATE deliveries SET next_attempt_at = ${this.p(1)}, last_error = ${this.p(2)},
         locked_at = NULL, locked_by = NULL
       WHERE id = ${this.p(3)} AND status = 'waiting' AND locked_by = ${this.p(4)} RETURNING id`,
      [retryAt.toISOString(), error, id, owner],
    );
  }

  /** An attempt was refused for good: the message ends as failed at `now`, with why; it is not
   * tried again. Only while `owner` holds it, as retryLater. */
  async failedForGood(id: number, owner: string, now: Date, error: string): Promise<void> {
    await this.sql.all(
      `UPDATE deliveries SET status = 'failed', next_attempt_at = ${this.p(1)},
         last_error = ${this.p(2)}, locked_at = NULL, locked_by = NULL
       WHERE id = ${this.p(3)} AND status = 'waiting' AND locked_by = ${this.p(4)} RETURNING id`,
      [now.toISOString(), error, id, owner],
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
         last_error = ${this.p(2)}, locked_at = NULL, locked_by = NULL
       WHERE status = 'waiting' AND channel = ${this.p(3)} AND recipient = ${this.p(4)}
       RETURNING id`,
      [now.toISOString(), why, recipient.channel, recipient.recipient],
    );
    return rows.length;
  }
}
