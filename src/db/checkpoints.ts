/** The run log, the day-window checkpoints and the remembered facts of each location
 * (`sync_runs`, `sync_windows`, `sync_state`): Drizzle, off the hot path. */
import { hostname } from "node:os";
import { and, eq, inArray, min, sql } from "drizzle-orm";
import {
  DAY_STREAMS,
  type RunStatus,
  type RunTrigger,
  type Stream,
  type WindowStatus,
} from "../vocabulary.js";
import type { Db } from "./open.js";
import { syncRuns, syncState, syncWindows } from "./schema/index.js";

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

export class Checkpoints {
  constructor(private readonly db: Db) {}

  /** Runs left "running" by a process that died are recorded as interrupted. */
  closeAbandonedRuns(now: string): number {
    return this.db.orm
      .update(syncRuns)
      .set({
        status: "interrupted",
        finished_at: now,
        error: "the process ended before the run finished",
      })
      .where(eq(syncRuns.status, "running"))
      .run().changes;
  }

  startRun(trigger: RunTrigger, startedAt: string): number {
    const [row] = this.db.orm
      .insert(syncRuns)
      .values({
        started_at: startedAt,
        status: "running",
        trigger,
        pid: process.pid,
        hostname: hostname(),
      })
      .returning({ id: syncRuns.id })
      .all();
    if (!row) throw new Error("the run was not recorded");
    return row.id;
  }

  finishRun(
    runId: number,
    result: {
      status: RunStatus;
      finishedAt: string;
      stats: unknown;
      requests: number;
      error: string | null;
    },
  ): void {
    this.db.orm
      .update(syncRuns)
      .set({
        status: result.status,
        finished_at: result.finishedAt,
        stats: JSON.stringify(result.stats),
        requests: result.requests,
        error: result.error,
      })
      .where(eq(syncRuns.id, runId))
      .run();
  }

  /** Status of every recorded day of one location and stream. */
  windows(locationId: string, stream: Stream): Map<string, WindowStatus> {
    const rows = this.db.orm
      .select({ day: syncWindows.day, status: syncWindows.status })
      .from(syncWindows)
      .where(and(eq(syncWindows.location_id, locationId), eq(syncWindows.stream, stream)))
      .all();
    return new Map(rows.map((r) => [r.day, r.status as WindowStatus]));
  }

  /** The first day of a location's history, as an incremental run settled it. */
  startDate(locationId: string): string | undefined {
    const [row] = this.db.orm
      .select({ value: syncState.value })
      .from(syncState)
      .where(and(eq(syncState.location_id, locationId), eq(syncState.name, "start_date")))
      .all();
    return row?.value;
  }

  saveStartDate(locationId: string, day: string, now: string): void {
    this.saveState(locationId, "start_date", day, now);
  }

  /** Remembers one named value of a location (sync_state). */
  saveState(locationId: string, name: string, value: string, now: string): void {
    this.db.orm
      .insert(syncState)
      .values({ location_id: locationId, name, value, updated_at: now })
      .onConflictDoUpdate({
        target: [syncState.location_id, syncState.name],
        set: { value, updated_at: now },
      })
      .run();
  }

  /** The first day ever recorded for a location's day streams, if any. */
  firstRecordedDay(locationId: string): string | undefined {
    const [row] = this.db.orm
      .select({ first: min(syncWindows.day) })
      .from(syncWindows)
      .where(
        and(eq(syncWindows.location_id, locationId), inArray(syncWindows.stream, [...DAY_STREAMS])),
      )
      .all();
    return row?.first ?? undefined;
  }

  record(window: WindowRecord, now: string): void {
    this.db.orm
      .insert(syncWindows)
      .values({
        location_id: window.locationId,
        stream: window.stream,
        day: window.day,
        status: window.status,
        api_total_count: window.apiTotalCount,
        stored_count: window.storedCount,
        attempts: 1,
        last_error: window.lastError,
        run_id: window.runId,
        synced_at: now,
      })
      .onConflictDoUpdate({
        target: [syncWindows.location_id, syncWindows.stream, syncWindows.day],
        set: {
          status: window.status,
          api_total_count: window.apiTotalCount,
          stored_count: window.storedCount,
          attempts: sql`${syncWindows.attempts} + 1`,
          last_error: window.lastError,
          run_id: window.runId,
          synced_at: now,
        },
      })
      .run();
  }
}
