/**
 * One SQL text for both destinations. A dialect writes the few things SQLite and PostgreSQL spell
 * differently (parameters, lists, JSON fields, a sent date-time); a session runs a text on a
 * connection of either and answers rows alike (pg/connect.ts reads PostgreSQL's values back as
 * SQLite gives them). Everything else is written once, in the SQL both accept: flags tested as
 * `NOT o.is_canceled` (SQLite's 0/1 read as false/true), aliases in double quotes, NULLS FIRST.
 */
import { offsetColumn } from "../schema/columns.js";
import {
  postgresTypedView,
  sqliteTypedView,
  type ViewColumnValue,
  viewColumnTypesTable,
} from "./view-columns.js";

export interface SqlDialect {
  /** The n-th parameter (1-based), usable more than once: `?n` for SQLite, `$n` for PostgreSQL. */
  param(n: number): string;
  /** Whether `column` is in the list given as the n-th parameter (an array of text). */
  inList(column: string, n: number): string;
  /** The elements of the list given as the n-th parameter, as a relation of rows
   * `alias.value`. */
  elements(n: number, alias: string): string;
  /** A list as its parameter is bound (inList, elements): SQLite's JSON text, PostgreSQL's
   * array. (A session of reads binds its own: reads/session.ts.) */
  list(values: readonly string[]): unknown;
  /** The rows of `table` that `condition` picks and no other transaction holds, locked for this
   * one: PostgreSQL's workers write side by side, and each leaves what another holds to it;
   * SQLite has one writer. */
  unlocked(table: string, condition: string): string;
  /** An integer field of sync_runs.stats (a JSON document). */
  statsField(field: string): string;
  /** The createdAt, offset and all, of the location (parameter 1) whose business day is the
   * newest, as `sent`: SQLite keeps the text, PostgreSQL the instant (the text stays in the raw
   * archive; no row with the archive off). Read on the storage table's location/day index: its
   * cost does not grow with the years a location has been synced, as one through the `orders`
   * view (which hides the location's key) did on PostgreSQL. */
  newestOrderSent: string;
  /** The local calendar day of a date-time column as the API wrote it; PostgreSQL, which keeps
   * the instant, needs the location's UTC offset in minutes as the n-th parameter. */
  sentDay(column: string, offsetParam: number): string;
  /** How the destination keeps the API's date-times: as written, or as the instants they name. */
  dateTimes: "as sent" | "as instants";

  // What the views (views.ts) spell differently.
  /** A condition's truth as the dialect stores a flag: 0/1 on SQLite, a boolean on PostgreSQL. */
  flag(condition: string): string;
  /** The ISO 8601 weekday of a day: 1 = Monday … 7 = Sunday. */
  weekday(day: string): string;
  /** A field of a JSON document, by a dotted path, as the type given. */
  jsonValue(
    document: string,
    path: string,
    type: "text" | "integer" | "numeric" | "boolean",
  ): string;
  /** A join to the elements of a JSON array (at `path` in the document, if given), as
   * `alias.value`; `elementPosition(alias)` is each one's 0-based position. */
  jsonElements(document: string, alias: string, path?: string): string;
  elementPosition(alias: string): string;
  isJsonArray(document: string): string;
  /** A date-time column as a value that compares as an instant (SQLite keeps offsets in text). */
  instant(column: string): string;
  /** Whole minutes from one date-time to a later one. */
  minutesBetween(later: string, earlier: string): string;
  /** The larger of two numbers. */
  greatest(a: string, b: string): string;
  /** A day column (`o.business_date`) as a view shows it: on SQLite its typed twin. */
  typed(column: string): string;
  /** A date-time column (`o.closed_at`) on the location's wall clock, from the instant and the
   * offset kept beside it (schema/columns.ts, clockColumns): on SQLite its typed twin. */
  local(column: string): string;
  /** A date-time column as the same instant in UTC, without offset. */
  utc(column: string): string;
  /** A view whose columns each declare their type (view-columns.ts): `columns` over `from` (FROM,
   * WHERE, GROUP BY). */
  typedView(columns: readonly ViewColumnValue[], from: string): string;
  /** What typed views need made before them. */
  typedViewsNeed: readonly string[];
}

export const SQLITE_DIALECT: SqlDialect = {
  param: (n) => `?${n}`,
  inList: (column, n) => `${column} IN (SELECT value FROM json_each(?${n}))`,
  elements: (n, alias) => `json_each(?${n}) AS ${alias}`,
  list: (values) => JSON.stringify(values),
  unlocked: (_table, condition) => condition,
  statsField: (field) => `json_extract(stats, '$.${field}')`,
  newestOrderSent: `SELECT created_at AS sent FROM order_rows
    WHERE location_ref = (SELECT key FROM api_ids WHERE id = ?1)
    ORDER BY business_date DESC LIMIT 1`,
  sentDay: (column) => `substr(${column}, 1, 10)`,
  dateTimes: "as sent",
  flag: (condition) => `IIF(${condition}, 1, 0)`,
  weekday: (day) => `(CAST(strftime('%w', ${day}) AS INTEGER) + 6) % 7 + 1`,
  jsonValue: (document, path, type) => {
    const value = `json_extract(${document}, '$.${path}')`;
    // Typed, so that a view naming it through a common table expression declares its type.
    return type === "boolean" ? value : `CAST(${value} AS ${type.toUpperCase()})`;
  },
  jsonElements: (document, alias, path) =>
    `JOIN json_each(${document}${path ? `, '$.${path}'` : ""}) ${alias}`,
  elementPosition: (alias) => `CAST(${alias}.key AS INTEGER)`,
  isJsonArray: (document) => `json_type(${document}) = 'array'`,
  instant: (column) => `julianday(${column})`,
  minutesBetween: (later, earlier) =>
    `CAST(ROUND((julianday(${later}) - julianday(${earlier})) * 1440) AS INTEGER)`,
  greatest: (a, b) => `MAX(${a}, ${b})`,
  typed: (column) => `${column}_typed`,
  local: (column) => `${column}_typed`,
  utc: (column) => `${column}_utc`,
  typedView: sqliteTypedView,
  typedViewsNeed: [viewColumnTypesTable()],
};

/** An instant's UTC wall time (`timestamp`), rounded to the millisecond as SQLite's text is: the
 * API may send more digits, which both then show alike. */
const toMilliseconds = (instant: string) =>
  `date_trunc('milliseconds', (${instant}) AT TIME ZONE 'UTC' + interval '500 microseconds')`;

/** `document -> 'a' ->> 'b'` for the path a.b. */
function pgJsonText(document: string, path: string): string {
  const keys = path.split(".").map((key) => `'${key}'`);
  const last = keys.pop();
  return `${[document, ...keys].join(" -> ")} ->> ${last}`;
}

export const POSTGRES_DIALECT: SqlDialect = {
  param: (n) => `$${n}`,
  inList: (column, n) => `${column} = ANY($${n}::text[])`,
  elements: (n, alias) => `unnest($${n}::text[]) AS ${alias}(value)`,
  list: (values) => values,
  unlocked: (table, condition) =>
    `ctid IN (SELECT ctid FROM ${table} WHERE ${condition} FOR UPDATE SKIP LOCKED)`,
  statsField: (field) => `(stats->>'${field}')::int`,
  newestOrderSent: `SELECT r.document ->> 'createdAt' AS sent FROM (
      SELECT id FROM order_rows WHERE location_ref = (SELECT key FROM api_ids WHERE id = $1)
      ORDER BY business_date DESC LIMIT 1) o
    JOIN raw_records r ON r.table_name = 'orders' AND r.location_id = $1 AND r.id = o.id`,
  sentDay: (column, offsetParam) =>
    `(${column} AT TIME ZONE 'UTC' + make_interval(mins => $${offsetParam}))::date`,
  dateTimes: "as instants",
  flag: (condition) => condition,
  weekday: (day) => `EXTRACT(ISODOW FROM ${day})::integer`,
  jsonValue: (document, path, type) =>
    type === "text" ? pgJsonText(document, path) : `(${pgJsonText(document, path)})::${type}`,
  jsonElements: (document, alias, path) =>
    `CROSS JOIN LATERAL jsonb_array_elements(${document}${path ? ` -> '${path}'` : ""}) WITH ORDINALITY AS ${alias}(value, ordinality)`,
  elementPosition: (alias) => `(${alias}.ordinality - 1)::integer`,
  isJsonArray: (document) => `jsonb_typeof(${document}) = 'array'`,
  instant: (column) => column,
  minutesBetween: (later, earlier) =>
    `ROUND(EXTRACT(EPOCH FROM ${later} - ${earlier}) / 60)::integer`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  typed: (column) => column,
  local: (column) => toMilliseconds(`${column} + ${offsetColumn(column)} * interval '1 minute'`),
  utc: (column) => toMilliseconds(column),
  typedView: postgresTypedView,
  typedViewsNeed: [],
};

/** An analyst's query answered: the columns as it names them, the rows as arrays. */
export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

/** Runs SQL of its dialect on one destination's connection. */
export interface SqlSession {
  readonly dialect: SqlDialect;
  /** Parameters in order: `param(1)` is the first. Arrays are lists (`inList`). */
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Rows as arrays, with the column names: an analyst's query. */
  table(sql: string): Promise<QueryResult>;
}
