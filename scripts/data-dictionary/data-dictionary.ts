/**
 * The data dictionary: the facts of the schema (from Drizzle and the migrated views) joined with
 * the hand-written meanings of scripts/data-dictionary/dictionary/. `checkDataDictionary` says where the two
 * disagree; `renderDataDictionary` writes the markdown. Both are pure; only `readSchema` opens
 * a database (in memory).
 */
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { DEFAULT_API_PATHS, SHOWN_PATHS } from "../../src/api/paths.js";
import {
  categorySchema,
  deviceSchema,
  locationSchema,
  modifierSchema,
  orderSchema,
  paymentMethodSchema,
  productSchema,
  reportSchema,
  taxSchema,
} from "../../src/api/schemas.js";
import { type PgColumnType, pgColumnType } from "../../src/db/pg/types.js";
import * as archiveTables from "../../src/db/schema/archive.js";
import * as bookkeepingSchema from "../../src/db/schema/bookkeeping.js";
import * as catalogSchema from "../../src/db/schema/catalog.js";
import {
  FLAG_COLUMNS,
  isAutoIncrement,
  storedColumns,
  twinSource,
} from "../../src/db/schema/columns.js";
import * as historyTables from "../../src/db/schema/history.js";
import * as allTables from "../../src/db/schema/index.js";
import * as locationTables from "../../src/db/schema/location.js";
import * as orderTables from "../../src/db/schema/orders.js";
import { apiIds } from "../../src/db/schema/orders.js";
import {
  CHILD_RELATIONS,
  type ChildRelation,
  type IdRefColumn,
  idRefsOf,
  positionsOf,
  STORED_RELATIONS,
  type StoredRelation,
} from "../../src/db/schema/relations.js";
import * as reportTables from "../../src/db/schema/reports.js";
import * as rollupTables from "../../src/db/schema/rollups.js";
import { BI_VIEWS } from "../../src/db/sql/bi-views.js";
import { tableName } from "../../src/db/sql/table.js";
import { COLUMN_DECLARATIONS } from "../../src/db/sql/view-columns.js";
import { openDatabase } from "../../src/db/sqlite/open.js";
import { packagePath } from "../../src/package-root.js";
import type { ApiRecord, TableDoc, ViewDoc } from "./dictionary/types.js";

/** docs/data-dictionary.md of the project, wherever the process runs from. */
export const DATA_DICTIONARY_FILE = packagePath("docs", "data-dictionary.md");

// --- The facts of the schema ---

export interface ColumnFacts {
  name: string;
  /** e.g. "TEXT NOT NULL" */
  type: string;
  /** The column's type on PostgreSQL (src/db/pg/types.ts), e.g. "timestamptz"; "—" where
   * PostgreSQL keeps no such column. */
  pgType: string;
}

export interface ForeignKeyFacts {
  columns: string[];
  table: string;
  foreignColumns: string[];
}

export interface IndexFacts {
  name: string;
  unique: boolean;
  columns: string[];
}

export interface TableFacts {
  name: string;
  columns: ColumnFacts[];
  /** The typed twins of its days and date-times, which SQLite computes on read for the views
   * (schema/columns.ts). */
  twins: { name: string; type: string }[];
  primaryKey: string[];
  foreignKeys: ForeignKeyFacts[];
  indexes: IndexFacts[];
  /** For a relation of an array (schema/relations.ts): the table that stores its rows, which
   * refers to the parent by `parentKey`. */
  storedIn?: {
    table: string;
    /** For the rows of an array: the column with the parent's key, and the parent's table. */
    parent?: { key: string; table: string };
    /** The ids it keeps by their keys in api_ids. */
    idRefs: readonly IdRefColumn[];
  };
}

export interface TableGroup {
  title: string;
  tables: TableFacts[];
}

export interface ViewColumnFacts {
  name: string;
  /** SQLite's declared type, as a BI tool's driver reads it. */
  type: string;
  /** The type on PostgreSQL. */
  pgType: string;
}

export interface ViewFacts {
  name: string;
  columns: ViewColumnFacts[];
}

export interface SchemaFacts {
  groups: TableGroup[];
  views: ViewFacts[];
}

export interface DictionaryDocs {
  tables: Readonly<Record<string, TableDoc>>;
  views: Readonly<Record<string, ViewDoc>>;
}

/** The schema modules in the order a reader meets the data: where, what is sold, sales, runs.
 * (A module namespace lists its tables alphabetically; the render orders them by the docs.) */
const SCHEMA_GROUPS: { title: string; module: Record<string, unknown> }[] = [
  { title: "Location tables", module: locationTables },
  { title: "Catalog tables", module: catalogSchema },
  { title: "Order tables", module: orderTables },
  { title: "Order history", module: historyTables },
  { title: "Report tables", module: reportTables },
  { title: "Daily summary tables", module: rollupTables },
  { title: "Raw archive tables", module: archiveTables },
  { title: "Bookkeeping tables", module: bookkeepingSchema },
];

/** Tables only SQLite keeps: its archive's dictionaries, its writer lease, its upgrades. */
const SQLITE_ONLY_TABLES = new Set(["raw_dictionaries", "writer_lease", "schema_upgrades"]);

const PG_TYPE_NAMES: Record<PgColumnType, string> = {
  text: "text",
  bigint: "bigint",
  identity: "bigint identity",
  boolean: "boolean",
  numeric: "numeric",
  date: "date",
  timestamptz: "timestamptz",
  jsonb: "jsonb",
};

function postgresType(table: string, column: SQLiteColumn): string {
  const sqlType = column.getSQLType();
  if (SQLITE_ONLY_TABLES.has(table) || sqlType === "blob" || column.name === "dictionary_id")
    return "—";
  return PG_TYPE_NAMES[
    pgColumnType(
      { name: column.name, sqlType, autoIncrement: isAutoIncrement(column) },
      FLAG_COLUMNS,
    )
  ];
}

export function tableFacts(table: SQLiteTable): TableFacts {
  const config = getTableConfig(table);
  const columnKey = config.columns.filter((c) => c.primary).map((c) => c.name);
  const compositeKey = config.primaryKeys.flatMap((key) => key.columns.map((c) => c.name));
  return {
    name: config.name,
    twins: config.columns
      .filter((c) => c.generated !== undefined)
      .map((c) => ({ name: c.name, type: c.getSQLType() })),
    columns: storedColumns(table).map((c) => ({
      name: c.name,
      type: `${c.getSQLType().toUpperCase()}${c.notNull ? " NOT NULL" : ""}`,
      pgType: postgresType(config.name, c),
    })),
    primaryKey: [...columnKey, ...compositeKey],
    foreignKeys: config.foreignKeys.map((fk) => {
      const reference = fk.reference();
      return {
        columns: reference.columns.map((c) => c.name),
        table: getTableConfig(reference.foreignTable).name,
        foreignColumns: reference.foreignColumns.map((c) => c.name),
      };
    }),
    indexes: config.indexes.map((index) => ({
      name: index.config.name,
      unique: index.config.unique,
      // An index on an expression has no column name: show that it is one.
      columns: index.config.columns.map((c) => (is(c, SQLiteColumn) ? c.name : "(expression)")),
    })),
  };
}

/** What a relation of an array shows (a view over the table that stores it: relations.ts): its
 * parent's id for the parent's key, then the stored columns, keys and indexes alike. */
export function relationFacts(relation: ChildRelation): TableFacts {
  const stored = tableFacts(relation.table);
  const parentTable = tableName(relation.parent);
  const parent = shownFacts(relation.parent);
  const asShown = (column: string) => (column === relation.parentKey ? relation.parentId : column);
  const positions = positionsOf(relation);
  const column = (name: string) => stored.columns.find((c) => c.name === name);
  const parentColumn = (name: string) => parent.columns.find((c) => c.name === name);
  const shown = [
    { ...(parentColumn("id") as ColumnFacts), name: relation.parentId },
    ...positions.map((name) => column(name) as ColumnFacts),
    parentColumn("location_id") as ColumnFacts,
    ...stored.columns
      .filter((c) => c.name !== relation.parentKey && !positions.includes(c.name))
      .map(asId(idRefsOf(relation.table))),
  ];
  const shownTable = (table: string) =>
    table === parentTable
      ? parent.name
      : (CHILD_RELATIONS.find((r) => tableName(r.table) === table)?.name ?? table);
  return {
    name: relation.name,
    columns: shown,
    twins: stored.twins,
    primaryKey: stored.primaryKey.map(asShown),
    foreignKeys: stored.foreignKeys
      .filter((fk) => fk.table !== tableName(apiIds))
      .map((fk) => ({
        columns: fk.columns.map(asShown),
        table: shownTable(fk.table),
        foreignColumns: fk.foreignColumns.map((c) =>
          fk.table === parentTable ? (c === "key" ? "id" : c) : asShown(c),
        ),
      })),
    indexes: stored.indexes,
    storedIn: {
      table: stored.name,
      parent: { key: relation.parentKey, table: parentTable },
      idRefs: idRefsOf(relation.table),
    },
  };
}

/** An id kept by its key in api_ids is shown as the id, TEXT like the ids the API sends. */
function asId(refs: readonly IdRefColumn[]): (column: ColumnFacts) => ColumnFacts {
  return (column) => {
    const ref = refs.find((r) => r.stored === column.name);
    if (!ref) return column;
    return { name: ref.shown, type: column.type.replace("INTEGER", "TEXT"), pgType: "text" };
  };
}

/** What a relation stored under another name shows (orders, reports, order_versions:
 * relations.ts): its columns, each id kept by key shown as the id, and its keys and indexes
 * alike. */
export function storedRelationFacts(relation: StoredRelation): TableFacts {
  const stored = tableFacts(relation.table);
  const refs = idRefsOf(relation.table);
  const shownName = (name: string) => refs.find((r) => r.stored === name)?.shown ?? name;
  return {
    name: relation.name,
    columns: stored.columns.map(asId(refs)),
    twins: stored.twins,
    primaryKey: stored.primaryKey,
    foreignKeys: stored.foreignKeys.filter((fk) => fk.table !== tableName(apiIds)),
    indexes: stored.indexes.map((index) => ({ ...index, columns: index.columns.map(shownName) })),
    storedIn: { table: stored.name, idRefs: refs },
  };
}

/** A table as the dictionary shows it: a relation stored under another name (the rows of an
 * array, orders, reports …) under its contract name. */
function shownFacts(table: SQLiteTable): TableFacts {
  const stored = STORED_RELATIONS.find((r) => r.table === table);
  if (stored) return storedRelationFacts(stored);
  const relation = CHILD_RELATIONS.find((r) => r.table === table);
  return relation ? relationFacts(relation) : tableFacts(table);
}

/** The views as the project's own migrations create them, in that order, columns in theirs. */
export function viewFacts(): ViewFacts[] {
  const db = openDatabase(":memory:");
  try {
    const names = db.sqlite
      // By name: the order of creation follows the migrations' history, not the reader.
      .prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'view' ORDER BY name")
      .pluck()
      .all();
    const relations = new Set([
      ...STORED_RELATIONS.map((r) => r.name),
      ...CHILD_RELATIONS.map((r) => r.name),
    ]);
    // Relations stored under other names are views too, shown among the tables (shownFacts).
    return names
      .filter((name) => !relations.has(name))
      .map((name) => {
        const typed = BI_VIEWS.find((view) => view.name === name);
        const columns = db.sqlite
          .prepare<[string], { name: string; type: string }>(
            "SELECT name, type FROM pragma_table_info(?) ORDER BY cid",
          )
          .all(name);
        return {
          name,
          columns: columns.map(({ name: column, type }) => {
            const declared = typed?.columns.find((c) => c.name === column)?.type;
            return {
              name: column,
              type: type.toUpperCase() || "—",
              pgType: declared ? COLUMN_DECLARATIONS[declared].postgres : "—",
            };
          }),
        };
      });
  } finally {
    db.close();
  }
}

const tablesOf = (module: Record<string, unknown>): SQLiteTable[] =>
  Object.values(module).filter((value): value is SQLiteTable => is(value, SQLiteTable));

export function readSchema(): SchemaFacts {
  const groups = SCHEMA_GROUPS.map(({ title, module }) => ({
    title,
    tables: tablesOf(module).map(shownFacts),
  }));
  // A table from a schema module no group names still gets checked (and reported undocumented).
  const grouped = new Set(SCHEMA_GROUPS.flatMap(({ module }) => tablesOf(module)));
  const others = tablesOf(allTables).filter((table) => !grouped.has(table));
  if (others.length > 0) groups.push({ title: "Other tables", tables: others.map(shownFacts) });
  return { groups, views: viewFacts() };
}

// --- API paths ---

const API_RECORD_SCHEMAS: Record<ApiRecord, z.ZodType> = {
  order: orderSchema,
  report: reportSchema,
  location: locationSchema,
  device: deviceSchema,
  product: productSchema,
  category: categorySchema,
  modifier: modifierSchema,
  paymentMethod: paymentMethodSchema,
  tax: taxSchema,
};

/** Where each record comes from, for the "rows come from" line. */
const API_RECORD_SOURCES: Record<ApiRecord, string> = {
  order: `\`GET ${SHOWN_PATHS.orders}\`, one day at a time`,
  report: `\`GET ${SHOWN_PATHS.reports}\`, one day at a time`,
  location: `\`GET ${SHOWN_PATHS.location}\``,
  device: `\`deviceList[]\` of \`GET ${SHOWN_PATHS.location}?devices=true\``,
  product: `\`GET ${SHOWN_PATHS.products}\``,
  category: `\`GET ${SHOWN_PATHS.categories}\``,
  modifier: `\`GET ${SHOWN_PATHS.modifiers}\``,
  paymentMethod: `\`GET ${DEFAULT_API_PATHS.paymentMethods}\` by default`,
  tax: `\`GET ${DEFAULT_API_PATHS.taxes}\` by default`,
};

const API_RECORD_NOUNS: Record<ApiRecord, string> = {
  order: "order",
  report: "report",
  location: "location",
  device: "device",
  product: "product",
  category: "category",
  modifier: "modifier",
  paymentMethod: "payment method",
  tax: "tax",
};

/** The field without the wrappers that only say it may be absent or null. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodDefault
  ) {
    current = current.unwrap();
  }
  return current;
}

/** One step of a path: a field, and `[]` to step into the elements of the array it holds. */
function step(schema: z.core.$ZodType, segment: string): z.core.$ZodType | undefined {
  const intoElements = segment.endsWith("[]");
  const name = intoElements ? segment.slice(0, -2) : segment;
  if (!(schema instanceof z.ZodObject) || !Object.hasOwn(schema.shape, name)) return undefined;
  const field = unwrap(schema.shape[name] as z.core.$ZodType);
  if (!intoElements) return field;
  return field instanceof z.ZodArray ? unwrap(field.element) : undefined;
}

/** The schema at a path such as "items[].tax.taxRate", or undefined when there is none. */
export function resolveApiPath(record: z.core.$ZodType, path: string): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = unwrap(record);
  for (const segment of path.split(".")) {
    if (current === undefined) return undefined;
    current = step(current, segment);
  }
  return current;
}

// --- The check ---

/** Names in `a` that are not in `b`. */
const missingFrom = (a: Iterable<string>, b: Iterable<string>): string[] => {
  const present = new Set(b);
  return [...a].filter((name) => !present.has(name));
};

function checkPaths(table: string, doc: TableDoc): string[] {
  const problems: string[] = [];
  const { record } = doc;
  if (record === null) {
    if (doc.elements !== undefined) problems.push(`${table}: has elements but no API record`);
    for (const [column, { from }] of Object.entries(doc.columns)) {
      if (from !== null)
        problems.push(`${table}.${column}: names API field "${from}" but the table has no record`);
    }
    return problems;
  }
  const schema = API_RECORD_SCHEMAS[record];
  const fieldOf = `is not a field of the ${record} record`;
  const { elements } = doc;
  if (
    elements !== undefined &&
    (!elements.endsWith("[]") || resolveApiPath(schema, elements) === undefined)
  ) {
    problems.push(`${table}: elements "${elements}" ${fieldOf} (or not an array)`);
  }
  for (const [column, { from }] of Object.entries(doc.columns)) {
    if (from !== null && resolveApiPath(schema, from) === undefined)
      problems.push(`${table}.${column}: API field "${from}" ${fieldOf}`);
  }
  return problems;
}

function checkMeanings(name: string, meaning: string, columns: Record<string, string>): string[] {
  const blank = (text: string) => text.trim() === "";
  const problems = blank(meaning) ? [`${name}: empty meaning`] : [];
  for (const [column, text] of Object.entries(columns)) {
    if (blank(text)) problems.push(`${name}.${column}: empty meaning`);
  }
  return problems;
}

function checkTable(table: TableFacts, doc: TableDoc): string[] {
  const columns = table.columns.map((c) => c.name);
  const documented = Object.keys(doc.columns);
  const meanings = Object.fromEntries(
    Object.entries(doc.columns).map(([name, column]) => [name, column.meaning]),
  );
  return [
    ...missingFrom(columns, documented).map(
      (c) => `column ${table.name}.${c} is in the schema but has no documentation`,
    ),
    ...missingFrom(documented, columns).map(
      (c) => `column ${table.name}.${c} is documented but is not in the schema`,
    ),
    ...checkMeanings(table.name, doc.meaning, meanings),
    ...checkPaths(table.name, doc),
  ];
}

/** `x_utc` and `x_sent` say what `x` says, in UTC and as sent: a view documents `x` alone. */
const instantOf = (column: string) => column.match(/^(.+)_(utc|sent)$/)?.[1];

const FORMS: Record<string, (instant: string) => string> = {
  utc: (instant) => `${instant} as the same instant in UTC.`,
  sent: (instant) => `${instant}: ISO 8601 with offset, as sent.`,
};

/** What a view's column means: its doc, or for `x_utc` and `x_sent` what `x` is, in that form. */
export function viewColumnMeaning(doc: ViewDoc, column: string): string | undefined {
  const instant = instantOf(column);
  const form = FORMS[column.slice(column.lastIndexOf("_") + 1)];
  if (instant !== undefined && form && doc.columns[instant] !== undefined && !doc.columns[column])
    return form(instant);
  return doc.columns[column];
}

function checkView(view: ViewFacts, doc: ViewDoc): string[] {
  const documented = Object.keys(doc.columns);
  const columns = view.columns
    .map((c) => c.name)
    .filter((c) => documented.includes(c) || !documented.includes(instantOf(c) ?? ""));
  return [
    ...missingFrom(columns, documented).map(
      (c) => `view column ${view.name}.${c} is in the database but has no documentation`,
    ),
    ...missingFrom(documented, columns).map(
      (c) => `view column ${view.name}.${c} is documented but is not in the view`,
    ),
    ...checkMeanings(view.name, doc.meaning, doc.columns),
  ];
}

/** Everything that keeps the dictionary from describing the schema exactly, in plain words. */
export function checkDataDictionary(schema: SchemaFacts, docs: DictionaryDocs): string[] {
  const tables = schema.groups.flatMap((group) => group.tables);
  const tableNames = tables.map((t) => t.name);
  const viewNames = schema.views.map((v) => v.name);
  return [
    ...missingFrom(tableNames, Object.keys(docs.tables)).map(
      (t) => `table ${t} is in the schema but has no documentation`,
    ),
    ...missingFrom(Object.keys(docs.tables), tableNames).map(
      (t) => `table ${t} is documented but is not in the schema`,
    ),
    ...missingFrom(viewNames, Object.keys(docs.views)).map(
      (v) => `view ${v} is in the database but has no documentation`,
    ),
    ...missingFrom(Object.keys(docs.views), viewNames).map(
      (v) => `view ${v} is documented but is not in the database`,
    ),
    ...tables.flatMap((t) => {
      const doc = docs.tables[t.name];
      return doc ? checkTable(t, doc) : [];
    }),
    ...schema.views.flatMap((v) => {
      const doc = docs.views[v.name];
      return doc ? checkView(v, doc) : [];
    }),
  ];
}

// --- The markdown ---

const INTRO = `# Data dictionary

<!-- Generated by scripts/data-dictionary/write-data-dictionary.ts: do not edit. Regenerate with \`npm run docs:schema\`. -->

Every table and view of the SQLite database that pos-sync fills from the Point-of-Sale Data Read
API. This file is generated from the Drizzle schema (\`src/db/schema/\`), the views' migration
(\`drizzle/0001_views.sql\`) and the meanings written in \`scripts/data-dictionary/dictionary/\`: change those and
run \`npm run docs:schema\`; a test fails while this file is out of date.

**Names.** Tables and columns are snake_case. A column is named after its API field
(\`orderNumber\` → \`order_number\`); a nested single object is flattened with its field names
(an item's \`tax.taxName\` → \`tax_name\`, \`reportHeaderInfo.headerCity\` → \`header_city\`);
an array becomes a child relation keyed by its parent's id and \`position\`, the index in the
array. A child relation is a view over the table that stores it, whose rows refer to their
parent by the parent's integer \`key\` (so that the 36-character ids are not repeated on every
row): query the relation; the tables behind (\`…_rows\`) are named under each.

**Types.** INTEGER columns described as 1/0 are booleans. Date-times are TEXT exactly as the API
sent them (ISO 8601 with the location's offset); pos-sync's own times (\`synced_at\`,
\`deleted_at\`, bookkeeping) are UTC. Money and quantities are REAL as sent (the API does not
state the currency). Tax rates also come as \`tax_rate_bp\`, an INTEGER in hundredths of a
percent (1000 = 10 %, 550 = 5.5 %), the one unit to join order items, catalog and reports on.

**PostgreSQL.** The same tables, columns and views in native types (the *PostgreSQL* column):
1/0 flags are \`boolean\`; days are \`date\`; date-times are \`timestamptz\` (the instant: the
offset the API wrote stays in the archived JSON, the local hour in \`closed_hour\`, the local
day in \`business_date\`); money, quantities and rates are \`numeric\`, the decimal the API wrote,
summed exactly to the cent (double precision would add binary rounding to every sum); JSON is
\`jsonb\`; whole numbers are \`bigint\`, as wide as SQLite's INTEGER. \`raw_records\` holds each
document as \`json\` in \`document\`, the text as received (PostgreSQL compresses it itself; no
dictionaries; a database made before keeps jsonb's text for the documents it held), and
\`location_claims\` records which worker synced which location when (docs/scaling.md). Text
cannot hold the NUL character there: one the API sends is stored as U+FFFD.

**Columns of the tables below.** *key*: PK is part of the primary key, FK → table.column refers
to that column (child rows go when their parent row goes). *API field*: the path of the field in
the table's API record (\`items[].tax.taxRate\` is the \`taxRate\` of the \`tax\` of each element
of \`items\`); — means pos-sync derives the value, as the meaning says.

**Sales.** A sale is an order that is neither cancelled, nor made in training mode, nor
transferred to a hotel room account (a report's \`total_sales\` excludes transferred orders);
inside a sale, cancelled lines count in no product, tax or quantity figure. The views apply
this rule and round their sums to cents.`;

/** Text safe inside a markdown table cell. */
const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

const code = (name: string): string => `\`${name}\``;

function requireDoc<T>(doc: T | undefined, what: string): T {
  if (doc === undefined) throw new Error(`${what} has no documentation: run the check first`);
  return doc;
}

function rowsComeFrom(doc: TableDoc): string {
  if (doc.rowsFrom !== undefined) return doc.rowsFrom;
  if (doc.record === null) return "pos-sync itself: this table records its own work, not API data.";
  const noun = API_RECORD_NOUNS[doc.record];
  const source = API_RECORD_SOURCES[doc.record];
  return doc.elements === undefined
    ? `one row per ${noun} record (${source}).`
    : `one row per element of ${code(doc.elements)} in each ${noun} record (${source}).`;
}

function keyCell(table: TableFacts, column: string): string {
  const parts = table.primaryKey.includes(column) ? ["PK"] : [];
  for (const fk of table.foreignKeys) {
    const at = fk.columns.indexOf(column);
    const target = fk.foreignColumns[at];
    if (at >= 0 && target !== undefined) parts.push(`FK → ${fk.table}.${target}`);
  }
  return parts.join(", ");
}

function columnRow(table: TableFacts, column: ColumnFacts, doc: TableDoc): string {
  const columnDoc = requireDoc(doc.columns[column.name], `column ${table.name}.${column.name}`);
  const from = columnDoc.from === null ? "—" : code(columnDoc.from);
  const cells = [code(column.name), column.type, column.pgType, keyCell(table, column.name), from];
  return `| ${[...cells, columnDoc.meaning].map(cell).join(" | ")} |`;
}

/** A column of an index; a typed twin with the column PostgreSQL indexes in its place. */
function indexedColumn(table: TableFacts, name: string): string {
  if (!table.twins.some((twin) => twin.name === name)) return code(name);
  return `${code(name)} (on PostgreSQL ${code(twinSource(name))})`;
}

function indexLines(table: TableFacts): string[] {
  if (table.indexes.length === 0) return ["**Indexes:** none besides the key."];
  return [
    "**Indexes:**",
    "",
    ...table.indexes.map(
      (index) =>
        `- ${code(index.name)}${index.unique ? " (unique)" : ""} on ${index.columns.map((name) => indexedColumn(table, name)).join(", ")}`,
    ),
  ];
}

function storedInLines(table: TableFacts): string[] {
  const { storedIn } = table;
  if (!storedIn) return [];
  const { parent, idRefs } = storedIn;
  const refers = parent
    ? [
        `refer to their ${parent.key.replace(/_key$/, "")} by ${code(parent.key)} (${code(`${parent.table}.key`)}) instead of repeating its id and location`,
      ]
    : [];
  if (idRefs.length > 0)
    refers.push(
      `keep ${idRefs.map((r) => code(r.shown)).join(", ")} by their keys in ${code("api_ids")} (${idRefs.map((r) => code(r.stored)).join(", ")})`,
    );
  const view =
    refers.length === 0
      ? `${code(table.name)} is a view of its columns, without the typed twins`
      : `whose rows ${refers.join(" and ")}; ${code(table.name)} is a view that joins them back`;
  return [`**Stored in:** ${code(storedIn.table)}${refers.length === 0 ? ": " : ", "}${view}.`, ""];
}

function twinLines(table: TableFacts): string[] {
  if (table.twins.length === 0) return [];
  const list = table.twins.map((twin) => `${code(twin.name)} ${twin.type}`).join(", ");
  return [
    `**Typed twins** (SQLite computes them on read and stores nothing of them outside an index; the views show them, so that a BI tool reads days as DATE and date-times as TIMESTAMP, in SQLite's own text \`YYYY-MM-DD HH:MM:SS.SSS\`: \`…_typed\` on the location's wall clock (the instant plus its \`…_offset\`), \`…_utc\` in UTC): ${list}.`,
    "",
  ];
}

function renderTable(table: TableFacts, docs: DictionaryDocs): string {
  const doc = requireDoc(docs.tables[table.name], `table ${table.name}`);
  const key = table.primaryKey.length === 0 ? "none" : table.primaryKey.map(code).join(", ");
  return [
    `### ${table.name}`,
    "",
    doc.meaning,
    "",
    `**Rows come from:** ${rowsComeFrom(doc)}`,
    "",
    `**Key:** ${key}.`,
    "",
    ...storedInLines(table),
    "| column | type | PostgreSQL | key | API field | meaning |",
    "|---|---|---|---|---|---|",
    ...table.columns.map((column) => columnRow(table, column, doc)),
    "",
    ...twinLines(table),
    ...indexLines(table),
  ].join("\n");
}

function renderView(view: ViewFacts, docs: DictionaryDocs): string {
  const doc = requireDoc(docs.views[view.name], `view ${view.name}`);
  const rows = view.columns.map((column) => {
    const meaning = requireDoc(
      viewColumnMeaning(doc, column.name),
      `view column ${view.name}.${column.name}`,
    );
    return `| ${[code(column.name), column.type, column.pgType, meaning].map(cell).join(" | ")} |`;
  });
  return [
    `### ${view.name}`,
    "",
    doc.meaning,
    "",
    "| column | type | PostgreSQL | meaning |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** A GitHub heading anchor: lower case, spaces to dashes, punctuation other than - and _ dropped. */
const anchor = (heading: string): string =>
  `#${heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replaceAll(" ", "-")}`;

const VIEWS_TITLE = "Views for BI";

/** A group's tables in the order the dictionary lists them (parents before children). */
function inDocsOrder(tables: TableFacts[], docs: DictionaryDocs): TableFacts[] {
  const order = Object.keys(docs.tables);
  const rank = (t: TableFacts) => {
    const at = order.indexOf(t.name);
    return at < 0 ? order.length : at;
  };
  return [...tables].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

function contents(schema: SchemaFacts, docs: DictionaryDocs): string {
  const entry = (title: string, names: string[]) =>
    `- [${title}](${anchor(title)}): ${names.map((n) => `[${n}](${anchor(n)})`).join(", ")}`;
  return [
    "## Contents",
    "",
    ...schema.groups.map((g) =>
      entry(
        g.title,
        inDocsOrder(g.tables, docs).map((t) => t.name),
      ),
    ),
    entry(
      VIEWS_TITLE,
      schema.views.map((v) => v.name),
    ),
  ].join("\n");
}

/** The whole markdown file; the same schema and docs always give the same text. */
export function renderDataDictionary(schema: SchemaFacts, docs: DictionaryDocs): string {
  const sections = [INTRO, contents(schema, docs)];
  for (const group of schema.groups) {
    sections.push(
      `## ${group.title}`,
      ...inDocsOrder(group.tables, docs).map((t) => renderTable(t, docs)),
    );
  }
  sections.push(`## ${VIEWS_TITLE}`, ...schema.views.map((v) => renderView(v, docs)));
  return `${sections.join("\n\n")}\n`;
}
