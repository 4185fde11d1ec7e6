/**
 * Writing records that have an id of their own (orders, reports): new ones are inserted, changed
 * ones replaced with all their child rows, unchanged ones left alone (told apart by their content
 * hash). The JSON of each record written goes to the raw archive. Records a complete read of
 * their day no longer lists are marked deleted (soft: their rows stay for audit, every view
 * leaves them out) and come back when listed again. Runs inside the caller's transaction, so a
 * page is stored entirely or not at all.
 */
import type Database from "better-sqlite3";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  emptyCounts,
  type IncomingRecord,
  planPage,
  type StoredVersion,
  type WriteOutcome,
} from "../rules/day-page.js";
import type { RowSet } from "../rules/record-rows.js";
import { relationName, relationOf } from "../schema/relations.js";
import { SQLITE_DIALECT } from "../sql/dialect.js";
import { onConflictUpdate, tableName } from "../sql/table.js";
import { markVanishedSql, vanishedDaysSql } from "../sql/vanished-records.js";
import type { ApiIds } from "./api-ids.js";
import type { VersionHistory } from "./history.js";
import type { RawArchive } from "./raw-archive.js";
import {
  type ChildInserter,
  prepareChildInsert,
  prepareRowInsert,
  type RowInserter,
} from "./rows.js";

/** A list of ids, as the shared statements bind it (parameter 1). */
type Ids = { 1: unknown };

export class ReplacingWriter {
  private readonly selectStored: Database.Statement<[string], StoredVersion>;
  private readonly deleteParent: Database.Statement<[string]>;
  private readonly insertParent: RowInserter;
  private readonly insertChildren: ChildInserter[];
  private readonly rewriteParent: RowInserter;
  private readonly selectKey: Database.Statement<[string], { key: number }>;
  /** The child rows of a record, by its key: the deepest tables first. */
  private readonly deleteChildren: Database.Statement<[number]>[];
  private readonly listedDays: Database.Statement<[Ids], { locationId: string; day: string }>;
  private readonly markVanished: Database.Statement<[Ids & { 2: string }]>;
  private readonly name: string;

  constructor(
    sqlite: Database.Database,
    parent: SQLiteTable,
    children: readonly SQLiteTable[],
    private readonly archive: RawArchive,
    /** The keys of the ids the rows keep by key. */
    apiIds: ApiIds,
    /** Keeps the versions this writer replaces, when the stream keeps a history. */
    private readonly history?: VersionHistory,
  ) {
    // Writes go to the table; the records' name (the raw archive's) is their relation's.
    const name = tableName(parent);
    this.name = relationName(parent);
    // One query per page, whatever its size: the ids travel as one JSON array.
    this.selectStored = sqlite.prepare(
      `SELECT id, updated_at, business_date, content_hash, deleted_at FROM "${name}" WHERE id IN (SELECT value FROM json_each(?))`,
    );
    // Child rows go with their parent through ON DELETE CASCADE.
    this.deleteParent = sqlite.prepare(`DELETE FROM "${name}" WHERE id = ?`);
    this.insertParent = prepareRowInsert(sqlite, parent, { apiIds });
    this.insertChildren = children.map((table) => prepareChildInsert(sqlite, table, apiIds));
    this.rewriteParent = prepareRowInsert(sqlite, parent, {
      apiIds,
      suffix: onConflictUpdate(parent, ["id"], ["synced_at"]),
    });
    this.selectKey = sqlite.prepare(`SELECT key FROM "${name}" WHERE id = ?`);
    this.deleteChildren = children
      .map((table) =>
        sqlite.prepare<[number]>(
          `DELETE FROM "${tableName(table)}" WHERE "${relationOf(table).parentKey}" = ?`,
        ),
      )
      .reverse();
    this.listedDays = sqlite.prepare(vanishedDaysSql(SQLITE_DIALECT, this.name));
    this.markVanished = sqlite.prepare(markVanishedSql(SQLITE_DIALECT, name));
  }

  /** Writes a page of records; `repair`, on a repair's read: the records it writes again
   * whatever their content hash says (decide). */
  write(
    records: readonly IncomingRecord[],
    syncedAt: string,
    repair?: ReadonlySet<string>,
  ): WriteOutcome {
    if (records.length === 0) return { counts: emptyCounts(), earlierDays: [] };
    return this.writeRows(records, syncedAt, repair);
  }

  /** Marks records deleted upstream, keeping their versions: how many, and the location days
   * of those it marked (sql/vanished-records.ts). */
  markDeleted(
    ids: readonly string[],
    at: string,
  ): { marked: number; days: { locationId: string; day: string }[] } {
    const listed = { 1: SQLITE_DIALECT.list(ids) };
    const days = this.listedDays.all(listed);
    this.history?.keepVanished(ids, at);
    return { marked: this.markVanished.run({ ...listed, 2: at }).changes, days };
  }

  private storedVersions(records: readonly IncomingRecord[]): Map<string, StoredVersion> {
    const stored = new Map<string, StoredVersion>();
    for (const row of this.selectStored.all(JSON.stringify(records.map((r) => r.rows.parent.id))))
      stored.set(row.id, row);
    return stored;
  }

  private writeRows(
    records: readonly IncomingRecord[],
    syncedAt: string,
    repair: ReadonlySet<string> | undefined,
  ): WriteOutcome {
    // What a page that failed left gathered went with its transaction.
    for (const inserter of this.insertChildren) inserter.drop();
    const plan = planPage(records, this.storedVersions(records), repair);
    this.archive.learnFrom(this.name, records, syncedAt);
    const counts = { ...plan.counts };
    for (const rowSet of plan.rewrites.values()) counts.rowsWritten += this.rewriteRecord(rowSet);
    // The rewritten records' rows go in before any delete below, which may be of one of them.
    this.insertGathered();
    for (const [id, { record, replaces }] of plan.writes) {
      const { rows: rowSet, raw, compressed } = record;
      if (replaces) {
        if (this.history && replaces.deleted_at === null)
          counts.rowsWritten += this.history.keepReplaced(
            id,
            rowSet,
            syncedAt,
            repair !== undefined,
          );
        this.deleteParent.run(id);
      }
      counts.rowsWritten += this.insertRecord(rowSet);
      counts.rowsWritten += this.archive.put(
        {
          tableName: this.name,
          locationId: rowSet.parent.location_id,
          id,
          raw,
          syncedAt,
          compressed,
        },
        replaces === undefined,
      );
    }
    this.insertGathered();
    return { counts, earlierDays: plan.earlierDays };
  }

  /** Inserts a record, and gathers its child rows, which refer to it by the key it gets; returns
   * the rows written. */
  private insertRecord(rowSet: RowSet): number {
    const key = this.insertParent.run(rowSet.parent);
    let written = 1;
    for (const [i, rows] of rowSet.children.entries()) {
      const inserter = this.insertChildren[i];
      if (!inserter) throw new Error(`no child table at position ${i}`);
      written += inserter.add(rows, key);
    }
    return written;
  }

  /** Writes a stored record's rows again in place: its own row keeps its key, so its child rows
   * go and come back under it; returns the rows written. */
  private rewriteRecord(rowSet: RowSet): number {
    // Rows gathered for this record earlier in the page go in before its rows are deleted.
    this.insertGathered();
    this.rewriteParent.run(rowSet.parent);
    const key = this.selectKey.get(rowSet.parent.id)?.key;
    if (key === undefined) throw new Error(`${rowSet.parent.id} was not written`);
    for (const statement of this.deleteChildren) statement.run(key);
    let written = 1;
    for (const [i, rows] of rowSet.children.entries())
      written += this.insertChildren[i]?.add(rows, key) ?? 0;
    return written;
  }

  /** Inserts the child rows gathered, the tables in order: an item's modifiers refer to it. */
  private insertGathered(): void {
    for (const inserter of this.insertChildren) inserter.flush();
  }
}
