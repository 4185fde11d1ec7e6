/**
 * What a snapshot of a list the API returns whole (catalog, devices) does to the rows stored for
 * its location: each row inserted, replaced, restored or kept, and the rows it no longer lists
 * marked deleted. Decided here once; each destination carries it out (sqlite/snapshot-writer.ts,
 * pg/snapshot-writer.ts).
 */
import type { Row } from "../schema/columns.js";

export interface SnapshotRowSet {
  parent: Row & {
    location_id: string;
    id: string;
    content_hash: number | null;
    deleted_at: string | null;
    synced_at: string;
  };
  children: readonly Row[][];
}

/** A listed record's rows, and its JSON as received for the raw archive. */
export interface IncomingListRecord {
  rows: SnapshotRowSet;
  raw: string;
}

export interface SnapshotCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows that went missing from the list in this snapshot. */
  deleted: number;
  /** Rows that came back after being missing. */
  restored: number;
}

export function emptySnapshotCounts(): SnapshotCounts {
  return { inserted: 0, updated: 0, unchanged: 0, deleted: 0, restored: 0 };
}

export interface Snapshot {
  locationId: string;
  records: readonly IncomingListRecord[];
  /** Ids the API listed, valid or not: a listed record that failed validation is not deleted. */
  listedIds: ReadonlySet<string>;
  /** False when some listed record had no usable id: then nothing can safely be marked deleted. */
  complete: boolean;
  syncedAt: string;
}

/** A row as stored, as far as a snapshot needs it. */
export interface StoredListRow {
  id: string;
  content_hash: number | null;
  deleted_at: string | null;
}

/** What a snapshot does, decided before anything is written: each destination carries it out. */
export interface SnapshotPlan {
  /** Inserted, updated, unchanged and restored (deleted: 0; the destination adds the rows it
   * marks). */
  counts: SnapshotCounts;
  /** Rows listed again with the content they were marked deleted with: they lose the mark. */
  restores: string[];
  /** Rows to insert, or to replace (`replaces`: a row is stored under its id), by id, each once
   * as its last entry in the list. */
  writes: Map<string, { record: IncomingListRecord; replaces: boolean }>;
  /** Live rows a complete list no longer names: to mark deleted. */
  vanished: string[];
}

/** Decides a snapshot against the rows stored for its location (`stored`, by id). A list that
 * names the same id twice: the later entry meets the earlier one as stored. */
export function planSnapshot(
  snapshot: Snapshot,
  stored: ReadonlyMap<string, StoredListRow>,
): SnapshotPlan {
  const counts = emptySnapshotCounts();
  const current = new Map(stored);
  const restores: string[] = [];
  const writes: SnapshotPlan["writes"] = new Map();
  for (const record of snapshot.records) {
    const { parent } = record.rows;
    const existing = current.get(parent.id);
    if (existing && existing.content_hash === parent.content_hash) {
      if (existing.deleted_at === null) counts.unchanged++;
      else {
        restores.push(existing.id);
        counts.restored++;
        current.set(existing.id, { ...existing, deleted_at: null });
      }
      continue;
    }
    if (existing) counts.updated++;
    else counts.inserted++;
    writes.set(parent.id, { record, replaces: stored.has(parent.id) });
    current.set(parent.id, { id: parent.id, content_hash: parent.content_hash, deleted_at: null });
  }
  const vanished = snapshot.complete
    ? [...current.values()]
        .filter((row) => row.deleted_at === null && !snapshot.listedIds.has(row.id))
        .map((row) => row.id)
    : [];
  return { counts, restores, writes, vanished };
}
