/** SQL text of a table of the schema that both destinations write: its name, its columns, and
 * the update of a conflicting row. Derived from the Drizzle schema, so it cannot drift from it. */
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { storedColumns, writtenColumns } from "../schema/columns.js";

export function tableName(table: SQLiteTable): string {
  return getTableConfig(table).name;
}

export function columnNames(table: SQLiteTable, omit: readonly string[] = []): string[] {
  return storedColumns(table)
    .map((column) => column.name)
    .filter((name) => !omit.includes(name));
}

/** After an insert: on a conflict of the key columns, every other column but `keep` takes the
 * incoming value (but where it is null, for `keepWhenNull`); the row keeps its key (a parent's,
 * which its child rows refer to). */
export function onConflictUpdate(
  table: SQLiteTable,
  key: readonly string[],
  keep: readonly string[] = [],
  keepWhenNull: readonly string[] = [],
): string {
  const name = tableName(table);
  const updates = writtenColumns(table)
    .filter((c) => !key.includes(c) && !keep.includes(c))
    .map((c) =>
      keepWhenNull.includes(c)
        ? `"${c}" = COALESCE(excluded."${c}", "${name}"."${c}")`
        : `"${c}" = excluded."${c}"`,
    );
  return `ON CONFLICT (${key.map((c) => `"${c}"`).join(", ")}) DO UPDATE SET ${updates.join(", ")}`;
}
