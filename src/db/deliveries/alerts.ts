/**
 * The alerts table as the daemon writes it, on either database: an alert opens once per kind and
 * subject (the unique open_key, which a second process opening the same alert runs into) and
 * closes once (the update that finds it still open).
 */
import type { SqlSession } from "../sql/dialect.js";

export interface OpenAlert {
  id: number;
  kind: string;
  subject: string;
  detail: string;
  openedAt: string;
}

export interface ClosedAlert extends OpenAlert {
  closedAt: string;
  /** What was found when it closed. */
  resolution: string;
}

const COLUMNS = `id, kind, subject, detail, opened_at AS "openedAt"`;

export class AlertStore {
  constructor(private readonly sql: SqlSession) {}

  private p(n: number): string {
    return this.sql.dialect.param(n);
  }

  /** The alerts that closed since `since`, oldest first. */
  closedSince(since: Date): Promise<ClosedAlert[]> {
    return this.sql.all(
      `SELECT ${COLUMNS}, closed_at AS "closedAt", resolution FROM alerts
       WHERE closed_at >= ${this.p(1)} ORDER BY closed_at, id`,
      [since.toISOString()],
    );
  }

  /** Opens the alert; undefined when it is open already (here or in another process). */
  async open(
    kind: string,
    subject: string,
    detail: string,
    now: Date,
  ): Promise<OpenAlert | undefined> {
    const rows = await this.sql.all<OpenAlert>(
      `INSERT INTO alerts (kind, subject, open_key, detail, opened_at)
       VALUES (${this.p(1)}, ${this.p(2)}, ${this.p(3)}, ${this.p(4)}, ${this.p(5)})
       ON CONFLICT (open_key) DO NOTHING
       RETURNING ${COLUMNS}`,
      [kind, subject, `${kind} ${subject}`, detail, now.toISOString()],
    );
    return rows[0];
  }

  /** Closes the alert, with what ended it; undefined when it was closed already. */
  async close(id: number, resolution: string, now: Date): Promise<ClosedAlert | undefined> {
    const rows = await this.sql.all<ClosedAlert>(
      `UPDATE alerts SET closed_at = ${this.p(1)}, open_key = NULL, resolution = ${this.p(3)}
       WHERE id = ${this.p(2)} AND closed_at IS NULL
       RETURNING ${COLUMNS}, closed_at AS "closedAt", resolution`,
      [now.toISOString(), id, resolution],
    );
    return rows[0];
  }
}
