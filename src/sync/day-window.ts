/**
 * One day window of one stream: read every page with since = until = day, store each page in its
 * own transaction, then prove the window complete (every record the API listed is stored or set
 * aside, and the count did not move) or read it again, a bounded number of times.
 */
import type { PosApiClient } from "../api/client.js";
import { type RejectedRecord, rejectKey } from "../api/validate.js";
import { accountedFor, type DayAccount, dayAgrees } from "../proof/agreement.js";
import { type DayStreamDescription, readDays } from "../streams/index.js";
import type { RepairFinding, WindowStatus } from "../vocabulary.js";
import { type SyncContext, timestamp } from "./context.js";
import { escalateOrDescribe } from "./failures.js";
import { addCounts, type StreamStats } from "./stats.js";
import { markVanishedRecords } from "./vanished-records.js";

/** Reads of one window in a run before it is left incomplete for the next run. */
export const MAX_READS = 3;

export interface WindowOutcome {
  status: WindowStatus | "interrupted";
  apiTotalCount: number | null;
  storedCount: number | null;
  records: number;
  error: string | null;
}

interface ReadResult {
  interrupted: boolean;
  listedIds: string[];
  rejects: RejectedRecord[];
  apiTotalCount: number | null;
  countChanged: boolean;
  endedBy: string | null;
}

/** A day window a run reads. */
export interface WindowTask {
  stream: DayStreamDescription;
  day: string;
  /** Why the day is read again, when it is a repair: recorded with what the read did. */
  finding?: RepairFinding;
}

async function readWindow(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  { stream, day, finding }: WindowTask,
  stats: StreamStats,
): Promise<ReadResult> {
  const walk = readDays(stream, client, { since: day, until: day });
  const listedIds: string[] = [];
  const rejects: RejectedRecord[] = [];
  for await (const page of walk) {
    for (const { record } of page.records) listedIds.push(record.id);
    rejects.push(...page.rejects);
    const counts = await context.pages.store(stream, {
      locationId,
      day,
      records: page.records,
      rejects: page.rejects,
      runId: context.runId,
      syncedAt: timestamp(context),
      ...(finding ? { rewrite: finding.rewrite ?? [] } : {}),
    });
    addCounts(stats, counts);
    if (context.signal.aborted)
      return {
        interrupted: true,
        listedIds,
        rejects,
        apiTotalCount: null,
        countChanged: false,
        endedBy: null,
      };
  }
  const { summary } = walk;
  return {
    interrupted: false,
    listedIds,
    rejects,
    apiTotalCount: summary.lastTotalCount,
    countChanged: summary.countChanged,
    endedBy: summary.endedBy,
  };
}

/** Why a read does not prove the window complete, or null when it does: the walk held together,
 * and the day agrees (agreement.ts) with the records the read listed, as stored, and those it
 * set aside. */
function incompleteReason(read: ReadResult, day: DayAccount): string | null {
  if (read.countChanged) return "the API's count changed while the window was read";
  if (read.endedBy === "page-bound" || read.endedBy === "no-progress")
    return `the pages stopped making sense (${read.endedBy})`;
  if (!dayAgrees(day))
    return `stored ${accountedFor(day)} of the ${read.apiTotalCount} records the API counts`;
  return null;
}

export async function syncDayWindow(
  context: SyncContext,
  client: PosApiClient,
  locationId: string,
  task: WindowTask,
  stats: StreamStats,
): Promise<WindowOutcome> {
  const { stream, day } = task;
  let outcome: WindowOutcome = {
    status: "incomplete",
    apiTotalCount: null,
    storedCount: null,
    records: 0,
    error: null,
  };
  try {
    for (let read = 1; read <= MAX_READS; read++) {
      const result = await readWindow(context, client, locationId, task, stats);
      const records = result.listedIds.length + result.rejects.length;
      if (result.interrupted)
        return { ...outcome, status: "interrupted", records, error: "interrupted" };
      // Rejects without an id may come twice when pages shift: count each record once.
      const account: DayAccount = {
        apiCount: result.apiTotalCount,
        stored: await context.destination.countStored(stream, result.listedIds),
        rejected: new Set(result.rejects.map(rejectKey)).size,
      };
      const storedCount = accountedFor(account);
      const reason = incompleteReason(result, account);
      outcome = {
        status: reason ? "incomplete" : "complete",
        apiTotalCount: result.apiTotalCount,
        storedCount,
        records,
        error: reason,
      };
      if (!reason) {
        await context.destination.forgetFixedRejects(stream, locationId, day, result.rejects);
        const suspicion = await markVanishedRecords(
          context,
          client,
          stream,
          { locationId, day },
          result,
          stats,
        );
        if (suspicion) outcome = { ...outcome, status: "suspicious", error: suspicion };
        break;
      }
      if (!result.countChanged) break;
      context.logger.debug(
        { locationId, stream: stream.name, day, read },
        "the count moved during the read; reading the window again",
      );
    }
  } catch (error) {
    if (context.signal.aborted) return { ...outcome, status: "interrupted", error: "interrupted" };
    outcome = { ...outcome, status: "failed", error: escalateOrDescribe(error) };
  }
  return outcome;
}
