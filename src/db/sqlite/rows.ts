/** SQL for the write paths, derived from the Drizzle schema so that it cannot drift from it.
 * Statements are prepared once per connection. */
import type Database from "better-sqlite3";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { type PackedRows, rowShapeOf } from "../rules/record-rows.js";
import type { Row } from "../schema/columns.js";
import { columnNames, onConflictUpdate, tableName } from "../sql/table.js";
import type { ApiIds } from "./api-ids.js";

/** INSERT INTO "t" ("a", "b") VALUES (@a, @b), leaving out generated columns. */
export function insertSql(table: SQLiteTable, omit: readonly string[] = []): string {
  const columns = columnNames(table, omit);
  const names = columns.map((c) => `"${c}"`).join(", ");
  const values = columns.map((c) => `@${c}`).join(", ");
  return `INSERT INTO "${tableName(table)}" (${names}) VALUES (${values})`;
}

/** The insert, or on a conflict of the key columns, an update of every other column. */
export function upsertSql(
  table: SQLiteTable,
  key: readonly string[],
  omit: readonly string[] = [],
  /** Columns an incoming null must not overwrite. */
  keepWhenNull: readonly string[] = [],
): string {
  return `${insertSql(table, omit)} ${onConflictUpdate(table, key, omit, keepWhenNull)}`;
}

/** Inserts rows given as objects, bound by position: on the hot paths, binding by name costs
 * about a third more per row (measured: 5.2 µs against 3.8 µs for 30 columns). */
export interface RowInserter {
  /** Inserts a row; returns the key the row got. */
  run(row: Row): number;
}

export interface RowInsertOptions {
  /** After the VALUES: "ON CONFLICT DO NOTHING" … */
  suffix?: string;
  /** The keys of the ids the table keeps by key (`item_catalog_ref` …), which rows bring as
   * ids under the relation's names (`item_catalog_id`). */
  apiIds?: ApiIds;
}

function insertHead(table: SQLiteTable, columns: readonly string[]): string {
  return `INSERT INTO "${tableName(table)}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES `;
}

function placeholders(columns: readonly string[]): string {
  return `(${columns.map(() => "?").join(", ")})`;
}

export function prepareRowInsert(
  sqlite: Database.Database,
  table: SQLiteTable,
  options: RowInsertOptions = {},
): RowInserter {
  const { columns, fields, width, idsAt } = rowShapeOf(table);
  const statement = sqlite.prepare<unknown[]>(
    `${insertHead(table, columns)}${placeholders(columns)} ${options.suffix ?? ""}`,
  );
  if (idsAt.length > 0 && !options.apiIds)
    throw new Error(`${tableName(table)} keeps ids by key: its inserts need the ids' keys`);
  const { apiIds } = options;
  const values: unknown[] = new Array(width);
  return {
    run(row: Row): number {
      for (let i = 0; i < width; i++) values[i] = row[fields[i] as string];
      for (const at of idsAt) {
        const id = values[at];
        values[at] = id == null ? null : apiIds?.keyOf(id as string);
      }
      return Number(statement.run(values).lastInsertRowid);
    },
  };
}

/** Inserts the packed rows of a child table (record-rows.ts), gathered over a page and sent 32
 * to a statement: alone, 140,000 rows went in a quarter faster so than one statement a row
 * (docs/benchmarks.md, part 10). */
export interface ChildInserter {
  /** Gathers a record's rows, which refer to it by `parentKey`; returns how many. */
  add(rows: PackedRows, parentKey: number): number;
  /** Inserts the rows gathered. */
  flush(): void;
  /** Forgets the rows gathered. */
  drop(): void;
}

/** Rows a statement inserts at most (a page's rows of a table go in few calls). */
const ROWS_PER_STATEMENT = 32;

export function prepareChildInsert(
  sqlite: Database.Database,
  table: SQLiteTable,
  apiIds: ApiIds,
): ChildInserter {
  const { columns, width, parentKeyAt, idsAt } = rowShapeOf(table);
  if (parentKeyAt < 0) throw new Error(`${tableName(table)} is not a child table`);
  const head = insertHead(table, columns);
  const row = placeholders(columns);
  // By number of rows, prepared on first use.
  const statements: Database.Statement<unknown[]>[] = [];
  const statementFor = (rows: number) => {
    statements[rows] ??= sqlite.prepare<unknown[]>(`${head}${Array(rows).fill(row).join(", ")}`);
    return statements[rows];
  };
  // One array holds the rows of every full statement in turn: binding copies the values. The
  // records' packed rows are gathered as they are, and copied once, into it.
  const chunk: unknown[] = new Array(ROWS_PER_STATEMENT * width);
  let parts: { rows: PackedRows; parentKey: number }[] = [];
  return {
    add(rows: PackedRows, parentKey: number): number {
      if (rows.length > 0) parts.push({ rows, parentKey });
      return rows.length / width;
    },
    flush(): void {
      const gathered = parts;
      parts = [];
      let filled = 0;
      for (const { rows, parentKey } of gathered) {
        for (let from = 0; from < rows.length; from += width) {
          const at = filled * width;
          for (let i = 0; i < width; i++) chunk[at + i] = rows[from + i];
          chunk[at + parentKeyAt] = parentKey;
          for (const i of idsAt) {
            const id = chunk[at + i];
            chunk[at + i] = id == null ? null : apiIds.keyOf(id as string);
          }
          if (++filled === ROWS_PER_STATEMENT) {
            statementFor(filled).run(chunk);
            filled = 0;
          }
        }
      }
      if (filled > 0) statementFor(filled).run(chunk.slice(0, filled * width));
    },
    drop(): void {
      parts = [];
    },
  };
}
