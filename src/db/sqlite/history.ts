/**
 * Keeping the versions of a day stream's records that a sync replaces or the API stops listing
 * (history/versions.ts), on SQLite: the stored rows are read back just before they are replaced
 * or marked deleted, inside the same transaction. Only changed or vanished records pay for it:
 * an unchanged record is never read.
 */
import type Database from "better-sqlite3";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  type HistoryShape,
  historyShape,
  type StoredRow,
  type VersionRows,
  versionRow,
} from "../history/versions.js";
import { type RowSet, unpackChildren } from "../rules/record-rows.js";
import { prepareRowInsert, type RowInserter } from "./rows.js";

export class VersionHistory {
  private readonly shape: HistoryShape;
  private readonly parentRow: Database.Statement<[string], StoredRow>;
  private readonly childRows: Database.Statement<[string], StoredRow>[];
  private readonly lastVersion: Database.Statement<[string], number | null>;
  private readonly insert: RowInserter;

  constructor(
    sqlite: Database.Database,
    table: SQLiteTable,
    private readonly childTables: readonly SQLiteTable[],
    history: { table: SQLiteTable; paidFrom: SQLiteTable },
  ) {
    const shape = historyShape(table, childTables, history);
    this.shape = shape;
    this.parentRow = sqlite.prepare(`SELECT * FROM "${shape.parentName}" WHERE id = ?`);
    this.childRows = shape.children.map((child) =>
      sqlite.prepare(
        `SELECT * FROM "${child.name}" WHERE "${child.parentKey}" = ?
         ORDER BY ${child.keys.map((k) => `"${k}"`).join(", ")}`,
      ),
    );
    this.lastVersion = sqlite
      .prepare<[string], number | null>(
        `SELECT MAX(version) FROM "${shape.historyName}" WHERE order_id = ?`,
      )
      .pluck();
    this.insert = prepareRowInsert(sqlite, history.table);
  }

  private storedRows(id: string): VersionRows | undefined {
    const parent = this.parentRow.get(id);
    if (!parent) return undefined;
    return { parent, children: this.childRows.map((statement) => statement.all(id)) };
  }

  private keep(id: string, endedAt: string, next?: VersionRows, repaired = false): number {
    const rows = this.storedRows(id);
    if (!rows || rows.parent.deleted_at !== null) return 0;
    const version = (this.lastVersion.get(id) ?? 0) + 1;
    this.insert.run(versionRow({ shape: this.shape, version, rows, endedAt, next, repaired }));
    return 1;
  }

  /** Keeps the stored version of a record that `next` is about to replace (by a repair's read:
   * `repaired`); returns the rows written. A record marked deleted was kept when it vanished. */
  keepReplaced(id: string, next: RowSet, endedAt: string, repaired: boolean): number {
    const children = unpackChildren(this.childTables, next.children);
    return this.keep(id, endedAt, { parent: next.parent, children }, repaired);
  }

  /** Keeps the stored versions of records about to be marked deleted (the live ones). */
  keepVanished(ids: readonly string[], endedAt: string): number {
    let written = 0;
    for (const id of ids) written += this.keep(id, endedAt);
    return written;
  }
}
