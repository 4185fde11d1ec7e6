/** A record set aside because it broke the spec, as a row of rejected_records, and where it is
 * filed (its run, location, stream and day): the same on both destinations. */
import { type RejectedRecord, rejectKey } from "../api/validate.js";

export interface RejectContext {
  runId: number | null;
  locationId: string;
  stream: string;
  day: string | null;
  rejectedAt: string;
  /** The id the record was requested by, for a read by id of a record without a usable id. */
  requestedId?: string;
}

/** Where a location record that breaks the spec is set aside: under its own id, if any. */
export function locationRejectContext(
  reject: RejectedRecord,
  context: { runId: number | null; rejectedAt: string },
): RejectContext {
  return { ...context, locationId: reject.recordId ?? "unknown", stream: "location", day: null };
}

/** Where the rejects of a page of a day window are set aside: under its stream and day. */
export function pageRejectContext(
  stream: string,
  page: { runId: number | null; locationId: string; day: string; syncedAt: string },
): RejectContext {
  const { runId, locationId, day, syncedAt } = page;
  return { runId, locationId, stream, day, rejectedAt: syncedAt };
}

/** Where the rejects of a list the API returns whole are set aside: under the list, no day. */
export function listRejectContext(
  list: string,
  context: { runId: number | null; locationId: string; syncedAt: string },
): RejectContext {
  return { ...context, stream: list, day: null, rejectedAt: context.syncedAt };
}

/** The row of rejected_records that sets a reject aside. */
export function rejectRow(reject: RejectedRecord, context: RejectContext) {
  return {
    run_id: context.runId,
    location_id: context.locationId,
    stream: context.stream,
    day: context.day,
    record_id: reject.recordId ?? context.requestedId ?? null,
    record_key: rejectKey(reject),
    reason: reject.reason,
    raw: reject.raw,
    rejected_at: context.rejectedAt,
  };
}
