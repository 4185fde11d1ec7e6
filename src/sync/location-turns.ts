/**
 * Taking turns on locations with other workers that share the destination (PostgreSQL): a
 * location is synced only while this worker holds it. One held by another worker is waited for:
 * once its turn ends, a turn finished since this run started means the location is done, and a
 * turn cut short (its worker died) means this worker takes it over, within seconds.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LimitFunction } from "p-limit";
import type { ClaimEnd, LocationClaims } from "../db/destination.js";
import type { SyncContext } from "./context.js";

/** How often a location another worker holds is asked for again. */
export const CLAIM_RETRY_MS = 1_000;

export type TurnOutcome =
  | { outcome: "synced" | "stopped" }
  /** Another worker's turn (`by`, host:pid) finished the location since this run started. */
  | { outcome: "synced elsewhere"; by: string | null };

/** Waits, or less when the run stops. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal }).catch(() => {});
}

export interface Turn {
  claims: LocationClaims;
  /** The location's key, by fingerprint. */
  fingerprint: string;
  /** Bounds the locations this worker holds at once, so that other workers find some free. */
  slots: LimitFunction;
  retryMs?: number;
}

type Attempt =
  | { outcome: "synced" }
  | { outcome: "done"; by: string | null }
  | { outcome: "held"; holder: string | null };

/** One try: claims the location and, when granted, syncs it in this worker's turn. */
async function attempt(
  context: SyncContext,
  turn: Turn,
  sync: () => Promise<void>,
): Promise<Attempt> {
  const answer = await turn.claims.claim(turn.fingerprint, context.runId);
  if (answer.outcome !== "granted") return answer;
  let end: ClaimEnd = "failed";
  try {
    await sync();
    end = context.signal.aborted ? "interrupted" : "done";
  } finally {
    await turn.claims.release(answer.claimId, end);
  }
  return { outcome: "synced" };
}

/** Syncs the location with `sync` in this worker's turn, or leaves it to the worker that did. */
export async function syncInTurn(
  context: SyncContext,
  turn: Turn,
  sync: () => Promise<void>,
): Promise<TurnOutcome> {
  let reported = false;
  const stopped = { outcome: "stopped" } as const;
  for (;;) {
    if (context.signal.aborted) return stopped;
    const tried = await turn.slots(() =>
      context.signal.aborted ? undefined : attempt(context, turn, sync),
    );
    if (tried === undefined) return stopped;
    if (tried.outcome === "synced") return context.signal.aborted ? stopped : tried;
    if (tried.outcome === "done") return { outcome: "synced elsewhere", by: tried.by };
    if (!reported) {
      context.logger.info(
        { key: turn.fingerprint, holder: tried.holder ?? "another worker" },
        "another worker is syncing this location",
      );
      reported = true;
    }
    await pause(turn.retryMs ?? CLAIM_RETRY_MS, context.signal);
  }
}

/** Why a run synced fewer locations than it has keys: the other workers that synced them
 * (`by`, one per location left to them). Nothing when it synced them all. */
export function locationsLeftNotice(by: readonly string[], keys: number): string[] {
  if (by.length === 0) return [];
  const workers = [...new Set(by)].sort().join(", ");
  if (by.length === keys)
    return [`every location was being synced by another worker (${workers}): none was left`];
  return [`${by.length} of ${keys} locations were synced by another worker (${workers})`];
}
