/**
 * The rows stored for a day of a day stream, read through the contract's relations as analysts
 * read them (`orders`, `order_items` …), each live record's as the text its rows compare by
 * (comparable-rows.ts): what a proof of the day holds against the API's listing of it. One
 * statement per relation, whatever the day's size.
 */
import { type ComparedRelation, comparableRows, comparedRelations } from "./comparable-rows.js";
import type { Row } from "./schema/columns.js";
import type { SqlDialect } from "./sql.js";
import type { DayStreamTables } from "./stream-tables.js";

type Query = (sql: string, params: readonly unknown[]) => Promise<Row[]>;

const columnsOf = (relation: ComparedRelation, alias: string) =>
  relation.columns.map(({ name }) => `${alias}."${name}"`).join(", ");

/** Each record stored live for the day, by id: its rows' comparable text. */
export async function storedRowsOfDay(
  query: Query,
  dialect: SqlDialect,
  stream: DayStreamTables,
  locationId: string,
  day: string,
): Promise<Map<string, string>> {
  const { parent, children } = comparedRelations(stream);
  const ofDay = `location_id = ${dialect.param(1)} AND business_date = ${dialect.param(2)}
    AND deleted_at IS NULL`;
  const live = `SELECT id FROM "${parent.name}" WHERE ${ofDay}`;
  const params = [locationId, day];
  const records = new Map<string, { parent: Row; children: Row[][] }>();
  for (const row of await query(
    `SELECT ${columnsOf(parent, "p")} FROM "${parent.name}" p WHERE ${ofDay}`,
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
  const texts = new Map<string, string>();
  for (const [id, rows] of records) texts.set(id, comparableRows(stream, rows, dialect.dateTimes));
  return texts;
}
