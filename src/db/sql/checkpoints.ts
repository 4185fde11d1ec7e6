/**
 * The run log's and the checkpoints' writes as SQL both destinations run (sync_runs,
 * sync_windows, sync_state), each with its parameters in order. What differs stays with each:
 * SQLite has one writer, PostgreSQL several workers that lock their runs (pg/checkpoints.ts).
 */

import type { RepairFinding, RunStatus, Stream, WindowStatus } from "../../vocabulary.js";
import type { SqlDialect } from "./dialect.js";

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

/** A window read: recorded, or its record replaced with one more attempt counted. A complete
 * read (complete or open) proves it; any other keeps the proof it had. */
export function recordWindowSql(d: SqlDialect): string {
  return `INSERT INTO sync_windows (location_id, stream, day, status, api_total_count,
      stored_count, attempts, last_error, run_id, synced_at, proved_at, proved_by)
    VALUES (${params(d, 6)}, 1, ${d.param(7)}, ${d.param(8)}, ${d.param(9)}, ${d.param(10)},
      ${d.param(11)})
    ON CONFLICT (location_id, stream, day) DO UPDATE SET
      status = excluded.status, api_total_count = excluded.api_total_count,
      stored_count = excluded.stored_count, attempts = sync_windows.attempts + 1,
      last_error = excluded.last_error, run_id = excluded.run_id, synced_at = excluded.synced_at,
      proved_at = COALESCE(excluded.proved_at, sync_windows.proved_at),
      proved_by = COALESCE(excluded.proved_by, sync_windows.proved_by)`;
}

/** A window re-proved by the audit without reading it again: location, stream, day, now. */
export function recordAuditProofSql(d: SqlDialect): string {
  return `UPDATE sync_windows SET proved_at = ${d.param(4)}, proved_by = 'audit'
    WHERE location_id = ${d.param(1)} AND stream = ${d.param(2)} AND day = ${d.param(3)}`;
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
    ...(isProved(window.status) ? [now, "read"] : [null, null]),
  ];
}

/** A window whose read proved it holds what the API lists. */
function isProved(status: WindowStatus): boolean {
  return status === "complete" || status === "open";
}

/** One named value remembered for a location: location, name, value, now. */
export function saveStateSql(d: SqlDialect): string {
  return `INSERT INTO sync_state (location_id, name, value, updated_at) VALUES (${params(d, 4)})
    ON CONFLICT (location_id, name) DO UPDATE SET
      value = excluded.value, updated_at = excluded.updated_at`;
}

/** A repair as recorded in history_repairs: what was found, and what reading the day again did. */
export interface RepairRecord extends RepairFinding {
  locationId: string;
  stream: Stream;
  foundAt: string;
  runId: number;
  outcome: "repaired" | "unchanged" | "failed";
  inserted: number;
  updated: number;
  deleted: number;
}

export function recordRepairSql(d: SqlDialect): string {
  return `INSERT INTO history_repairs (location_id, stream, day, found_by, found_at, api_count,
      stored_count, missing, changed, extra, run_id, outcome, inserted, updated, deleted)
    VALUES (${params(d, 15)})`;
}

export function recordRepairParams(r: RepairRecord): unknown[] {
  return [
    r.locationId,
    r.stream,
    r.day,
    r.foundBy,
    r.foundAt,
    r.apiCount,
    r.storedCount,
    r.missing,
    r.changed,
    r.extra,
    r.runId,
    r.outcome,
    r.inserted,
    r.updated,
    r.deleted,
  ];
}
