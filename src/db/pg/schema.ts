/**
 * The PostgreSQL tables: the contract (../schema/) mirrored table by table, each column
 * with its native type (types.ts), the same keys and indexes, and the foreign keys worth checking
 * there (checkedHere). drizzle-kit reads this file to generate the migrations in drizzle/pg
 * (drizzle.pg.config.ts).
 *
 * The contract's tables are in the configured schema, the others in its internal twin
 * (schemas.ts). Tables that only SQLite needs are left out: its raw archive's dictionaries (PostgreSQL
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
  type PgTable,
  type PgTableWithColumns,
  pgSchema,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { FLAG_COLUMNS } from "../schema/columns.js";
import * as contract from "../schema/index.js";
import { CONTRACT_TABLES } from "../schema/relations.js";
import {
  type ContractForeignKey,
  type ContractTable,
  type ContractTableOutline,
  outlineOf,
} from "../sql/contract-table.js";
import { INTERNAL_SCHEMA_IN_MIGRATIONS } from "./schemas.js";
import { type PgColumnType, pgColumnType } from "./types.js";

/** pos-sync's own tables, in the configured schema's internal twin (exported: drizzle-kit finds
 * the schemas among the module's exports). */
export const internal = pgSchema(INTERNAL_SCHEMA_IN_MIGRATIONS);

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

/** The PostgreSQL type of each column of a contract table, by column name. */
function columnTypes(outline: ContractTableOutline): Map<string, PgColumnType> {
  return new Map(
    outline.columns.map((column) => [column.name, pgColumnType(column, FLAG_COLUMNS)]),
  );
}

/** Each contract table's mirror, and back: what the writers take, and what they learn of the
 * contract (its relations, its rows' shapes) through it. */
const mirrors = new Map<ContractTable, MirroredTable>();
const contracts = new Map<PgTable, ContractTable>();
const typesOf = new Map<PgTable, Map<string, PgColumnType>>();

/** PostgreSQL's table of a contract table: where a stream's tables cross to PostgreSQL. */
export function pgTableOf(table: ContractTable): PgTable {
  const mirrored = mirrors.get(table);
  if (!mirrored) throw new Error("a table of the contract has no PostgreSQL mirror");
  return mirrored;
}

/** The contract table a PostgreSQL table mirrors. */
export function contractOf(table: PgTable): ContractTable {
  const mirrored = contracts.get(table);
  if (!mirrored) throw new Error("a PostgreSQL table mirrors no table of the contract");
  return mirrored;
}

/** The PostgreSQL type of each column of a mirrored table, by column name, in column order. */
export function pgColumnTypes(table: PgTable): ReadonlyMap<string, PgColumnType> {
  const types = typesOf.get(table);
  if (!types) throw new Error("a PostgreSQL table mirrors no table of the contract");
  return types;
}

/**
 * Whether PostgreSQL checks a foreign key of the contract too: all but those to `api_ids`
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
function checkedHere(table: ContractTable, fk: ContractForeignKey): boolean {
  if (contract.CHILD_RELATIONS.some((relation) => relation.table === table)) return false;
  return fk.foreignTable !== contract.apiIds;
}

function mirror(table: ContractTable): MirroredTable {
  const outline = outlineOf(table);
  const types = columnTypes(outline);
  const columns: Record<string, PgColumnBuilderBase> = {};
  for (const column of outline.columns) {
    // biome-ignore lint/style/noNonNullAssertion: types has every column of the table
    let builder = columnBuilder(types.get(column.name)!, column.name) as ReturnType<typeof text>;
    if (column.notNull && !column.autoIncrement) builder = builder.notNull();
    if (column.primary) builder = builder.primaryKey();
    if (column.isUnique) builder = builder.unique(column.uniqueName);
    columns[column.name] = builder;
  }
  // The contract in the configured schema, the rest in its internal twin (schemas.ts).
  const inSchema = CONTRACT_TABLES.includes(outline.name)
    ? pgTable
    : (internal.table as unknown as typeof pgTable);
  const made = inSchema(outline.name, columns, (t) => {
    const col = (name: string) => t[name];
    return [
      ...outline.primaryKeys.map((key) => primaryKey({ columns: key.map(col) as never })),
      ...outline.indexes.map((ix) => {
        const make = ix.unique ? uniqueIndex : index;
        const [first, ...rest] = ix.columns.map(col);
        return make(ix.name).on(first as never, ...(rest as never[]));
      }),
      ...outline.foreignKeys
        .filter((fk) => checkedHere(table, fk))
        .map((fk) => {
          const target = mirrors.get(fk.foreignTable);
          if (!target) throw new Error(`${outline.name}: mirror the tables it refers to first`);
          const built = foreignKey({
            name: fk.name,
            columns: fk.columns.map(col) as never,
            foreignColumns: fk.foreignColumns.map((c) => target[c]) as never,
          });
          return fk.onDelete ? built.onDelete(fk.onDelete) : built;
        }),
    ];
  });
  mirrors.set(table, made);
  contracts.set(made, table);
  typesOf.set(made, types);
  return made;
}

// One export per table: drizzle-kit finds the tables among the module's exports.
export const locations = mirror(contract.locations);
export const devices = mirror(contract.devices);
export const categories = mirror(contract.categories);
export const products = mirror(contract.products);
export const productSubCategories = mirror(contract.productSubCategories);
export const productPrices = mirror(contract.productPrices);
export const modifiers = mirror(contract.modifiers);
export const modifierOptions = mirror(contract.modifierOptions);
export const paymentMethods = mirror(contract.paymentMethods);
export const taxes = mirror(contract.taxes);
export const apiIds = mirror(contract.apiIds);
export const orderRows = mirror(contract.orderRows);
export const orderItemRows = mirror(contract.orderItemRows);
export const orderItemModifierRows = mirror(contract.orderItemModifierRows);
export const orderItemDiscountRows = mirror(contract.orderItemDiscountRows);
export const orderPaymentRows = mirror(contract.orderPaymentRows);
export const reportRows = mirror(contract.reportRows);
export const reportProductRows = mirror(contract.reportProductRows);
export const reportClerkShiftRows = mirror(contract.reportClerkShiftRows);
export const reportDiscountRows = mirror(contract.reportDiscountRows);
export const reportTaxRows = mirror(contract.reportTaxRows);
export const reportPaymentRows = mirror(contract.reportPaymentRows);
export const reportEntryRows = mirror(contract.reportEntryRows);
export const reportOrderRows = mirror(contract.reportOrderRows);
export const orderVersionRows = mirror(contract.orderVersionRows);
export const dailySales = mirror(contract.dailySales);
export const dailyProductSales = mirror(contract.dailyProductSales);
export const dailyPaymentSales = mirror(contract.dailyPaymentSales);
export const dailyTaxSales = mirror(contract.dailyTaxSales);
export const dailyOperatorSales = mirror(contract.dailyOperatorSales);
export const hourlySales = mirror(contract.hourlySales);
export const reportOrderSums = mirror(contract.reportOrderSums);
export const summaryPending = mirror(contract.summaryPending);
export const locationRowCounts = mirror(contract.locationRowCounts);
export const syncRuns = mirror(contract.syncRuns);
export const syncWindows = mirror(contract.syncWindows);
export const rejectedRecords = mirror(contract.rejectedRecords);
export const syncState = mirror(contract.syncState);
export const historyRepairs = mirror(contract.historyRepairs);
export const deliveries = mirror(contract.deliveries);
export const alerts = mirror(contract.alerts);

/**
 * Which worker synced which location when (PostgreSQL alone: SQLite has one writer). A worker
 * holds a location's advisory lock while it syncs it; this table is the history of those turns,
 * for `status` and for proving that no two workers ever synced a location at once.
 */
export const locationClaims = internal.table(
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
export const rawRecords = internal.table(
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
