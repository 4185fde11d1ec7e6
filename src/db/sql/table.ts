/** SQL text of a table that both destinations write: its name, its columns, and the update of a
 * conflicting row. Derived from the Drizzle tables, the contract's (SQLite's) or PostgreSQL's
 * mirror of them, so it cannot drift from either. */
import { type Column, getTableColumns, getTableName, type Table } from "drizzle-orm";
import { isAutoIncrement } from "../schema/columns.js";

export function tableName(table: Table): string {
  return getTableName(table);
}

/** The columns that hold values, in the table's order: all but SQLite's typed twins
 * (schema/columns.ts), which it computes on read. */
function storedColumns(table: Table): Column[] {
  return Object.values(getTableColumns(table)).filter((column) => column.generated === undefined);
}

export function columnNames(table: Table, omit: readonly string[] = []): string[] {
  return storedColumns(table)
    .map((column) => column.name)
    .filter((name) => !omit.includes(name));
}

/** The columns an insert writes: all but a key the database gives (orders.key: SQLite's
 * AUTOINCREMENT, PostgreSQL's identity). */
export function writtenColumnNames(table: Table): string[] {
  return storedColumns(table)
    .filter(
      (column) =>
        !(column.primary && (isAutoIncrement(column) || column.generatedIdentity !== undefined)),
    )
    .map((column) => column.name);
}

/** After an insert: on a conflict of the key columns, every other column but `keep` takes the
 * incoming value (but where it is null, for `keepWhenNull`); the row keeps its key (a parent's,
 * which its child rows refer to). */
export function onConflictUpdate(
  table: Table,
  key: readonly string[],
  keep: readonly string[] = [],
  keepWhenNull: readonly string[] = [],
): string {
  const name = tableName(table);
  const updates = writtenColumnNames(table)
    .filter((c) => !key.includes(c) && !keep.includes(c))
    .map((c) =>
      keepWhenNull.includes(c)
        ? `"${c}" = COALESCE(excluded."${c}", "${name}"."${c}")`
        : `"${c}" = excluded."${c}"`,
    );
  return `ON CONFLICT (${key.map((c) => `"${c}"`).join(", ")}) DO UPDATE SET ${updates.join(", ")}`;
}
