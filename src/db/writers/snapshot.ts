/**
 * Writing lists that the API returns whole (catalog, devices): each call is a snapshot of one
 * location. Rows are inserted, replaced when their content hash changed, or left alone; rows
 * missing from the snapshot get `deleted_at`, and rows that come back lose it. The JSON of each
 * row written goes to the raw archive. One call, one transaction.
 */
import type Database from "better-sqlite3";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { RawArchive } from "../raw/archive.js";
import { prepareRowInsert, type Row, type RowInserter, tableName } from "./statements.js";

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

interface StoredRow {
  id: string;
  content_hash: number | null;
  deleted_at: string | null;
}

export class SnapshotWriter {
  private readonly selectStored: Database.Statement<[string], StoredRow>;
  private readonly deleteRow: Database.Statement<[string, string]>;
  private readonly restoreRow: Database.Statement<[string, string, string]>;
  private readonly markDeleted: Database.Statement<[string, string, string]>;
  private readonly insertParent: RowInserter;
  private readonly insertChildren: RowInserter[];
  private readonly name: string;

  constructor(
    sqlite: Database.Database,
    parent: SQLiteTable,
    children: readonly SQLiteTable[],
    private readonly archive: RawArchive,
  ) {
    const name = tableName(parent);
    this.name = name;
    this.selectStored = sqlite.prepare(
      `SELECT id, content_hash, deleted_at FROM "${name}" WHERE location_id = ?`,
    );
    this.deleteRow = sqlite.prepare(`DELETE FROM "${name}" WHERE location_id = ? AND id = ?`);
    this.restoreRow = sqlite.prepare(
      `UPDATE "${name}" SET deleted_at = NULL, synced_at = ? WHERE location_id = ? AND id = ?`,
    );
    this.markDeleted = sqlite.prepare(
      `UPDATE "${name}" SET deleted_at = ? WHERE location_id = ? AND id = ? AND deleted_at IS NULL`,
    );
    this.insertParent = prepareRowInsert(sqlite, parent);
    // A child repeated inside one record (a price tier listed twice) keeps its first entry; the
    // record's archived JSON still holds both.
    this.insertChildren = children.map((table) =>
      prepareRowInsert(sqlite, table, { suffix: "ON CONFLICT DO NOTHING" }),
    );
  }

  /** Writes a snapshot, inside the caller's transaction. */
  write(snapshot: Snapshot): SnapshotCounts {
    return this.writeSnapshot(snapshot);
  }

  private writeSnapshot(snapshot: Snapshot): SnapshotCounts {
    const { locationId, syncedAt } = snapshot;
    const stored = new Map(this.selectStored.all(locationId).map((row) => [row.id, row]));
    const counts = emptySnapshotCounts();

    this.archive.learnFrom(this.name, snapshot.records, syncedAt);
    for (const { rows: rowSet, raw } of snapshot.records) {
      const existing = stored.get(rowSet.parent.id);
      if (existing && existing.content_hash === rowSet.parent.content_hash) {
        if (existing.deleted_at === null) {
          counts.unchanged++;
        } else {
          this.restoreRow.run(syncedAt, locationId, existing.id);
          counts.restored++;
        }
        continue;
      }
      if (existing) this.deleteRow.run(locationId, existing.id);
      this.insertParent.run(rowSet.parent);
      for (const [i, rows] of rowSet.children.entries()) {
        for (const row of rows) this.insertChildren[i]?.run(row);
      }
      if (existing) counts.updated++;
      else counts.inserted++;
      this.archive.put({ tableName: this.name, locationId, id: rowSet.parent.id, raw, syncedAt });
      // A list that names the same id twice: the later entry meets the earlier one as stored.
      stored.set(rowSet.parent.id, {
        id: rowSet.parent.id,
        content_hash: rowSet.parent.content_hash,
        deleted_at: null,
      });
    }

    if (snapshot.complete) {
      for (const row of stored.values()) {
        if (row.deleted_at !== null || snapshot.listedIds.has(row.id)) continue;
        counts.deleted += this.markDeleted.run(syncedAt, locationId, row.id).changes;
      }
    }
    return counts;
  }
}
