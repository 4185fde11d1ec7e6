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
import type { CompressedRaw, RawArchive } from "../raw/archive.js";
import { relationName, relationOf } from "../schema/relations.js";
import type { ApiIds } from "./api-ids.js";
import type { VersionHistory } from "./history.js";
import type { RowSet } from "./record-rows.js";
import {
  type ChildInserter,
  onConflictUpdate,
  prepareChildInsert,
  prepareRowInsert,
  type RowInserter,
  tableName,
} from "./statements.js";

/** A record's rows, and its JSON as received for the raw archive: as text, compressed ahead
 * (then the text may stay behind), or neither when the archive keeps no JSON (ArchiveTerms). */
export interface IncomingRecord {
  rows: RowSet;
  raw?: string;
  compressed?: CompressedRaw;
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows written across all tables: the figure a benchmark divides by. */
  rowsWritten: number;
}

/** What a write did, and the other days that records it replaced were listed under before (a
 * record the API moved from one day to another leaves the earlier day changed too). */
export interface WriteOutcome {
  counts: WriteCounts;
  earlierDays: string[];
}

export function emptyCounts(): WriteCounts {
  return { inserted: 0, updated: 0, unchanged: 0, rowsWritten: 0 };
}

export interface StoredVersion {
  id: string;
  updated_at: string;
  business_date: string;
  content_hash: number | null;
  /** Set when the API stopped listing the record; a record listed again is stored again. */
  deleted_at: string | null;
}

/** insert: a new record; replace: a new version, the one stored kept in history; rewrite: the
 * version stored, whose rows a proof found other than the API's (a hand edit), written again in
 * place (its key and synced_at kept, no version kept); keep: nothing to write. */
export type Decision = "insert" | "replace" | "rewrite" | "keep";

/** Newer or different content replaces; the same content, or an older version, is kept; a record
 * marked deleted that the API lists again comes back. A record a repair is told to write again
 * (`rewrite`) is rewritten in place when its content is the same, replaced whatever its version
 * when not: the API's listing is what a repair restores. */
export function decide(
  incoming: RowSet["parent"],
  stored: StoredVersion | undefined,
  rewrite = false,
): Decision {
  if (!stored) return "insert";
  if (stored.deleted_at !== null) return "replace";
  if (
    stored.content_hash === incoming.content_hash &&
    stored.business_date === incoming.business_date
  )
    return rewrite ? "rewrite" : "keep";
  if (rewrite) return "replace";
  return Date.parse(incoming.updated_at) < Date.parse(stored.updated_at) ? "keep" : "replace";
}

export class ReplacingWriter {
  private readonly selectStored: Database.Statement<[string], StoredVersion>;
  private readonly deleteParent: Database.Statement<[string]>;
  private readonly insertParent: RowInserter;
  private readonly insertChildren: ChildInserter[];
  private readonly rewriteParent: RowInserter;
  private readonly selectKey: Database.Statement<[string], { key: number }>;
  /** The child rows of a record, by its key: the deepest tables first. */
  private readonly deleteChildren: Database.Statement<[number]>[];
  private readonly listedDays: Database.Statement<[string], { locationId: string; day: string }>;
  private readonly markVanished: Database.Statement<[string, string]>;
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
    const byIds = "id IN (SELECT value FROM json_each(?))";
    this.listedDays = sqlite.prepare(
      `SELECT DISTINCT location_id AS locationId, business_date AS day FROM "${this.name}" WHERE ${byIds}`,
    );
    this.markVanished = sqlite.prepare(
      `UPDATE "${name}" SET deleted_at = ? WHERE ${byIds} AND deleted_at IS NULL`,
    );
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
   * they were listed under. */
  markDeleted(
    ids: readonly string[],
    at: string,
  ): { marked: number; days: { locationId: string; day: string }[] } {
    const json = JSON.stringify(ids);
    const days = this.listedDays.all(json);
    this.history?.keepVanished(ids, at);
    return { marked: this.markVanished.run(at, json).changes, days };
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
    const stored = this.storedVersions(records);
    this.archive.learnFrom(this.name, records, syncedAt);
    const counts = emptyCounts();
    const earlierDays = new Set<string>();
    const written = new Set<string>();
    for (const { rows: rowSet, raw, compressed } of records) {
      const earlier = stored.get(rowSet.parent.id);
      const decision = decide(rowSet.parent, earlier, repair?.has(rowSet.parent.id));
      if (decision === "keep") {
        counts.unchanged++;
        continue;
      }
      if (decision === "rewrite") {
        counts.rowsWritten += this.rewriteRecord(rowSet);
        counts.updated++;
        continue;
      }
      if (decision === "replace") {
        // The rows gathered go in first: the delete below may be of their parent, written
        // earlier in the page.
        this.insertGathered();
        // A record twice in one page keeps the version stored before the page, once (as the
        // PostgreSQL writer, which writes a page's records set-based, does).
        if (this.history && earlier?.deleted_at === null && !written.has(rowSet.parent.id))
          counts.rowsWritten += this.history.keepReplaced(
            rowSet.parent.id,
            rowSet,
            syncedAt,
            repair !== undefined,
          );
        this.deleteParent.run(rowSet.parent.id);
        if (earlier && earlier.business_date !== rowSet.parent.business_date)
          earlierDays.add(earlier.business_date);
      }
      counts.rowsWritten += this.insertRecord(rowSet);
      if (decision === "insert") counts.inserted++;
      else counts.updated++;
      const { id, location_id: locationId } = rowSet.parent;
      counts.rowsWritten += this.archive.put(
        { tableName: this.name, locationId, id, raw, syncedAt, compressed },
        decision === "insert",
      );
      // A record that appears twice in one page is written once.
      stored.set(rowSet.parent.id, { ...rowSet.parent, deleted_at: null });
      written.add(rowSet.parent.id);
    }
    this.insertGathered();
    return { counts, earlierDays: [...earlierDays] };
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
