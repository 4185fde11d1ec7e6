/**
 * The run log, the day-window checkpoints and the remembered facts of each location on
 * PostgreSQL (sync_runs, sync_windows, sync_state), as ../checkpoints.ts keeps them on SQLite.
 *
 * Several workers share the log: a run holds an advisory lock named after it on its worker's
 * session for as long as it runs, so a run whose lock is free is one whose worker died, and only
 * such runs are recorded as interrupted.
 */
import { hostname } from "node:os";
import { DAY_STREAMS, type RunTrigger, type Stream, type WindowStatus } from "../../vocabulary.js";
import type { WindowRecord } from "../checkpoints.js";
import type { RunEnd } from "../destination.js";
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

export async function finishRun(client: PgClient, runId: number, end: RunEnd): Promise<void> {
  await client.query(
    `UPDATE sync_runs SET status = $2, finished_at = $3, stats = $4, requests = $5, error = $6
     WHERE id = $1`,
    [runId, end.status, end.finishedAt, JSON.stringify(end.stats), end.requests, end.error],
  );
}

/** Lets go of a finished run's lock. */
export async function releaseRun(session: PgClient, runId: number): Promise<void> {
  await session.query(`SELECT pg_advisory_unlock(${RUN_LOCK})`, [runId]);
}

export async function windows(
  client: PgClient,
  locationId: string,
  stream: Stream,
): Promise<Map<string, WindowStatus>> {
  const { rows } = await client.query<{ day: string; status: WindowStatus }>(
    "SELECT day, status FROM sync_windows WHERE location_id = $1 AND stream = $2",
    [locationId, stream],
  );
  return new Map(rows.map((r) => [r.day, r.status]));
}

export async function recordWindow(
  client: PgClient,
  window: WindowRecord,
  now: string,
): Promise<void> {
  await client.query(
    `INSERT INTO sync_windows (location_id, stream, day, status, api_total_count, stored_count,
       attempts, last_error, run_id, synced_at)
     VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9)
     ON CONFLICT (location_id, stream, day) DO UPDATE SET
       status = excluded.status, api_total_count = excluded.api_total_count,
       stored_count = excluded.stored_count, attempts = sync_windows.attempts + 1,
       last_error = excluded.last_error, run_id = excluded.run_id, synced_at = excluded.synced_at`,
    [
      window.locationId,
      window.stream,
      window.day,
      window.status,
      window.apiTotalCount,
      window.storedCount,
      window.lastError,
      window.runId,
      now,
    ],
  );
}

/** One named value remembered for a location (sync_state). */
export async function state(
  client: PgClient,
  locationId: string,
  name: string,
): Promise<string | undefined> {
  const { rows } = await client.query<{ value: string }>(
    "SELECT value FROM sync_state WHERE location_id = $1 AND name = $2",
    [locationId, name],
  );
  return rows[0]?.value;
}

export async function saveState(
  client: PgClient,
  locationId: string,
  name: string,
  value: string,
  now: string,
): Promise<void> {
  await client.query(
    `INSERT INTO sync_state (location_id, name, value, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (location_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    [locationId, name, value, now],
  );
}

/** The first day ever recorded for a location's day streams, if any. */
export async function firstRecordedDay(
  client: PgClient,
  locationId: string,
): Promise<string | undefined> {
  const { rows } = await client.query<{ first: string | null }>(
    "SELECT min(day) AS first FROM sync_windows WHERE location_id = $1 AND stream = ANY($2::text[])",
    [locationId, [...DAY_STREAMS]],
  );
  return rows[0]?.first ?? undefined;
}
