/**
 * The run log on PostgreSQL (sync_runs); its other statements, and the day-window checkpoints,
 * are the SQL both destinations share (../sql/checkpoints.ts).
 *
 * Several workers share the log: a run holds an advisory lock named after it on its worker's
 * session for as long as it runs, so a run whose lock is free is one whose worker died, and only
 * such runs are recorded as interrupted.
 */
import { hostname } from "node:os";
import type { RunTrigger } from "../../vocabulary.js";
import type { PgClient } from "./connect.js";

/** The advisory lock key of a run ($1 its id). */
export const RUN_LOCK = "hashtextextended('pos-sync run ' || $1::text, 0)";

/**
 * Runs left "running" by a worker that died (their lock is free) become interrupted: every such
 * run, or those among `runIds`. They end at `now`, or by the server's clock when null.
 */
export async function closeAbandonedRuns(
  client: PgClient,
  now: string | null,
  runIds?: readonly number[],
): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT id FROM sync_runs WHERE status = 'running' AND ($1::bigint[] IS NULL OR id = ANY($1))
     ORDER BY id`,
    [runIds ?? null],
  );
  let closed = 0;
  for (const { id } of rows) {
    // Taken for this transaction only: free means no worker runs it any more.
    const result = await client.query(
      `UPDATE sync_runs SET status = 'interrupted',
         finished_at = COALESCE($2::timestamptz, clock_timestamp()),
         error = 'the process ended before the run finished'
       WHERE id = $1 AND status = 'running' AND pg_try_advisory_xact_lock(${RUN_LOCK})`,
      [id, now],
    );
    closed += result.rowCount ?? 0;
  }
  return closed;
}

/** Records a run and takes its lock on `session` (a connection held for the run), in one
 * transaction: no other worker ever sees the run without its lock. */
export async function startRun(
  session: PgClient,
  trigger: RunTrigger,
  startedAt: string,
): Promise<{ runId: number; serverStartedAt: string }> {
  await session.query("BEGIN");
  try {
    const { rows } = await session.query<{ id: number; server_started_at: string }>(
      `INSERT INTO sync_runs (started_at, status, trigger, pid, hostname)
       VALUES ($1, 'running', $2, $3, $4) RETURNING id, clock_timestamp() AS server_started_at`,
      [startedAt, trigger, process.pid, hostname()],
    );
    const row = rows[0];
    if (row === undefined) throw new Error("the run was not recorded");
    await session.query(`SELECT pg_advisory_lock(${RUN_LOCK})`, [row.id]);
    await session.query("COMMIT");
    return { runId: row.id, serverStartedAt: row.server_started_at };
  } catch (error) {
    await session.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Lets go of a finished run's lock. */
export async function releaseRun(session: PgClient, runId: number): Promise<void> {
  await session.query(`SELECT pg_advisory_unlock(${RUN_LOCK})`, [runId]);
}
