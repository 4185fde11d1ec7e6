/**
 * What a run is asked to do, from the command line to the run's thread: one type, plain data, so
 * that it crosses to the thread as it is. What a command adds around it (its log, its display,
 * its signals, the database connection it holds) is the command's, not the scope's.
 */
import type { Config } from "../config/config.js";
import type { DayRange, RepairDays, RunTrigger, Stream } from "../vocabulary.js";

/** How the daemon re-proves stored days (audit.ts): POS_AUDIT_PERIOD_DAYS, POS_AUDIT_REQUESTS. */
export interface AuditSettings {
  /** Every stored day is re-proved at least this often. */
  periodDays: number;
  /** Requests per location and run for the days not yet due. */
  requests: number;
}

export interface RunScope {
  config: Config;
  trigger: RunTrigger;
  /** The streams to read; all of them when absent. */
  streams?: readonly Stream[];
  /** Explicit days, both included; absent for an incremental run. */
  range?: DayRange;
  /** Exactly these days of these locations and streams, whatever the checkpoints say (verify
   * --repair). */
  repairDays?: RepairDays;
  /** Re-prove stored days as the daemon does; absent for other runs. */
  audit?: AuditSettings;
  /** Mark deleted whatever a complete read of a day no longer lists, even most of the day
   * (deletion-guard.ts). */
  acceptDeletions?: boolean;
}
