/**
 * A whole list as the API returned it (a catalog list, the devices), turned into the snapshot its
 * writer stores: the rows of each record with its place in the list, and which ids the list
 * named. Pure: both destinations' writers take it (sqlite/snapshot-writer.ts, pg/snapshot-writer.ts).
 */
import type { ValidatedRecords } from "../api/validate.js";
import type { Identified, SnapshotListTables } from "./normalize/stream-tables.js";
import type { Snapshot } from "./rules/snapshot.js";

export interface ListContext {
  locationId: string;
  syncedAt: string;
  runId: number | null;
}

export function listSnapshot(
  list: SnapshotListTables,
  validated: ValidatedRecords<Identified>,
  context: ListContext,
): Snapshot {
  const records = validated.records.map(({ record, raw }, position) => ({
    rows: list.toRows(record, raw, { ...context, position }),
    raw,
  }));
  const listedIds = new Set<string>(records.map((r) => r.rows.parent.id));
  // A listed record that failed validation is still listed: it is not marked deleted.
  for (const reject of validated.rejects) if (reject.recordId) listedIds.add(reject.recordId);
  return {
    locationId: context.locationId,
    records,
    listedIds,
    // A record without a usable id may be any stored row: then none can be marked deleted.
    complete: validated.rejects.every((r) => r.recordId !== null),
    syncedAt: context.syncedAt,
  };
}
