/**
 * The PostgreSQL tables: the SQLite contract (../schema/) mirrored table by table, each column
 * with its native type (types.ts), the same keys and indexes, and the foreign keys worth checking
 * there (checkedHere). drizzle-kit reads this file to generate the migrations in drizzle/pg
 * (drizzle.pg.config.ts).
 *
 * Tables that only SQLite needs are left out: its raw archive's dictionaries (PostgreSQL
 * compresses large values itself), the single-writer lease (per-location locks replace it) and the
 * upgrades of files older releases made.
 */

import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  foreignKey,
  index,
  json,
  jsonb,
  numeric,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import {
  getTableConfig,
  type SQLiteColumn,
  type ForeignKey as SQLiteForeignKey,
  type SQLiteTable,
} from "drizzle-orm/sqlite-core";
import { FLAG_COLUMNS, isAutoIncrement, storedColumns } from "../schema/columns.js";
import * as sqlite from "../schema/index.js";
import { type PgColumnType, pgColumnType } from "./types.js";

// biome-ignore lint/suspicious/noExplicitAny: a table built from another table's description has columns known only at run time
type MirroredTable = PgTableWithColumns<any>;

function columnBuilder(type: PgColumnType, name: string): PgColumnBuilderBase {
  switch (type) {
    case "text":
      return text(name);
    case "bigint":
      return bigint(name, { mode: "number" });
    case "identity":
      return bigint(name, { mode: "number" }).generatedByDefaultAsIdentity();
    case "boolean":
      return boolean(name);
    case "numeric":
      return numeric(name);
    case "date":
      return date(name, { mode: "string" });
    case "timestamptz":
      return timestamp(name, { withTimezone: true, mode: "string" });
    case "jsonb":
      return jsonb(name);
  }
}

/** The PostgreSQL type of each column of a SQLite table, by column name. */
export function pgColumnTypes(table: SQLiteTable): Map<string, PgColumnType> {
  return new Map(
    storedColumns(table).map((column) => [
      column.name,
      pgColumnType(
        { name: column.name, sqlType: column.getSQLType(), autoIncrement: isAutoIncrement(column) },
        FLAG_COLUMNS,
      ),
    ]),
  );
}

const mirrors = new Map<SQLiteTable, MirroredTable>();

/**
 * Whether PostgreSQL checks a foreign key of the SQLite schema too: all but those to `api_ids`
 * and those of the child tables of orders and reports. PostgreSQL checks a key by locking the row
 * it names, row by row.
 * - The rows of every page written at once name the same few hundred catalog ids: measured, those
 *   checks cost the write path 4-16 %. The keys come from `api_ids` (pg/api-ids.ts) and its ids
 *   are never removed, so none can name a missing row.
 * - A child row names the parent its own page inserted, in the same transaction, with the key that
 *   insert returned (pg/day-writer.ts). Measured, those checks cost the server 4-7 µs a row, a
 *   sixth of its time on a backfill. The cascade on delete stays, as a trigger on the parent's
 *   table that deletes the child rows once per statement (drizzle/pg/0012_*.sql).
 */
function checkedHere(table: SQLiteTable, fk: SQLiteForeignKey): boolean {
  if (sqlite.CHILD_RELATIONS.some((relation) => relation.table === table)) return false;
  return fk.reference().foreignTable !== sqlite.apiIds;
}

function mirror(table: SQLiteTable): MirroredTable {
  const config = getTableConfig(table);
  const types = pgColumnTypes(table);
  const columns: Record<string, PgColumnBuilderBase> = {};
  for (const column of storedColumns(table)) {
    // biome-ignore lint/style/noNonNullAssertion: types has every column of the table
    let builder = columnBuilder(types.get(column.name)!, column.name) as ReturnType<typeof text>;
    if (column.notNull && !isAutoIncrement(column)) builder = builder.notNull();
    if (column.primary) builder = builder.primaryKey();
    if (column.isUnique) builder = builder.unique(column.uniqueName);
    columns[column.name] = builder;
  }
  const made = pgTable(config.name, columns, (t) => {
    const col = (c: SQLiteColumn | unknown) => {
      if (typeof c !== "object" || c === null || !("name" in c)) {
        throw new Error(`${config.name}: only plain columns can be mirrored in an index`);
      }
      return t[(c as SQLiteColumn).name];
    };
    return [
      ...config.primaryKeys.map((key) => primaryKey({ columns: key.columns.map(col) as never })),
      ...config.indexes.map((ix) => {
        const make = ix.config.unique ? uniqueIndex : index;
        const [first, ...rest] = ix.config.columns.map(col);
        return make(ix.config.name).on(first as never, ...(rest as never[]));
      }),
      ...config.foreignKeys
        .filter((fk) => checkedHere(table, fk))
        .map((fk) => {
          const reference = fk.reference();
          const target = mirrors.get(reference.foreignTable);
          if (!target) throw new Error(`${config.name}: mirror ${reference.foreignTable} first`);
          const built = foreignKey({
            name: fk.getName(),
            columns: reference.columns.map(col) as never,
            foreignColumns: reference.foreignColumns.map((c) => target[c.name]) as never,
          });
          return fk.onDelete ? built.onDelete(fk.onDelete) : built;
        }),
    ];
  });
  mirrors.set(table, made);
  return made;
}

// One export per table: drizzle-kit finds the tables among the module's exports.
export const locations = mirror(sqlite.locations);
export const devices = mirror(sqlite.devices);
export const categories = mirror(sqlite.categories);
export const products = mirror(sqlite.products);
export const productSubCategories = mirror(sqlite.productSubCategories);
export const productPrices = mirror(sqlite.productPrices);
export const modifiers = mirror(sqlite.modifiers);
export const modifierOptions = mirror(sqlite.modifierOptions);
export const paymentMethods = mirror(sqlite.paymentMethods);
export const taxes = mirror(sqlite.taxes);
export const apiIds = mirror(sqlite.apiIds);
export const orderRows = mirror(sqlite.orderRows);
export const orderItemRows = mirror(sqlite.orderItemRows);
export const orderItemModifierRows = mirror(sqlite.orderItemModifierRows);
export const orderItemDiscountRows = mirror(sqlite.orderItemDiscountRows);
export const orderPaymentRows = mirror(sqlite.orderPaymentRows);
export const reports = mirror(sqlite.reports);
export const reportProductRows = mirror(sqlite.reportProductRows);
export const reportClerkShiftRows = mirror(sqlite.reportClerkShiftRows);
export const reportDiscountRows = mirror(sqlite.reportDiscountRows);
export const reportTaxRows = mirror(sqlite.reportTaxRows);
export const reportPaymentRows = mirror(sqlite.reportPaymentRows);
export const reportEntryRows = mirror(sqlite.reportEntryRows);
export const reportOrderRows = mirror(sqlite.reportOrderRows);
export const orderVersions = mirror(sqlite.orderVersions);
export const dailySales = mirror(sqlite.dailySales);
export const dailyProductSales = mirror(sqlite.dailyProductSales);
export const dailyPaymentSales = mirror(sqlite.dailyPaymentSales);
export const dailyTaxSales = mirror(sqlite.dailyTaxSales);
export const dailyOperatorSales = mirror(sqlite.dailyOperatorSales);
export const hourlySales = mirror(sqlite.hourlySales);
export const reportOrderSums = mirror(sqlite.reportOrderSums);
export const summaryPending = mirror(sqlite.summaryPending);
export const locationRowCounts = mirror(sqlite.locationRowCounts);
export const syncRuns = mirror(sqlite.syncRuns);
export const syncWindows = mirror(sqlite.syncWindows);
export const rejectedRecords = mirror(sqlite.rejectedRecords);
export const syncState = mirror(sqlite.syncState);
export const historyRepairs = mirror(sqlite.historyRepairs);
export const deliveries = mirror(sqlite.deliveries);
export const alerts = mirror(sqlite.alerts);

/**
 * Which worker synced which location when (PostgreSQL alone: SQLite has one writer). A worker
 * holds a location's advisory lock while it syncs it; this table is the history of those turns,
 * for `status` and for proving that no two workers ever synced a location at once.
 */
export const locationClaims = pgTable(
  "location_claims",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    /** The fingerprint of the location's API key (a key reads one location). */
    key_fingerprint: text("key_fingerprint").notNull(),
    /** Set when the turn ends, once the location is known. */
    location_id: text("location_id"),
    run_id: bigint("run_id", { mode: "number" }).notNull(),
    /** host:pid of the worker process. */
    worker: text("worker").notNull(),
    started_at: timestamp("started_at", { withTimezone: true, mode: "string" }).notNull(),
    finished_at: timestamp("finished_at", { withTimezone: true, mode: "string" }),
    /** running, done, failed (a database failure stopped it) or interrupted (its worker died or
     * was stopped). */
    status: text("status").notNull(),
  },
  (t) => [
    index("location_claims_key").on(t.key_fingerprint, t.started_at),
    // The turns a run and status look for by key, few whatever the history's length: the one
    // running, and those whose location is not known yet.
    index("location_claims_open")
      .on(t.key_fingerprint)
      .where(sql`status = 'running' OR location_id IS NULL`),
  ],
);

/** The JSON of every parent record as received: json keeps the text as it is (jsonb would reorder
 * its keys and rewrite its numbers), and PostgreSQL compresses it itself. */
export const rawRecords = pgTable(
  "raw_records",
  {
    table_name: text("table_name").notNull(),
    location_id: text("location_id").notNull(),
    id: text("id").notNull(),
    document: json("document").notNull(),
    synced_at: timestamp("synced_at", { withTimezone: true, mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.table_name, t.id, t.location_id] })],
);
