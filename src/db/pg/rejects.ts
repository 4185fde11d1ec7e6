/** Records set aside because they broke the spec, on PostgreSQL: the same rules as
 * sqlite/rejects.ts (one row per bad record, kept up to date, removed once the API sends a
 * valid version or stops listing it), a page's rejects in one statement. */

import { type RejectedRecord, rejectKey } from "../../api/validate.js";
import { type RejectContext, rejectRow } from "../reject-rows.js";
import type { PgClient } from "./connect.js";
import { RowsInserter } from "./rows.js";
import { rejectedRecords } from "./schema.js";

// A read by id knows no window and may not know the id: it must not erase what the window read
// of the same record recorded.
const UPSERT = RowsInserter.of(
  rejectedRecords,
  `ON CONFLICT (location_id, stream, record_key) DO UPDATE SET
     run_id = excluded.run_id,
     day = COALESCE(excluded.day, rejected_records.day),
     record_id = COALESCE(excluded.record_id, rejected_records.record_id),
     reason = excluded.reason, raw = excluded.raw, rejected_at = excluded.rejected_at`,
  ["id"],
);

export async function recordRejects(
  client: PgClient,
  rejects: readonly RejectedRecord[],
  context: RejectContext,
): Promise<void> {
  // One row per key: the server refuses to update a row twice in one statement.
  const byKey = new Map(rejects.map((reject) => [rejectKey(reject), reject]));
  await UPSERT.insert(
    client,
    [...byKey.values()].map((reject) => rejectRow(reject, context)),
  );
}

/** Forgets the rejects of records that have now been stored valid. */
export async function resolveStoredRejects(
  client: PgClient,
  locationId: string,
  stream: string,
  storedIds: readonly string[],
): Promise<void> {
  if (storedIds.length === 0) return;
  await client.query(
    "DELETE FROM rejected_records WHERE location_id = $1 AND stream = $2 AND record_key = ANY($3::text[])",
    [locationId, stream, storedIds],
  );
}

/** Forgets the rejects of a list (day null) or a day window that its latest complete read no
 * longer returned as rejects. */
export async function keepOnlyRejects(
  client: PgClient,
  locationId: string,
  stream: string,
  day: string | null,
  keys: readonly string[],
): Promise<number> {
  const inDay = day === null ? "" : "AND day = $4";
  const result = await client.query(
    `DELETE FROM rejected_records WHERE location_id = $1 AND stream = $2 ${inDay}
     AND NOT (record_key = ANY($3::text[]))`,
    day === null ? [locationId, stream, keys] : [locationId, stream, keys, day],
  );
  return result.rowCount ?? 0;
}
