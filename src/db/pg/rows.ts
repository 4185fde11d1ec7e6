/**
 * Many rows of one table in one statement: each column travels as one array parameter and
 * `unnest` turns the arrays back into rows, so the statement's text is the same whatever the
 * number of rows (the server plans it once per connection) and a page of orders is one round
 * trip per table. Rows come as the normalizers make them for SQLite (flags 0/1, JSON as text);
 * PostgreSQL reads each into the column's native type.
 */
import { createHash } from "node:crypto";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { columnNames, type Row, tableName } from "../writers/statements.js";
import type { PgClient } from "./connect.js";
import { pgColumnTypes } from "./schema.js";
import { storableJson, storableText } from "./text.js";
import type { PgColumnType } from "./types.js";

const ARRAY_TYPES: Record<PgColumnType, string> = {
  text: "text[]",
  bigint: "bigint[]",
  identity: "bigint[]",
  boolean: "boolean[]",
  numeric: "numeric[]",
  date: "date[]",
  timestamptz: "timestamptz[]",
  jsonb: "jsonb[]",
};

export interface ColumnOf {
  name: string;
  type: PgColumnType;
}

/** What makes a value storable: text and JSON lose NUL characters (text.ts). */
function storableOf(type: PgColumnType): ((value: string) => string) | undefined {
  return type === "text" ? storableText : type === "jsonb" ? storableJson : undefined;
}

export class RowsInserter {
  private readonly names: string[];
  private readonly storable: (((value: string) => string) | undefined)[];
  private readonly sql: string;
  private readonly statementName: string;

  /** @param suffix e.g. "ON CONFLICT DO NOTHING" */
  constructor(table: string, columns: readonly ColumnOf[], suffix = "") {
    this.names = columns.map((c) => c.name);
    this.storable = columns.map((c) => storableOf(c.type));
    const names = columns.map((c) => `"${c.name}"`).join(", ");
    const arrays = columns.map((c, i) => `$${i + 1}::${ARRAY_TYPES[c.type]}`).join(", ");
    this.sql = `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${arrays}) ${suffix}`;
    // Named statements are prepared once per connection; the name stands for the text.
    this.statementName = `rows_${createHash("sha1").update(this.sql).digest("hex").slice(0, 20)}`;
  }

  /** For a table of the contract: its columns (less `omit`) in their PostgreSQL types. */
  static of(table: SQLiteTable, suffix = "", omit: readonly string[] = []): RowsInserter {
    const types = pgColumnTypes(table);
    const columns = columnNames(table, omit).map((name) => {
      const type = types.get(name);
      if (!type) throw new Error(`${tableName(table)}.${name} has no PostgreSQL type`);
      return { name, type };
    });
    return new RowsInserter(tableName(table), columns, suffix);
  }

  /** Inserts the rows; returns how many the server wrote. */
  async insert(client: PgClient, rows: readonly Row[]): Promise<number> {
    if (rows.length === 0) return 0;
    const values = this.names.map((column, i) => {
      const storable = this.storable[i];
      return rows.map((row) => {
        const value = row[column] ?? null;
        return storable && typeof value === "string" ? storable(value) : value;
      });
    });
    const result = await client.query({ name: this.statementName, text: this.sql, values });
    return result.rowCount ?? 0;
  }
}
