/**
 * After a complete read of a day: stored records it no longer lists were voided or removed
 * upstream and are marked deleted, unless so many vanished that the read itself is suspect (see
 * deletion-guard.ts).
 *
 * An order that a stored report lists may be missing from every list and still exist: the
 * reports cross-check fetched it by id for that very reason (see cross-check.ts). Which unlisted
 * records are gone is proof/kept-on-purpose.ts's rule.
 */
import type { PosApiClient } from "../api/client.js";
import type { RejectedRecord } from "../api/validate.js";
import { sortUnlisted } from "../proof/kept-on-purpose.js";
import type { DayStreamDescription } from "../streams/index.js";
import { type SyncContext, timestamp } from "./context.js";
import { describeSuspicious, judgeDisappearance } from "./deletion-guard.js";
import { escalateOrDescribe } from "./failures.js";
import type { StreamStats } from "./stats.js";

export interface CompleteRead {
  listedIds: readonly string[];
  rejects: readonly RejectedRecord[];
}

/** Marks what vanished; returns why the window is suspicious, or null. */
export async function markVanishedRecords(
  context: SyncContext,
  client: PosApiClient,
  stream: DayStreamDescription,
  window: { locationId: string; day: string },
  read: CompleteRead,
  stats: StreamStats,
): Promise<string | null> {
  const { locationId, day } = window;
  const where = { locationId, stream: stream.name, day };
  // A record listed but rejected this time is still there upstream.
  const listed = [...read.listedIds, ...read.rejects.flatMap((r) => r.recordId ?? [])];
  const { live, unlisted } = await context.destination.unlistedRecords(
    stream,
    locationId,
    day,
    listed,
  );
  const unidentified = read.rejects.filter((r) => r.recordId === null).length;
  const counts = { stored: live, unlisted: unlisted.length };
  const verdict = judgeDisappearance(
    { ...counts, unidentified },
    context.scope.acceptDeletions ?? false,
  );
  if (verdict === "none") return null;
  if (verdict === "deferred") {
    context.logger.debug(
      { ...where, ...counts, unidentified },
      "not marking unlisted records deleted: the read set aside records without an id",
    );
    return null;
  }
  if (verdict === "suspicious") {
    const message = describeSuspicious(stream.name, day, counts);
    context.logger.warn({ ...where, ...counts }, message);
    return message;
  }
  const { gone } = await sortUnlisted(
    context.destination,
    client,
    stream,
    locationId,
    unlisted,
    (orderId, error) => {
      if (context.signal.aborted) throw error;
      context.logger.warn(
        { locationId, orderId, error: escalateOrDescribe(error) },
        "could not ask whether an unlisted order still exists; it stays until a later read",
      );
    },
  );
  const deleted = await context.destination.markDeleted(stream, gone, timestamp(context));
  stats.deleted += deleted;
  if (deleted > 0)
    context.logger.info(
      { ...where, deleted },
      "marked deleted: records the API no longer lists for this day",
    );
  return null;
}
