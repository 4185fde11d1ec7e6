/**
 * The contract's relations of orders' and reports' arrays (`order_items`, `report_orders` …), and
 * the tables that store them. A stored row refers to its parent by the parent's integer key; its
 * relation, a view (views.ts), gives it the parent's id and location back, in the contract's
 * column order: the parent's id, the row's positions, the location, then the row's own columns,
 * with each id of the API where the table keeps its key (`item_catalog_ref` shown as
 * `item_catalog_id`). Writes bring rows in the relation's shape (normalize/), and history keeps
 * them so.
 */
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TwinName } from "./columns.js";
import { orderVersionRows } from "./history.js";
import {
  apiIds,
  orderItemDiscountRows,
  orderItemModifierRows,
  orderItemRows,
  orderPaymentRows,
  orderRows,
} from "./orders.js";
import {
  reportClerkShiftRows,
  reportDiscountRows,
  reportEntryRows,
  reportOrderRows,
  reportPaymentRows,
  reportProductRows,
  reportRows,
  reportTaxRows,
} from "./reports.js";

/** The relation's name of a stored column: an id kept by its key (`item_catalog_ref`) is shown
 * as the id (`item_catalog_id`). */
type Shown<C extends string> = C extends `${infer Name}_ref` ? `${Name}_id` : C;

/** A stored row as its relation shows it, less the columns `Left`: each id for its key. */
export type ShownRow<T extends { $inferSelect: object }, Left extends string = never> = {
  [C in Exclude<keyof T["$inferSelect"], Left | TwinName> &
    string as Shown<C>]: C extends `${string}_ref`
    ? string | Extract<T["$inferSelect"][C], null>
    : T["$inferSelect"][C];
};

/** A row of a relation: the stored row, with its parent's id and location for its parent's key,
 * and the ids of the API for their keys. */
export type RelationRow<
  T extends { $inferSelect: object },
  Key extends string,
  Id extends string,
> = ShownRow<T, Key> & { [P in Id]: string } & { location_id: string };

/** A stored column that keeps an id of the API by its key in `api_ids`, and the relation's column
 * that shows the id. */
export interface IdRefColumn {
  readonly stored: string;
  readonly shown: string;
}

export interface ChildRelation {
  /** The contract's name. */
  readonly name: string;
  /** Where its rows are stored. */
  readonly table: SQLiteTable;
  readonly parent: SQLiteTable;
  /** The relation's column with the parent's id (`order_id`). */
  readonly parentId: string;
  /** The table's column with the parent's key (`order_key`). */
  readonly parentKey: string;
}

/** The columns of a table that refer to `api_ids`. */
export function idRefsOf(table: SQLiteTable): IdRefColumn[] {
  return getTableConfig(table)
    .foreignKeys.map((fk) => fk.reference())
    .filter((reference) => reference.foreignTable === apiIds)
    .map((reference) => {
      const stored = (reference.columns[0] as { name: string }).name;
      return { stored, shown: stored.replace(/_ref$/, "_id") };
    });
}

const ofOrders = (name: string, table: SQLiteTable): ChildRelation => ({
  name,
  table,
  parent: orderRows,
  parentId: "order_id",
  parentKey: "order_key",
});

const ofReports = (name: string, table: SQLiteTable): ChildRelation => ({
  name,
  table,
  parent: reportRows,
  parentId: "report_id",
  parentKey: "report_key",
});

export const CHILD_RELATIONS: readonly ChildRelation[] = [
  ofOrders("order_items", orderItemRows),
  ofOrders("order_item_modifiers", orderItemModifierRows),
  ofOrders("order_item_discounts", orderItemDiscountRows),
  ofOrders("order_payments", orderPaymentRows),
  ofReports("report_products", reportProductRows),
  ofReports("report_clerk_shifts", reportClerkShiftRows),
  ofReports("report_discounts", reportDiscountRows),
  ofReports("report_taxes", reportTaxRows),
  ofReports("report_payments", reportPaymentRows),
  ofReports("report_entries", reportEntryRows),
  ofReports("report_orders", reportOrderRows),
];

/** A relation of the contract stored under another name (`orders` in `order_rows`, its ids
 * kept by their keys): its relation is a view (views.ts) of the stored columns, without the
 * typed twins the BI views read from the table, so that `SELECT *` gives the same columns in the
 * same order on both databases. */
export interface StoredRelation {
  /** The contract's name. */
  readonly name: string;
  readonly table: SQLiteTable;
}

export const STORED_RELATIONS: readonly StoredRelation[] = [
  { name: "orders", table: orderRows },
  { name: "reports", table: reportRows },
  { name: "order_versions", table: orderVersionRows },
];

/** The tables that are relations of the contract themselves (design.md's list and the audit's
 * repairs): with the stored relations, those of arrays and the views, what analysts
 * and BI tools read (on PostgreSQL, what carries a comment, and so what a BI role is granted).
 * The rest (the tables under the relations, ids by key, the raw archive, the summaries the views
 * read, the bookkeeping of runs in progress) is pos-sync's own. */
export const CONTRACT_TABLES: readonly string[] = [
  "locations",
  "devices",
  "categories",
  "products",
  "product_sub_categories",
  "product_prices",
  "modifiers",
  "modifier_options",
  "payment_methods",
  "taxes",
  "sync_runs",
  "sync_windows",
  "history_repairs",
  "rejected_records",
];

/** The contract's name of what a table stores: `orders` for `order_rows`, `order_items` for
 * `order_item_rows` …, the table's own name for the tables that are relations themselves.
 * Reads and the records' names (the raw archive, the history) use it; writes use the table. */
export function relationName(table: SQLiteTable): string {
  const stored = STORED_RELATIONS.find((relation) => relation.table === table);
  if (stored) return stored.name;
  return CHILD_RELATIONS.find((r) => r.table === table)?.name ?? getTableConfig(table).name;
}

/** The columns that tell apart the rows of one parent (`position`, or `item_position` and
 * `position`), in key order. */
export function positionsOf(relation: ChildRelation): string[] {
  const key = getTableConfig(relation.table).primaryKeys[0]?.columns ?? [];
  return key.map((column) => column.name).filter((name) => name !== relation.parentKey);
}

/** The relation a child table stores. */
export function relationOf(table: SQLiteTable): ChildRelation {
  const relation = CHILD_RELATIONS.find((r) => r.table === table);
  if (!relation) throw new Error("not a child table of orders or reports");
  return relation;
}
