/**
 * A record's rows, as its normalizer makes them and as the writers take them. The rows of its
 * arrays (a child table of orders or reports: relations.ts) go to the writers packed: one flat
 * array of values per table, row after row, each in the order of the columns the table's insert
 * writes. Ids stay ids, under their relation's names, until a writer turns them into keys; the
 * parent's key, which only the write learns, is left empty. A page of 100 orders has about 1,300
 * such rows. As objects, their crossing to the writing thread (runner/remote-destination.ts) cloned
 * every field's name with every value, and the writer looked each value up by name again: packed,
 * the writing thread binds values where they lie, many rows to a statement (docs/benchmarks.md,
 * part 10).
 */
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Row } from "../schema/columns.js";
import { CHILD_RELATIONS, idRefsOf } from "../schema/relations.js";
import { writtenColumnNames } from "../sql/table.js";

/** Rows of one child table, packed: `width` values a row. */
export type PackedRows = unknown[];

/** The row of a record that has an id of its own. */
export type ParentRow = Row & {
  id: string;
  updated_at: string;
  business_date: string;
  location_id: string;
  content_hash: number | null;
  deleted_at: string | null;
};

/** A record's rows as its normalizer makes them: its own, and those of each child table, in the
 * order the tables were given. */
export interface NormalizedRows {
  parent: ParentRow;
  children: readonly Row[][];
}

/** A record's rows as the writers take them: the child tables' rows packed. */
export interface RowSet {
  parent: ParentRow;
  children: readonly PackedRows[];
}

/** Where a table's values lie in a row its insert binds by position, packed or not. */
export interface RowShape {
  /** The columns the table's insert writes, in order. */
  columns: readonly string[];
  /** The name each value has in a row as the normalizers make it: the column's, or for a column
   * that keeps an id by key, the relation's (`item_catalog_id` for `item_catalog_ref`). */
  fields: readonly string[];
  width: number;
  /** A child table's column of the parent's key, which the writer fills; -1 for other tables. */
  parentKeyAt: number;
  /** The values that are ids of the API, which writers store by key (api_ids). */
  idsAt: readonly number[];
}

const shapes = new WeakMap<SQLiteTable, RowShape>();

export function rowShapeOf(table: SQLiteTable): RowShape {
  let shape = shapes.get(table);
  if (!shape) {
    const columns = writtenColumnNames(table);
    const refs = idRefsOf(table);
    const parentKey = CHILD_RELATIONS.find((r) => r.table === table)?.parentKey;
    shape = {
      columns,
      fields: columns.map((c) => refs.find((r) => r.stored === c)?.shown ?? c),
      width: columns.length,
      parentKeyAt: parentKey === undefined ? -1 : columns.indexOf(parentKey),
      idsAt: refs.map((r) => columns.indexOf(r.stored)),
    };
    shapes.set(table, shape);
  }
  return shape;
}

export function packRows(table: SQLiteTable, rows: readonly Row[]): PackedRows {
  const { fields, width } = rowShapeOf(table);
  const packed: PackedRows = new Array(rows.length * width);
  let at = 0;
  for (const row of rows) for (let i = 0; i < width; i++) packed[at++] = row[fields[i] as string];
  return packed;
}

/** A record's child rows packed, each table's in turn. */
export function packChildren(
  tables: readonly SQLiteTable[],
  children: readonly Row[][],
): PackedRows[] {
  return tables.map((table, i) => packRows(table, children[i] ?? []));
}

/** Packed rows as objects again, under the normalizers' names, less the parent's key: what
 * history compares a record's next version by (history/versions.ts). */
export function unpackChildren(
  tables: readonly SQLiteTable[],
  children: readonly PackedRows[],
): Row[][] {
  return tables.map((table, i) => unpackRows(table, children[i] ?? []));
}

function unpackRows(table: SQLiteTable, packed: PackedRows): Row[] {
  const { fields, width, parentKeyAt } = rowShapeOf(table);
  const rows: Row[] = [];
  for (let at = 0; at < packed.length; at += width) {
    const row: Row = {};
    for (let i = 0; i < width; i++)
      if (i !== parentKeyAt) row[fields[i] as string] = packed[at + i] as Row[string];
    rows.push(row);
  }
  return rows;
}
