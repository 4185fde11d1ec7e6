/**
 * What a view's column holds, and how each database declares it so that a BI tool maps it: its
 * JDBC driver reads a column's declared type (Metabase, DBeaver and Tableau match the name: INT,
 * REAL, NUMERIC, DATE, BOOLEAN, TIMESTAMP …) and treats a column without one as text.
 *
 * PostgreSQL types every expression: a cast says it. SQLite declares a view's column only when it
 * names a table's column (an expression gets no type, and a CAST gives at most an affinity, never
 * DATE or BOOLEAN). So a SQLite view whose columns all name table columns declared as the view's
 * are is a plain SELECT (days and date-times name their typed twins: schema/columns.ts), and any
 * other is `typed row ∪ rows ∪ typed row`: two branches that name the empty `view_column_types`
 * table's columns and never return a row. Drivers read the first branch's types (PRAGMA
 * table_info, what JDBC's `getColumns` answers) or the last one's (a result's declared types);
 * recent SQLite keeps them only if the rows' branch can hold no other kind of value, hence the
 * casts there. Checked with SQLite 3.53 (the suite: test/bi-column-types.test.ts) and with the
 * JDBC driver of SQLite 3.40 (docs/database.md).
 */

export type ViewColumnType =
  | "text"
  | "integer"
  /** Amounts of money, to the cent. */
  | "money"
  /** Quantities and guests: whole or fractional. */
  | "numeric"
  /** Shares and ratios. */
  | "real"
  | "date"
  | "boolean"
  /** A date-time on the location's wall clock; in SQLite's own text (`2026-11-27 18:00:22.334`)
   * on SQLite, the one form drivers parse without settings. */
  | "local"
  /** The same instant in UTC, in the same form. */
  | "utc"
  /** The date-time as the API sent it, offset included (an instant on PostgreSQL). */
  | "sent"
  | "json";

export interface ColumnDeclaration {
  /** SQLite's declared type, which is also the name of `view_column_types`' column of it. */
  sqlite: string;
  /** What the SQLite branch of rows casts an expression to, so that it holds that kind of value
   * only; null where the value must name a typed column instead (days, date-times). */
  sqliteCast: string | null;
  postgres: string;
}

export const COLUMN_DECLARATIONS: Record<ViewColumnType, ColumnDeclaration> = {
  text: { sqlite: "TEXT", sqliteCast: "TEXT", postgres: "text" },
  integer: { sqlite: "INTEGER", sqliteCast: "INTEGER", postgres: "bigint" },
  money: { sqlite: "REAL", sqliteCast: "REAL", postgres: "numeric(14,2)" },
  numeric: { sqlite: "NUMERIC", sqliteCast: "NUMERIC", postgres: "numeric" },
  real: { sqlite: "REAL", sqliteCast: "REAL", postgres: "numeric" },
  date: { sqlite: "DATE", sqliteCast: null, postgres: "date" },
  boolean: { sqlite: "BOOLEAN", sqliteCast: "INTEGER", postgres: "boolean" },
  local: { sqlite: "TIMESTAMP", sqliteCast: null, postgres: "timestamp" },
  utc: { sqlite: "TIMESTAMP", sqliteCast: null, postgres: "timestamp" },
  sent: { sqlite: "TEXT", sqliteCast: "TEXT", postgres: "timestamptz" },
  json: { sqlite: "TEXT", sqliteCast: "TEXT", postgres: "jsonb" },
};

/** The empty table whose columns the typed rows of SQLite's views name. */
export const VIEW_COLUMN_TYPES = "view_column_types";

/** SQLite's `view_column_types`, one column per declared type. */
export function viewColumnTypesTable(): string {
  const declared = [...new Set(Object.values(COLUMN_DECLARATIONS).map((d) => d.sqlite))];
  return `CREATE TABLE IF NOT EXISTS ${VIEW_COLUMN_TYPES} (${declared
    .map((type) => `"${type.toLowerCase()}" ${type}`)
    .join(", ")});`;
}

/** A column of `view_column_types` declared as `type` is. */
function typedColumn(type: ViewColumnType): string {
  return `"${COLUMN_DECLARATIONS[type].sqlite.toLowerCase()}"`;
}

/** A view's column and its value in the view's SELECT. */
export interface ViewColumnValue {
  name: string;
  type: ViewColumnType;
  value: string;
}

/** A column named as `alias.column`. */
const COLUMN_REF = /^\w+\.\w+$/;

/** Whether SQLite declares the column as the view's type by itself: it names a table's column,
 * which carries its declared type along (a test holds that type to the view's). No table declares
 * BOOLEAN, and JSON is text to SQLite. */
const namesItsType = (c: ViewColumnValue) =>
  COLUMN_REF.test(c.value) && c.type !== "boolean" && c.type !== "json";

/** What picks no row of `view_column_types` in a typed row, whatever the table holds, by two
 * rowids at once. Not `WHERE 0`: the planner then counts the branch as a scan of a table of
 * unknown size (a million rows), and a view joined to another relation (`v_orders` to
 * `order_items`) is read last, probed for every row of the other, rather than first. A lookup by
 * rowid counts as one row. */
const NO_ROW = "WHERE t.rowid = 0 AND t.rowid = 1";

/** SQLite: a view whose columns all name their type is a plain SELECT (as fast as ever). Other
 * views are framed by typed rows, and their values cast to their kind: all but days and
 * date-times (which name typed twins) and text columns (a cast would hide the indexes a query on
 * an id could use). A subquery's column is an expression to SQLite, whatever it names. */
export function sqliteTypedView(columns: readonly ViewColumnValue[], from: string): string {
  if (columns.every(namesItsType)) {
    return `SELECT ${columns.map((c) => `${c.value} AS ${c.name}`).join(",\n  ")}\n${from}`;
  }
  const values = columns.map((c) => {
    const cast = COLUMN_DECLARATIONS[c.type].sqliteCast;
    const kept = cast === null || (c.type === "text" && COLUMN_REF.test(c.value));
    return `${kept ? c.value : `CAST(${c.value} AS ${cast})`} AS ${c.name}`;
  });
  const typedRow = (named: boolean) =>
    `SELECT ${columns
      .map((c) => `t.${typedColumn(c.type)}${named ? ` AS ${c.name}` : ""}`)
      .join(", ")}\nFROM ${VIEW_COLUMN_TYPES} t ${NO_ROW}`;
  return `${typedRow(true)}
UNION ALL
SELECT ${values.join(",\n  ")}
${from}
UNION ALL
${typedRow(false)}`;
}

/** PostgreSQL: each value cast to its type. */
export function postgresTypedView(columns: readonly ViewColumnValue[], from: string): string {
  const values = columns.map(
    (c) => `(${c.value})::${COLUMN_DECLARATIONS[c.type].postgres} AS ${c.name}`,
  );
  return `SELECT ${values.join(",\n  ")}\n${from}`;
}
