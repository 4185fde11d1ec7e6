/** The run log, the day-window checkpoints and the remembered facts of each location on SQLite
 * (`sync_runs`, `sync_windows`, `sync_state`), in the SQL both destinations share
 * (sql/checkpoints.ts); their reads are the reader's (reader.ts). */
import { hostname } from "node:os";
import type Database from "better-sqlite3";
import type { RunTrigger, Stream } from "../../vocabulary.js";
import {
  finishRunParams,
  finishRunSql,
  type RepairRecord,
  type RunEnd,
  recordAuditProofSql,
  recordRepairParams,
  recordRepairSql,
  recordWindowParams,
  recordWindowSql,
  saveStateSql,
  type WindowRecord,
} from "../sql/checkpoints.js";
import { SQLITE_DIALECT } from "../sql/dialect.js";
import { numbered } from "./reader.js";

export type { WindowRecord } from "../sql/checkpoints.js";

export class Checkpoints {
  private readonly closeAbandoned: Database.Statement<[string]>;
  private readonly failUnfinished: Database.Statement<[string, string, number, string]>;
  private readonly start: Database.Statement<unknown[], { id: number }>;
  private readonly finish: Database.Statement;
  private readonly record: Database.Statement;
  private readonly save: Database.Statement;
  private readonly auditProof: Database.Statement;
  private readonly repair: Database.Statement;

  constructor(sqlite: Database.Database) {
    this.closeAbandoned = sqlite.prepare(
      `UPDATE sync_runs SET status = 'interrupted', finished_at = ?,
         error = 'the process ended before the run finished'
       WHERE status = 'running'`,
    );
    this.failUnfinished = sqlite.prepare(
      `UPDATE sync_runs SET status = 'failed', finished_at = ?, error = ?
       WHERE status = 'running' AND pid = ? AND hostname = ?`,
    );
    this.start = sqlite.prepare(
      `INSERT INTO sync_runs (started_at, status, "trigger", pid, hostname)
       VALUES (?, 'running', ?, ?, ?) RETURNING id`,
    );
    this.finish = sqlite.prepare(finishRunSql(SQLITE_DIALECT));
    this.record = sqlite.prepare(recordWindowSql(SQLITE_DIALECT));
    this.save = sqlite.prepare(saveStateSql(SQLITE_DIALECT));
    this.auditProof = sqlite.prepare(recordAuditProofSql(SQLITE_DIALECT));
    this.repair = sqlite.prepare(recordRepairSql(SQLITE_DIALECT));
  }

  /** Runs left "running" by a process that died are recorded as interrupted. */
  closeAbandonedRuns(now: string): number {
    return this.closeAbandoned.run(now).changes;
  }

  /** This process's runs still "running" once its sync thread ended without finishing them are
   * recorded failed, with what ended them (the file's writer lease makes them this run's). */
  failUnfinishedRuns(error: string, now: string): number {
    return this.failUnfinished.run(now, error, process.pid, hostname()).changes;
  }

  startRun(trigger: RunTrigger, startedAt: string): number {
    const row = this.start.get(startedAt, trigger, process.pid, hostname());
    if (!row) throw new Error("the run was not recorded");
    return row.id;
  }

  finishRun(runId: number, end: RunEnd): void {
    this.finish.run(numbered(finishRunParams(runId, end)));
  }

  recordWindow(window: WindowRecord, now: string): void {
    this.record.run(numbered(recordWindowParams(window, now)));
  }

  recordAuditProof(locationId: string, stream: Stream, day: string, now: string): void {
    this.auditProof.run(numbered([locationId, stream, day, now]));
  }

  recordRepair(repair: RepairRecord): void {
    this.repair.run(numbered(recordRepairParams(repair)));
  }

  /** Remembers one named value of a location (sync_state). */
  saveState(locationId: string, name: string, value: string, now: string): void {
    this.save.run(numbered([locationId, name, value, now]));
  }
}
