/**
 * The run log's and the checkpoints' writes as SQL both destinations run (sync_runs,
 * sync_windows, sync_state), each with its parameters in order. What differs stays with each:
 * SQLite has one writer, PostgreSQL several workers that lock their runs (pg/checkpoints.ts).
 */

import type { RunStatus, Stream, WindowStatus } from "../vocabulary.js";
import type { SqlDialect } from "./sql.js";

/** The end of a run, as recorded. */
export interface RunEnd {
  status: RunStatus;
  finishedAt: string;
  stats: unknown;
  requests: number;
  error: string | null;
}

export interface WindowRecord {
  locationId: string;
  stream: Stream;
  day: string;
  status: WindowStatus;
  apiTotalCount: number | null;
  storedCount: number | null;
  lastError: string | null;
  runId: number;
}

const params = (d: SqlDialect, count: number) =>
  Array.from({ length: count }, (_, i) => d.param(i + 1)).join(", ");

/** The end of a run: its id, then what RunEnd says. */
export function finishRunSql(d: SqlDialect): string {
  return `UPDATE sync_runs SET status = ${d.param(2)}, finished_at = ${d.param(3)},
      stats = ${d.param(4)}, requests = ${d.param(5)}, error = ${d.param(6)}
    WHERE id = ${d.param(1)}`;
}

export function finishRunParams(runId: number, end: RunEnd): unknown[] {
  return [runId, end.status, end.finishedAt, JSON.stringify(end.stats), end.requests, end.error];
}

/** A window read: recorded, or its record replaced with one more attempt counted. */
export function recordWindowSql(d: SqlDialect): string {
  return `INSERT INTO sync_windows (location_id, stream, day, status, api_total_count,
      stored_count, attempts, last_error, run_id, synced_at)
    VALUES (${params(d, 6)}, 1, ${d.param(7)}, ${d.param(8)}, ${d.param(9)})
    ON CONFLICT (location_id, stream, day) DO UPDATE SET
      status = excluded.status, api_total_count = excluded.api_total_count,
      stored_count = excluded.stored_count, attempts = sync_windows.attempts + 1,
      last_error = excluded.last_error, run_id = excluded.run_id, synced_at = excluded.synced_at`;
}

export function recordWindowParams(window: WindowRecord, now: string): unknown[] {
  return [
    window.locationId,
    window.stream,
    window.day,
    window.status,
    window.apiTotalCount,
    window.storedCount,
    window.lastError,
    window.runId,
    now,
  ];
}

/** One named value remembered for a location: location, name, value, now. */
export function saveStateSql(d: SqlDialect): string {
  return `INSERT INTO sync_state (location_id, name, value, updated_at) VALUES (${params(d, 4)})
    ON CONFLICT (location_id, name) DO UPDATE SET
      value = excluded.value, updated_at = excluded.updated_at`;
}
