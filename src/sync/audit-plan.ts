import type { ProvedWindow } from "../db/reads/checkpoints.js";

/**
 * Which stored days the daemon's audit re-proves in a run. Pure: it sees the proved windows
 * (least recently proved first), the clock, the period and the audit's pace so far.
 *
 * Each run takes its share, the least recently proved first, at the pace that proves every
 * window once a period: the windows times the time the pace has to catch up, over the period.
 * The pace keeps a cursor in time that moves by exactly the share taken, so that fractions carry
 * from run to run: runs every 15 minutes with a 30-day period take one window of a year's history
 * about every fourth run. A location's first audit (and the first under a changed period) starts
 * the pace at its run: its whole history is proved within the period, a share a run, not at
 * once (60 locations × 365 days were 43,320 requests in one run). Once a pace has run a whole
 * period, windows whose last proof is older than the period are due whatever the request budget
 * (the audit's promise); the rest stop at the budget and carry to the next runs.
 */

const DAY_MS = 86_400_000;

export interface AuditPace {
  now: Date;
  periodDays: number;
  /** Where the pace stood after the location's last audit; undefined before its first. */
  cursor: string | undefined;
  /** When the pace started; undefined before the first audit. */
  since: string | undefined;
}

export interface AuditPlan {
  /** Re-proved this run whatever the budget: those proved longer ago than the period, once the
   * pace has run a whole period. */
  due: ProvedWindow[];
  /** This run's share of the others, within the request budget. */
  paced: ProvedWindow[];
  /** Where the pace stands once `proved` windows (due and paced) were proved. */
  cursorAfter(proved: number): string;
  /** When the pace started: kept for the next runs. */
  since: string;
}

/** `windows` least recently proved first, as provedWindows gives them. */
export function planAudit(windows: readonly ProvedWindow[], pace: AuditPace): AuditPlan {
  const now = pace.now.getTime();
  const periodMs = pace.periodDays * DAY_MS;
  const atNow = pace.now.toISOString();
  // A first audit starts its pace now; a pace kept before its start was (before 2026-11-29)
  // has run for longer than any period.
  const since = pace.cursor === undefined ? atNow : (pace.since ?? new Date(0).toISOString());
  if (periodMs <= 0 || windows.length === 0)
    return { due: [], paced: [], cursorAfter: () => atNow, since };
  const cursor = Date.parse(pace.cursor ?? atNow);
  const promised = Date.parse(since) <= now - periodMs;
  const overdue = (w: ProvedWindow) =>
    promised && (w.provedAt === null || Date.parse(w.provedAt) <= now - periodMs);
  const due = windows.filter(overdue);
  const behindMs = Math.min(Math.max(now - cursor, 0), periodMs);
  const share = Math.floor((windows.length * behindMs) / periodMs);
  const paced = windows.filter((w) => !overdue(w)).slice(0, Math.max(0, share - due.length));
  // What was proved moves the cursor; what the pace asked beyond it carries to the next run.
  const cursorAfter = (proved: number) => {
    const moved = Math.max(cursor, now - periodMs) + (proved * periodMs) / windows.length;
    return new Date(Math.min(moved, now)).toISOString();
  };
  return { due, paced, cursorAfter, since };
}
