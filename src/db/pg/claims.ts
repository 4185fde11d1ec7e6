/**
 * Workers taking turns on locations through PostgreSQL's own locks: a session-level advisory lock
 * per location (named by its key's fingerprint), held on the worker's session connection while it
 * syncs the location. The lock dies with the connection, so a worker killed mid-run hands its
 * locations over at once; location_claims keeps the history of the turns.
 */
import { hostname } from "node:os";
import type { ClaimAnswer, ClaimEnd, LocationClaims } from "../destination.js";
import { closeAbandonedRuns } from "./checkpoints.js";
import type { PgClient } from "./connect.js";
import type { LockSession } from "./session.js";

const LOCATION_LOCK = "hashtextextended('pos-sync location ' || $1::text, 0)";

/** The location a key reads, once stored (`param` the key's fingerprint). */
function keyLocation(param: string): string {
  return `(SELECT id FROM locations WHERE api_key_fingerprint = ${param})`;
}

/** This process, as location_claims and status name it. */
export const WORKER_NAME = `${hostname()}:${process.pid}`;

/**
 * Records that a key reads `locationId`, as soon as the sync knows it: on the turn running now
 * and on the key's turns that ended before anyone knew (a worker killed before it read the
 * location). Only this worker's turn on the key can be running: it holds the key's lock.
 */
export async function recordClaimLocation(
  client: PgClient,
  fingerprint: string,
  locationId: string,
): Promise<void> {
  await client.query(
    `UPDATE location_claims SET location_id = $2
     WHERE key_fingerprint = $1 AND (location_id IS NULL OR status = 'running')
       AND location_id IS DISTINCT FROM $2`,
    [fingerprint, locationId],
  );
}

export class PgLocationClaims implements LocationClaims {
  /** The fingerprint each open claim holds the lock of. */
  private readonly held = new Map<number, string>();
  /** When the run started, by the server's clock (checkpoints.startRun). */
  private runStartedAt: string | undefined;

  /**
   * @param session the connection that holds the locks (one per worker, kept open)
   * @param run runs the work on a connection of the pool
   */
  constructor(
    private readonly session: LockSession,
    private readonly run: <T>(work: (client: PgClient) => Promise<T>) => Promise<T>,
  ) {}

  /** A new run, started at `serverStartedAt` by the server's clock. */
  startRun(serverStartedAt: string): void {
    this.runStartedAt = serverStartedAt;
  }

  async claim(fingerprint: string, runId: number): Promise<ClaimAnswer> {
    const { rows } = await this.session.use((session) =>
      session.query<{ taken: boolean }>(`SELECT pg_try_advisory_lock(${LOCATION_LOCK}) AS taken`, [
        fingerprint,
      ]),
    );
    if (!rows[0]?.taken) return { outcome: "held", holder: await this.holder(fingerprint) };
    try {
      // With the lock held, no turn is running: one that ended since the run started did this
      // run's work (the workers need not sync a location each).
      const doneBy = await this.finishedSinceRunStarted(fingerprint);
      if (doneBy !== undefined) {
        await this.unlock(fingerprint);
        return { outcome: "done", by: doneBy };
      }
      const claimId = await this.run(async (client) => {
        await this.closeDeadTurns(client, fingerprint);
        // The server's clock, read after the lock was taken, stamps turns: one turn's end is
        // never after the next one's start.
        const inserted = await client.query<{ id: number }>(
          `INSERT INTO location_claims
             (key_fingerprint, location_id, run_id, worker, started_at, status)
           VALUES ($1, ${keyLocation("$1")}, $2, $3, clock_timestamp(), 'running') RETURNING id`,
          [fingerprint, runId, WORKER_NAME],
        );
        const id = inserted.rows[0]?.id;
        if (id === undefined) throw new Error("the claim was not recorded");
        return id;
      });
      this.held.set(claimId, fingerprint);
      return { outcome: "granted", claimId };
    } catch (error) {
      await this.unlock(fingerprint);
      throw error;
    }
  }

  async release(claimId: number, end: ClaimEnd): Promise<void> {
    const fingerprint = this.held.get(claimId);
    if (fingerprint === undefined) return;
    try {
      await this.run((client) =>
        client.query(
          `UPDATE location_claims SET status = $2, finished_at = clock_timestamp(),
             location_id = COALESCE(${keyLocation("$3")}, location_id)
           WHERE id = $1`,
          [claimId, end, fingerprint],
        ),
      );
    } finally {
      this.held.delete(claimId);
      await this.unlock(fingerprint);
    }
  }

  /**
   * A turn still "running" whose lock was free: its worker died, and its run with it (a run's
   * lock lives on the same session as its locations'). Both are recorded as interrupted now,
   * rather than at some later run's start.
   */
  private async closeDeadTurns(client: PgClient, fingerprint: string): Promise<void> {
    const { rows } = await client.query<{ run_id: number }>(
      `UPDATE location_claims SET status = 'interrupted', finished_at = clock_timestamp(),
         location_id = COALESCE(location_id, ${keyLocation("$1")})
       WHERE key_fingerprint = $1 AND status = 'running' RETURNING run_id`,
      [fingerprint],
    );
    if (rows.length > 0)
      await closeAbandonedRuns(client, null, [...new Set(rows.map((r) => r.run_id))]);
  }

  /**
   * The worker that finished a turn on the location since this worker's run started, if any.
   * A key's turns never overlap (one's end is before the next one's start), so such a turn is
   * one that started since, or the last one that started before: two reads on the key's index,
   * not a year of its turns.
   */
  private async finishedSinceRunStarted(fingerprint: string): Promise<string | undefined> {
    const since = this.runStartedAt;
    if (since === undefined) return undefined;
    return this.run(async (client) => {
      const { rows } = await client.query<{ worker: string }>(
        `SELECT worker FROM (
           (SELECT worker, status, finished_at FROM location_claims
            WHERE key_fingerprint = $1 AND started_at >= $2)
           UNION ALL
           (SELECT worker, status, finished_at FROM location_claims
            WHERE key_fingerprint = $1 AND started_at < $2 ORDER BY started_at DESC LIMIT 1)
         ) turn
         WHERE status IN ('done', 'failed') AND finished_at >= $2
         ORDER BY finished_at DESC LIMIT 1`,
        [fingerprint, since],
      );
      return rows[0]?.worker;
    });
  }

  private async unlock(fingerprint: string): Promise<void> {
    await this.session.use((session) =>
      session.query(`SELECT pg_advisory_unlock(${LOCATION_LOCK})`, [fingerprint]),
    );
  }

  /** The worker whose turn is running on the location, if known. */
  private holder(fingerprint: string): Promise<string | null> {
    return this.run(async (client) => {
      const { rows } = await client.query<{ worker: string }>(
        `SELECT worker FROM location_claims WHERE key_fingerprint = $1 AND status = 'running'
         ORDER BY id DESC LIMIT 1`,
        [fingerprint],
      );
      return rows[0]?.worker ?? null;
    });
  }
}
