/** What the checkpoints and the run log say: each day window's state and proof, the runs
 * recorded and how far the audit has gone. */

import { DAY_STREAMS, type DayStream, type Stream, type WindowStatus } from "../../vocabulary.js";
import type { ReadSession } from "./session.js";

/** A proved window of a day stream, as the audit picks what to re-prove. */
export interface ProvedWindow {
  stream: DayStream;
  day: string;
  provedAt: string | null;
}

/** How far the audit has re-proved a location's history (status). */
export interface AuditCoverage {
  /** Complete windows of the day streams before the day asked for. */
  windows: number;
  /** The oldest proof among them: every one was proved since. */
  provedSince: string | null;
  /** Those last proved by the audit. */
  audited: number;
  /** Repairs found since `repairsSince`, and how many of them failed on a day still not
   * proved complete. */
  repairs: number;
  failedRepairs: number;
}

/** One recorded day window, as status reads it. */
export interface WindowRow {
  day: string;
  status: string;
  last_error: string | null;
  synced_at: string;
  /** What the API counted for the day at the last read, and what was stored of it. */
  api_total_count: number | null;
  stored_count: number | null;
}

export type LatestWindow = Pick<WindowRow, "status" | "last_error" | "synced_at">;

/** A run as recorded in sync_runs. */
export interface RunRow {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  trigger: string;
  requests: number | null;
  /** Attempts retried, and answers that asked to slow down (429): null for runs recorded before
   * they were counted. */
  retries: number | null;
  rateLimited: number | null;
  error: string | null;
  pid: number | null;
  hostname: string | null;
}

/** A location's outcome in one recorded run, from its stats: a key the API rejected is known
 * only here when its location was never read. */
export interface RunLocationOutcome {
  runId: number;
  /** The key's fingerprint (key#1a2b3c4d). */
  key: string;
  locationId: string | null;
  name: string | null;
  /** The name the configuration file gives the location, if any. */
  label: string | null;
  error: string | null;
  keyRejected: boolean;
}

const textOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** The locations of a run's stats (JSON text from SQLite, a parsed document from PostgreSQL);
 * none from stats of another shape, written by another version. */
function runLocationOutcomes(run: { id: number; stats: unknown }): RunLocationOutcome[] {
  const stats = typeof run.stats === "string" ? JSON.parse(run.stats) : run.stats;
  const locations: unknown = stats?.locations;
  if (!Array.isArray(locations)) return [];
  return locations
    .filter((location) => typeof location?.key === "string")
    .map((location) => ({
      runId: Number(run.id),
      key: location.key,
      locationId: textOrNull(location.locationId),
      name: textOrNull(location.name),
      label: textOrNull(location.label),
      error: textOrNull(location.error),
      keyRejected: location.keyRejected === true,
    }));
}

export class CheckpointReads {
  constructor(private readonly db: ReadSession) {}

  /** Status of every recorded day of one location and stream. */
  async windows(locationId: string, stream: Stream): Promise<Map<string, WindowStatus>> {
    const rows = await this.db.all<{ day: string; status: WindowStatus }>(
      `SELECT day, status FROM sync_windows WHERE location_id = ${this.db.p(1)} AND stream = ${this.db.p(2)}`,
      [locationId, stream],
    );
    return new Map(rows.map((r) => [r.day, r.status]));
  }

  /** The first day ever recorded for a location's day streams, if any. */
  async firstRecordedDay(locationId: string): Promise<string | undefined> {
    const row = await this.db.one<{ first: string | null }>(
      `SELECT MIN(day) AS first FROM sync_windows
       WHERE location_id = ${this.db.p(1)} AND ${this.db.dialect.inList("stream", 2)}`,
      [locationId, [...DAY_STREAMS]],
    );
    return row?.first ?? undefined;
  }

  /** Every recorded window of a location and stream, oldest first. */
  windowRows(locationId: string, stream: Stream): Promise<WindowRow[]> {
    return this.db.all(
      `SELECT day, status, last_error, synced_at, api_total_count, stored_count FROM sync_windows
       WHERE location_id = ${this.db.p(1)} AND stream = ${this.db.p(2)} ORDER BY day`,
      [locationId, stream],
    );
  }

  /** The latest window of a location and stream (a snapshot stream records one per day). */
  latestWindow(locationId: string, stream: Stream): Promise<LatestWindow | undefined> {
    return this.db.one(
      `SELECT status, last_error, synced_at FROM sync_windows
       WHERE location_id = ${this.db.p(1)} AND stream = ${this.db.p(2)} ORDER BY day DESC LIMIT 1`,
      [locationId, stream],
    );
  }

  async lastRun(): Promise<RunRow | undefined> {
    return (await this.recentRuns(1))[0];
  }

  /** The latest runs, newest first. */
  recentRuns(limit: number): Promise<RunRow[]> {
    const { statsField } = this.db.dialect;
    return this.db.all(
      `SELECT id, started_at AS "startedAt", finished_at AS "finishedAt", status, "trigger",
         requests, ${statsField("retries")} AS retries,
         ${statsField("rateLimited")} AS "rateLimited", error, pid, hostname
       FROM sync_runs ORDER BY id DESC LIMIT ${this.db.p(1)}`,
      [limit],
    );
  }

  async lastSuccessAt(): Promise<string | null> {
    const row = await this.db.one<{ at: string | null }>(
      "SELECT MAX(finished_at) AS at FROM sync_runs WHERE status = 'succeeded'",
    );
    return row?.at ?? null;
  }

  /** Each location's outcome in the latest run that ended of itself (an interrupted one
   * reached only some locations). */
  async lastRunLocations(): Promise<RunLocationOutcome[]> {
    const run = await this.db.one<{ id: number; stats: unknown }>(
      `SELECT id, stats FROM sync_runs
       WHERE stats IS NOT NULL AND status IN ('succeeded', 'partial', 'failed')
       ORDER BY id DESC LIMIT 1`,
    );
    return run ? runLocationOutcomes(run) : [];
  }

  /** The audit's pace for a location as audit.ts saved it, or undefined before its first. */
  auditPace(locationId: string): Promise<string | undefined> {
    return this.db.state(locationId, "audit_pace");
  }

  /** The complete windows of the day streams before `before`, least recently proved first. */
  async provedWindows(locationId: string, before: string): Promise<ProvedWindow[]> {
    const rows = await this.db.all<{ stream: DayStream; day: string; proved_at: string | null }>(
      `SELECT stream, day, proved_at FROM sync_windows
       WHERE location_id = ${this.db.p(1)} AND ${this.db.dialect.inList("stream", 3)} AND status = 'complete'
         AND day < ${this.db.p(2)}
       ORDER BY proved_at IS NOT NULL, proved_at, day, stream`,
      [locationId, before, [...DAY_STREAMS]],
    );
    return rows.map((row) => ({ stream: row.stream, day: row.day, provedAt: row.proved_at }));
  }

  /** The audit's coverage of a location's history before `before`, and its repairs since
   * `repairsSince`. */
  async auditCoverage(
    locationId: string,
    before: string,
    repairsSince: string,
  ): Promise<AuditCoverage> {
    const windows = await this.db.one<{
      n: unknown;
      proved: unknown;
      since: string | null;
      audited: unknown;
    }>(
      `SELECT COUNT(*) AS n, COUNT(proved_at) AS proved, MIN(proved_at) AS since,
         SUM(CASE WHEN proved_by = 'audit' THEN 1 ELSE 0 END) AS audited
       FROM sync_windows
       WHERE location_id = ${this.db.p(1)} AND ${this.db.dialect.inList("stream", 3)} AND status = 'complete'
         AND day < ${this.db.p(2)}`,
      [locationId, before, [...DAY_STREAMS]],
    );
    // A failed repair a later run mended is no longer one to worry about; a read again that
    // wrote nothing repaired nothing.
    const repairs = await this.db.one<{ n: unknown; failed: unknown }>(
      `SELECT SUM(CASE WHEN h.outcome <> 'unchanged' THEN 1 ELSE 0 END) AS n,
         SUM(CASE WHEN h.outcome = 'failed' AND COALESCE(w.status, '') NOT IN ('complete', 'open')
           THEN 1 ELSE 0 END) AS failed
       FROM history_repairs h
       LEFT JOIN sync_windows w
         ON w.location_id = h.location_id AND w.stream = h.stream AND w.day = h.day
       WHERE h.location_id = ${this.db.p(1)} AND h.found_at >= ${this.db.p(2)}`,
      [locationId, repairsSince],
    );
    const count = Number(windows?.n ?? 0);
    return {
      windows: count,
      // A window never proved (recorded before proofs were kept) leaves no "since".
      provedSince: count > 0 && Number(windows?.proved) === count ? (windows?.since ?? null) : null,
      audited: Number(windows?.audited ?? 0),
      repairs: Number(repairs?.n ?? 0),
      failedRepairs: Number(repairs?.failed ?? 0),
    };
  }
}
