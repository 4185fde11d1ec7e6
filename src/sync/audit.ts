/**
 * The daemon's audit: after a location's windows, some of its stored history is proved again
 * against the API's listing (audit-plan.ts says which days), and a day that no longer agrees
 * (rows lost, a correction that left updatedAt alone, a record voided months later) is read
 * again in the same run, by the same engine, and recorded in history_repairs.
 */
import type { PosApiClient } from "../api/client.js";
import { addDays } from "../clock/days.js";
import type { ProvedWindow } from "../db/reads/checkpoints.js";
import { accountedFor, dayAgrees } from "../proof/agreement.js";
import { type DayProof, proveDay } from "../proof/day-proof.js";
import type { DayStreamDescription } from "../streams/index.js";
import { planAudit } from "./audit-plan.js";
import { type SyncContext, timestamp } from "./context.js";
import type { WindowTask } from "./day-window.js";
import { escalateOrDescribe } from "./failures.js";
import { emptyAuditStats } from "./stats.js";
import { runAll } from "./tasks.js";

/** A day read again, the way the location's windows are. */
export type ReadAgain = (task: WindowTask) => Promise<void>;

export async function auditLocation(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  streams: readonly DayStreamDescription[],
  locationToday: string,
  readAgain: ReadAgain,
): Promise<void> {
  const { destination } = context;
  const { audit } = context.scope;
  if (!audit || audit.periodDays <= 0 || context.signal.aborted) return;
  const stats = context.stats.location(client.keyFingerprint);
  stats.audit ??= emptyAuditStats();
  const auditStats = stats.audit;
  // The lookback days are read by every run already.
  const before = addDays(locationToday, -context.scope.config.lookbackDays);
  // A day this run proved by reading it needs no proving again (a backfill's first audit).
  const windows = (await destination.provedWindows(locationId, before)).filter(
    (w) =>
      streams.some((s) => s.name === w.stream) &&
      (w.provedAt === null || w.provedAt < context.startedAt),
  );
  const stopped = () => context.signal.aborted;
  const plan = planAudit(windows, {
    now: context.now(),
    periodDays: audit.periodDays,
    ...paceOf(await destination.auditPace(locationId), audit.periodDays),
  });
  const prove = async (window: ProvedWindow) => {
    const stream = streams.find((s) => s.name === window.stream);
    if (!stream) return;
    let proof: DayProof;
    try {
      proof = await proveDay(
        { locations: destination, days: destination },
        client,
        stream,
        locationId,
        window.day,
      );
    } catch (error) {
      // A day that could not be proved now stays as it was proved before: the next run tries.
      const reason = escalateOrDescribe(error);
      if (stopped()) return;
      auditStats.failed++;
      context.logger.warn(
        { locationId, stream: stream.name, day: window.day, error: reason },
        "could not prove a stored day again",
      );
      return;
    }
    auditStats.windows++;
    auditStats.requests += proof.requests;
    if (dayAgrees(proof)) {
      await destination.recordAuditProof(locationId, stream.name, window.day, timestamp(context));
      return;
    }
    auditStats.repairs++;
    context.stats.stream(client.keyFingerprint, stream.name).windows.planned++;
    const { apiCount, content, rewrite } = proof;
    const storedCount = accountedFor(proof);
    await readAgain({
      stream,
      day: window.day,
      finding: { day: window.day, foundBy: "audit", apiCount, storedCount, ...content, rewrite },
    });
  };
  // What is due goes at the pace of the run's windows; the rest one at a time, within budget.
  await runAll(plan.due, context.windowLimit, prove, stopped);
  for (const window of plan.paced) {
    if (stopped() || auditStats.requests >= audit.requests) break;
    await prove(window);
  }
  if (stopped()) return;
  const pace: SavedPace = {
    cursor: plan.cursorAfter(auditStats.windows),
    periodDays: audit.periodDays,
    since: plan.since,
  };
  await destination.saveState(locationId, "audit_pace", JSON.stringify(pace), timestamp(context));
}

/** The audit's pace as sync_state keeps it, under the period it was kept for. */
interface SavedPace {
  cursor: string;
  periodDays: number;
  /** When it started (absent from paces kept before 2026-11-29). */
  since?: string;
}

/** The pace saved for this period; none under another period (a changed period starts the
 * audit over: the whole history is proved once under the new one) or before the first audit. */
function paceOf(
  saved: string | undefined,
  periodDays: number,
): { cursor: string | undefined; since: string | undefined } {
  const none = { cursor: undefined, since: undefined };
  if (saved === undefined) return none;
  try {
    const pace = JSON.parse(saved) as Partial<SavedPace>;
    if (pace.periodDays !== periodDays || typeof pace.cursor !== "string") return none;
    return { cursor: pace.cursor, since: typeof pace.since === "string" ? pace.since : undefined };
  } catch {
    return none;
  }
}
