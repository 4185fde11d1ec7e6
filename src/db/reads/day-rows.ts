/**
 * The records stored live for a day of a day stream, read through the contract's relations as
 * analysts read them (`orders`, `order_items` …): each one's content hash, and its rows as the
 * text they compare by (comparable-rows.ts). What a proof of the day holds against the API's
 * listing of it. One statement per relation, whatever the day's size.
 */

import type { DayStreamTables } from "../normalize/stream-tables.js";
import type { Row } from "../schema/columns.js";
import type { SqlDialect } from "../sql/dialect.js";
import { type ComparedRelation, comparableRows, comparedRelations } from "./comparable-rows.js";

type Query = (sql: string, params: readonly unknown[]) => Promise<Row[]>;

const columnsOf = (relation: ComparedRelation, alias: string) =>
  relation.columns.map(({ name }) => `${alias}."${name}"`).join(", ");

/** A record stored live for the day: its content hash (null when stored before hashes were
 * kept), and its rows' comparable text. */
export interface StoredRecordOfDay {
  contentHash: number | null;
  rows: string;
}

/** Each record stored live for the day, by id. */
export async function storedRecordsOfDay(
  query: Query,
  dialect: SqlDialect,
  stream: DayStreamTables,
  locationId: string,
  day: string,
): Promise<Map<string, StoredRecordOfDay>> {
  const { parent, children } = comparedRelations(stream);
  const ofDay = `location_id = ${dialect.param(1)} AND business_date = ${dialect.param(2)}
    AND deleted_at IS NULL`;
  const live = `SELECT id FROM "${parent.name}" WHERE ${ofDay}`;
  const params = [locationId, day];
  const records = new Map<string, { parent: Row; children: Row[][] }>();
  for (const row of await query(
    `SELECT p.content_hash, ${columnsOf(parent, "p")} FROM "${parent.name}" p WHERE ${ofDay}`,
    params,
  ))
    records.set(String(row.id), { parent: row, children: children.map(() => []) });
  for (const [i, relation] of children.entries()) {
    const parentId = `c."${relation.parentId}"`;
    const rows = await query(
      `SELECT ${parentId}, ${columnsOf(relation, "c")} FROM "${relation.name}" c WHERE ${parentId} IN (${live})`,
      params,
    );
    for (const row of rows)
      records.get(String(row[relation.parentId as string]))?.children[i]?.push(row);
  }
  const stored = new Map<string, StoredRecordOfDay>();
  for (const [id, rows] of records) {
    const hash = rows.parent.content_hash;
    stored.set(id, {
      contentHash: hash === null || hash === undefined ? null : Number(hash),
      rows: comparableRows(stream, rows, dialect.dateTimes),
    });
  }
  return stored;
}
