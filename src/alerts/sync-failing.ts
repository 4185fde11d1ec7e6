/**
 * When the sync is failing: the one rule that the sync-failing alert (alert-rules.ts) and /healthz
 * (daemon/health.ts) both decide by, so that a monitor and a manager are never told two things.
 * docs/service.md#when-the-sync-is-failing states it for people. Pure.
 */

import { utcMinute } from "../clock/local-moment.js";
import type { RunOutcome } from "../vocabulary.js";

/** Runs in a row that failed before the sync is said to fail: one failed run is often a blip
 * that the next tick mends. */
export const FAILED_RUNS_IN_A_ROW = 3;
/** …or for how long, whatever the count (a daily schedule fails rarely but long). */
export const FAILING_FOR_MS = 3_600_000;
/** The latest runs the rule is given: more than a streak needs, so that its length is told. */
export const RUNS_DECIDED_ON = 50;

export interface SyncVerdict {
  failing: boolean;
  /** Why, in a line a manager can act on: the alert's detail and /healthz's reason alike. Times
   * in it are instants, not ages: the alert keeps its detail, and shows it hours later. */
  why: string;
}

/** A run that stored nothing: every location stopped, or the database failed. A partial run (some
 * windows or keys failing) synced the rest: the key-rejected and data-stale alerts tell of its
 * failures, and one cause is not told twice. */
const isFailure = (status: string) => status === "failed";

/** A run stopped by a signal did not fail, and one still going has not ended: neither counts. */
const ended = (status: string) => status !== "interrupted" && status !== "running";

/** The sync as a whole, from the latest runs (newest first): failing once FAILED_RUNS_IN_A_ROW
 * in a row failed, or the first of them started FAILING_FOR_MS ago — time alone turns it on, so
 * that a daemon whose every run fails is failing whatever its schedule. */
export function syncVerdict(latestRuns: readonly RunOutcome[], now: Date): SyncVerdict {
  const runs = latestRuns.filter((run) => ended(run.status));
  const firstOther = runs.findIndex((run) => !isFailure(run.status));
  const streak = firstOther === -1 ? runs : runs.slice(0, firstOther);
  const latest = streak[0];
  const first = streak.at(-1);
  if (latest === undefined || first === undefined) {
    const last = runs[0];
    return {
      failing: false,
      why:
        last === undefined
          ? "no run has ended yet"
          : last.status === "succeeded"
            ? "the last run succeeded"
            : `the last run was ${last.status}${last.error ? `: ${last.error}` : ""}`,
    };
  }
  return {
    failing:
      streak.length >= FAILED_RUNS_IN_A_ROW ||
      now.getTime() - Date.parse(first.startedAt) >= FAILING_FOR_MS,
    why: `${streak.length} run(s) in a row failed, the first at ${utcMinute(first.startedAt)}: ${latest.error ?? latest.status}`,
  };
}
