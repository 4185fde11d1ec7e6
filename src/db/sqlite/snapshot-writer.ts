/**
 * Writing lists that the API returns whole (catalog, devices): each call is a snapshot of one
 * location. Rows are inserted, replaced when their content hash changed, or left alone; rows
 * missing from the snapshot get `deleted_at`, and rows that come back lose it. The JSON of each
 * row written goes to the raw archive. One call, one transaction.
 */
import type Database from "better-sqlite3";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  planSnapshot,
  type Snapshot,
  type SnapshotCounts,
  type StoredListRow,
} from "../rules/snapshot.js";
import { tableName } from "../sql/table.js";
import type { RawArchive } from "./raw-archive.js";
import { prepareRowInsert, type RowInserter } from "./rows.js";

export class SnapshotWriter {
  private readonly selectStored: Database.Statement<[string], StoredListRow>;
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
    const plan = planSnapshot(snapshot, stored);
    this.archive.learnFrom(this.name, snapshot.records, syncedAt);
    for (const id of plan.restores) this.restoreRow.run(syncedAt, locationId, id);
    for (const [id, { record, replaces }] of plan.writes) {
      if (replaces) this.deleteRow.run(locationId, id);
      this.insertParent.run(record.rows.parent);
      for (const [i, rows] of record.rows.children.entries()) {
        for (const row of rows) this.insertChildren[i]?.run(row);
      }
      this.archive.put({ tableName: this.name, locationId, id, raw: record.raw, syncedAt });
    }
    const counts = { ...plan.counts };
    for (const id of plan.vanished)
      counts.deleted += this.markDeleted.run(syncedAt, locationId, id).changes;
    return counts;
  }
}
