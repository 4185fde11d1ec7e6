/** What a run did, per location and stream: the figures of `sync_runs.stats` and the summary. */
import type { Stream } from "../vocabulary.js";

export interface StreamStats {
  /** Distinct records received (valid and rejected). */
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Snapshot rows that left their list (catalog, devices). */
  deleted: number;
  windows: { planned: number; complete: number; incomplete: number; failed: number };
  /** The API does not serve this stream at the configured path (a warning, not a failure). */
  unavailable: string[];
  errors: string[];
  /** Windows that did not complete, with why (the first few). */
  problems: { day: string; error: string }[];
  /** Windows that did not complete, all of them: `problems` keeps only the first few. */
  problemCount: number;
}

export interface LocationStats {
  /** The key's fingerprint (key#1a2b3c4d). */
  key: string;
  locationId: string | null;
  /** The location's name: the API's, or the one stored when the API could not be read. */
  name: string | null;
  /** The name the configuration file gives the location, if any. */
  label: string | null;
  /** Worth saying, though nothing failed (a start date still to come). */
  warnings: string[];
  streams: Partial<Record<Stream, StreamStats>>;
  /** Why the location stopped, when it did (a rejected key, a failed location read). */
  error: string | null;
  keyRejected: boolean;
  /** What the daemon's audit did, when it ran. */
  audit?: AuditStats;
}

/** The daemon's audit of a location's stored history in one run. */
export interface AuditStats {
  /** Stored days proved again against the API's listing. */
  windows: number;
  /** Of those, days that disagreed and were read again. */
  repairs: number;
  /** Requests the proofs took (the reads again are the windows'). */
  requests: number;
  /** Days whose proof failed (the API did not answer): proved by a later run. */
  failed: number;
}

export function emptyAuditStats(): AuditStats {
  return { windows: 0, repairs: 0, requests: 0, failed: 0 };
}

export function emptyStreamStats(): StreamStats {
  return {
    fetched: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    deleted: 0,
    windows: { planned: 0, complete: 0, incomplete: 0, failed: 0 },
    unavailable: [],
    errors: [],
    problems: [],
    problemCount: 0,
  };
}

/** What one write reported: every record it was handed is one of inserted, updated, unchanged,
 * restored (a snapshot row back in its list) or rejected. */
export interface RecordCounts {
  inserted?: number;
  updated?: number;
  unchanged?: number;
  restored?: number;
  rejected?: number;
  /** Snapshot rows that left their list. */
  deleted?: number;
}

/** Adds a write's counts to a stream's figures: the one place that says how they add up. A row
 * restored to its list counts as updated. */
export function addCounts(stats: StreamStats, counts: RecordCounts): void {
  const { inserted = 0, updated = 0, unchanged = 0, restored = 0, rejected = 0 } = counts;
  stats.inserted += inserted;
  stats.updated += updated + restored;
  stats.unchanged += unchanged;
  stats.rejected += rejected;
  stats.deleted += counts.deleted ?? 0;
  stats.fetched += inserted + updated + unchanged + restored + rejected;
}

/** Problems kept per stream: enough for a summary, bounded for a run over years of days. */
export const MAX_PROBLEMS = 20;

/** Counts a window that did not complete, and keeps it while fewer than MAX_PROBLEMS are kept. */
export function addProblem(stats: StreamStats, problem: { day: string; error: string }): void {
  stats.problemCount++;
  if (stats.problems.length < MAX_PROBLEMS) stats.problems.push(problem);
}

export class RunStats {
  readonly locations: LocationStats[] = [];

  /** Rebuilds the figures of a run that crossed a thread boundary as plain data. */
  static from(plain: { locations: LocationStats[] }): RunStats {
    const stats = new RunStats();
    stats.locations.push(...plain.locations);
    return stats;
  }

  location(key: string): LocationStats {
    let stats = this.locations.find((l) => l.key === key);
    if (!stats) {
      stats = {
        key,
        locationId: null,
        name: null,
        label: null,
        warnings: [],
        streams: {},
        error: null,
        keyRejected: false,
      };
      this.locations.push(stats);
    }
    return stats;
  }

  stream(key: string, stream: Stream): StreamStats {
    const location = this.location(key);
    location.streams[stream] ??= emptyStreamStats();
    return location.streams[stream];
  }

  /** Windows that did not complete and streams that failed, across locations. */
  get failures(): number {
    let count = 0;
    for (const location of this.locations) {
      if (location.error) count++;
      for (const stats of Object.values(location.streams)) {
        count += stats.windows.incomplete + stats.windows.failed + stats.errors.length;
      }
    }
    return count;
  }

  /** The audit's figures across locations, when it ran. */
  audit(): AuditStats | undefined {
    const audited = this.locations.flatMap((l) => (l.audit ? [l.audit] : []));
    if (audited.length === 0) return undefined;
    const total = emptyAuditStats();
    for (const audit of audited) {
      total.windows += audit.windows;
      total.repairs += audit.repairs;
      total.requests += audit.requests;
      total.failed += audit.failed;
    }
    return total;
  }

  get keyRejected(): boolean {
    return this.locations.some((l) => l.keyRejected);
  }

  totals(stream: Stream): StreamStats {
    const total = emptyStreamStats();
    for (const location of this.locations) {
      const stats = location.streams[stream];
      if (!stats) continue;
      for (const key of [
        "fetched",
        "inserted",
        "updated",
        "unchanged",
        "rejected",
        "deleted",
        "problemCount",
      ] as const)
        total[key] += stats[key];
      for (const key of ["planned", "complete", "incomplete", "failed"] as const)
        total.windows[key] += stats.windows[key];
      total.unavailable.push(...stats.unavailable);
      total.errors.push(...stats.errors);
    }
    return total;
  }
}
