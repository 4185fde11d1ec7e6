/**
 * Many rows of one table in one statement: the rows travel as one JSON array of arrays (a row's
 * values by position, made by one JSON.stringify), which the server reads with
 * `jsonb_array_elements` into the columns' types, so the statement's text is the same whatever
 * the number of rows (the server plans it once per connection) and a page of orders is one round
 * trip per table. Rows come as the normalizers make them for SQLite (flags 0/1, JSON as text);
 * PostgreSQL reads each value into the column's native type, a jsonb value (menus, tips) from its
 * text. A child table's rows carry their parent's key, which the parent's insert returned: the
 * statement joins nothing (a join to the parent's table, planned once for any number of rows,
 * scanned the whole table for every page).
 *
 * Measured on the ingest benchmark against the alternatives: an array parameter per column with
 * `unnest` costs the client a third more CPU (the driver escapes each element in JavaScript) and
 * as much again in garbage collection; JSON objects with `json_to_recordset` cost the server a
 * hash table of field names per row.
 */
import { createHash } from "node:crypto";
import type { PgTable } from "drizzle-orm/pg-core";
import { type PackedRows, type RowShape, rowShapeOf } from "../rules/record-rows.js";
import type { Row } from "../schema/columns.js";
import { type IdRefColumn, idRefsOf } from "../schema/relations.js";
import { tableName, writtenColumnNames } from "../sql/table.js";
import type { PgApiIds } from "./api-ids.js";
import type { PgClient } from "./connect.js";
import { contractOf, pgColumnTypes } from "./schema.js";
import { storableJson, storableText } from "./text.js";
import type { PgColumnType } from "./types.js";

/** The expression that reads value `i` of a row `r` into a column of this type. */
function readValue(type: PgColumnType, i: number): string {
  // JSON text that says null is SQL's NULL, as an absent value is.
  if (type === "jsonb") return `NULLIF((r ->> ${i})::jsonb, 'null'::jsonb)`;
  return `(r ->> ${i})::${type === "identity" ? "bigint" : type}`;
}

export interface ColumnOf {
  name: string;
  type: PgColumnType;
}

/** What makes a value storable: text and JSON lose NUL characters (text.ts). */
function storableOf(type: PgColumnType): ((value: string) => string) | undefined {
  if (type === "text") return storableText;
  return type === "jsonb" ? storableJson : undefined;
}

/** The columns an insert into the table writes (less `omit`), in their PostgreSQL types. */
function columnsOf(table: PgTable, omit: readonly string[] = []): ColumnOf[] {
  const types = pgColumnTypes(table);
  return writtenColumnNames(table)
    .filter((name) => !omit.includes(name))
    .map((name) => {
      const type = types.get(name);
      if (!type) throw new Error(`${tableName(table)}.${name} has no PostgreSQL type`);
      return { name, type };
    });
}

/** The columns of a table that keep ids by key, with the keys to send for them. */
function idsOf(table: PgTable, apiIds: PgApiIds | undefined) {
  // PostgreSQL leaves the keys to api_ids unchecked (schema.ts): the contract names them.
  const refs = idRefsOf(contractOf(table));
  if (refs.length === 0) return undefined;
  if (!apiIds) throw new Error(`${tableName(table)} keeps ids by key: its inserts need their keys`);
  return { refs, apiIds };
}

export class RowsInserter {
  private readonly names: string[];
  private readonly storable: (((value: string) => string) | undefined)[];
  /** Which values are ids that travel as their keys (api_ids). */
  private readonly keyed: boolean[];
  private readonly apiIds: PgApiIds | undefined;
  private readonly sql: string;
  private readonly statementName: string;

  /**
   * @param suffix e.g. "ON CONFLICT DO NOTHING", or "RETURNING id, key" for a parent table
   * @param ids the columns that keep ids by key (`location_ref` …) and the ids' keys: rows carry
   * the ids, under their relation's names, and they travel as their keys
   */
  constructor(
    table: string,
    columns: readonly ColumnOf[],
    suffix = "",
    ids?: { refs: readonly IdRefColumn[]; apiIds: PgApiIds },
    /** For a child table of orders or reports: how its rows are packed. */
    private readonly packed?: RowShape,
  ) {
    const refs = ids?.refs ?? [];
    const refOf = (c: ColumnOf) => refs.find((r) => r.stored === c.name);
    this.names = columns.map((c) => refOf(c)?.shown || c.name);
    this.keyed = columns.map((c) => refOf(c) !== undefined);
    this.apiIds = ids?.apiIds;
    const types = columns.map((c) => c.type);
    this.storable = types.map(storableOf);
    const names = columns.map((c) => `"${c.name}"`).join(", ");
    const values = types.map(readValue);
    this.sql = `INSERT INTO "${table}" (${names}) SELECT ${values.join(", ")} FROM jsonb_array_elements($1::jsonb) AS r ${suffix}`;
    // Named statements are prepared once per connection; the name stands for the text.
    this.statementName = `rows_${createHash("sha1").update(this.sql).digest("hex").slice(0, 20)}`;
  }

  /** For a mirror of a contract table (schema.ts): the columns it writes (less `omit`) in their PostgreSQL types;
   * `apiIds` for a table that keeps ids by key (order_rows, and the child tables). */
  static of(
    table: PgTable,
    suffix = "",
    omit: readonly string[] = [],
    apiIds?: PgApiIds,
  ): RowsInserter {
    return new RowsInserter(tableName(table), columnsOf(table, omit), suffix, idsOf(table, apiIds));
  }

  /** For a child table of orders or reports, whose rows come packed (insertPacked). */
  static ofChild(table: PgTable, apiIds: PgApiIds): RowsInserter {
    return new RowsInserter(
      tableName(table),
      columnsOf(table),
      "",
      idsOf(table, apiIds),
      rowShapeOf(contractOf(table)),
    );
  }

  /** Inserts the rows; returns how many the server wrote. */
  async insert(client: PgClient, rows: readonly Row[]): Promise<number> {
    if (rows.length === 0) return 0;
    const values = rows.map((row) => this.values(row));
    const result = await this.run(client, values);
    return result.rowCount ?? 0;
  }

  /** Inserts the rows of a parent table (suffix "RETURNING id, key"); returns their keys by id. */
  async insertReturningKeys(client: PgClient, rows: readonly Row[]): Promise<Map<string, number>> {
    if (rows.length === 0) return new Map();
    const values = rows.map((row) => this.values(row));
    const result = await this.run(client, values);
    return new Map(result.rows.map((row: { id: string; key: number }) => [row.id, row.key]));
  }

  /** Inserts a child table's packed rows (rules/record-rows.ts; built by `ofChild`): each
   * part's rows refer to their parent by its `parentKey`. Returns how many the server wrote. */
  async insertPacked(
    client: PgClient,
    parts: readonly { rows: PackedRows; parentKey: number }[],
  ): Promise<number> {
    if (!this.packed) throw new Error("packed rows go to a child table's inserter (ofChild)");
    const { width, parentKeyAt } = this.packed;
    const rows: unknown[][] = [];
    for (const part of parts) {
      for (let at = 0; at < part.rows.length; at += width) {
        const values = new Array(width);
        for (let i = 0; i < width; i++) values[i] = this.valueAt(i, part.rows[at + i] ?? null);
        values[parentKeyAt] = part.parentKey;
        rows.push(values);
      }
    }
    if (rows.length === 0) return 0;
    return (await this.run(client, rows)).rowCount ?? 0;
  }

  private run(client: PgClient, rows: readonly unknown[][]) {
    return client.query({
      name: this.statementName,
      text: this.sql,
      values: [JSON.stringify(rows)],
    });
  }

  /** A row's values in the statement's order. */
  private values(row: Row): unknown[] {
    const values: unknown[] = new Array(this.names.length);
    for (let i = 0; i < this.names.length; i++)
      values[i] = this.valueAt(i, row[this.names[i] as string] ?? null);
    return values;
  }

  /** The value sent for column `i`: an id by its key, a NUL character replaced. */
  private valueAt(i: number, sent: unknown): unknown {
    const value =
      this.keyed[i] && sent !== null ? (this.apiIds?.keyOf(String(sent)) ?? null) : sent;
    const storable = this.storable[i];
    return storable && typeof value === "string" ? storable(value) : value;
  }
}
