/**
 * The views for BI tools and analysts, and the contract's relations of orders' and reports' arrays
 * over the tables that store them, written once and rendered for each dialect: the migrations
 * that create them (drizzle/, drizzle/pg/) are generated from this file by `npm run db:views`
 * (scripts/view-migrations.ts), and a test fails when they fall behind it. What each view
 * and column means is told in scripts/data-dictionary/dictionary. Every view leaves out the orders and reports a
 * complete re-read no longer listed (deleted_at) and names the location.
 */
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  CHILD_RELATIONS,
  type ChildRelation,
  dailyOperatorSales,
  dailyPaymentSales,
  dailyProductSales,
  dailyTaxSales,
  hourlySales,
  idRefsOf,
  ORDERS_RELATION,
  positionsOf,
  relationName,
  type StoredRelation,
} from "../schema/index.js";
import type { SqlDialect } from "./dialect.js";
import { SALE } from "./rollups.js";
import { tableName } from "./table.js";

export interface ViewSource {
  name: string;
  /** The SELECT that defines the view. */
  select(d: SqlDialect): string;
}

/** Each order's payments, summed by its key: `p(order_key, paid, payments)`. (Grouped apart:
 * `orders` is a view, whose other columns a GROUP BY of its key does not carry on PostgreSQL.) */
const PAYMENTS_BY_ORDER = `(SELECT order_key, SUM(payment_amount) AS paid, COUNT(*) AS payments
  FROM order_payment_rows GROUP BY order_key)`;

/** A location's name beside its id: every view has it. */
const LOCATION = "LEFT JOIN locations l ON l.id";

/** The columns that name an order `o` (with `l` its location) in the order views. */
const AN_ORDER = "o.id AS order_id, o.location_id, l.name AS location_name, o.business_date";
/** …and, in the loss-prevention views, its number and who served it. */
const AN_OPERATORS_ORDER = `${AN_ORDER}, o.order_number, o.operator_id, o.operator_name`;

/** A view of one summary table (sql/rollups.ts) of a location's days, with the location's name:
 * the table's columns, and others `first` and `last`. */
function summaryView(
  name: string,
  table: SQLiteTable,
  alias: string,
  more: { first?: (d: SqlDialect) => string; last?: string } = {},
): ViewSource {
  const own = getTableConfig(table)
    .columns.filter(({ name }) => name !== "location_id" && name !== "business_date")
    .map(({ name }) => `${alias}.${name}`);
  return {
    name,
    select: (d) => `SELECT ${alias}.location_id, l.name AS location_name, ${alias}.business_date,
  ${[more.first?.(d), own.join(", "), more.last].filter(Boolean).join(",\n  ")}
FROM ${tableName(table)} ${alias}
${LOCATION} = ${alias}.location_id`,
  };
}

const SALES_VIEWS: readonly ViewSource[] = [
  {
    name: "v_daily_sales",
    select: (d) => `SELECT d.location_id, l.name AS location_name, d.business_date,
  ${d.weekday("d.business_date")} AS weekday,
  d.orders, d.guests, d.total_sales, d.total_tax, d.net_sales, d.total_discount,
  ROUND(d.total_sales / NULLIF(d.orders, 0), 2) AS average_order,
  d.transferred_orders, d.transferred_sales, d.cancelled_orders, d.cancelled_total,
  d.training_orders
FROM daily_sales d
${LOCATION} = d.location_id`,
  },
  summaryView("v_product_sales", dailyProductSales, "p"),
  summaryView("v_payment_mix", dailyPaymentSales, "m", {
    last: "ROUND(100.0 * m.amount / NULLIF(SUM(m.amount) OVER (PARTITION BY m.location_id, m.business_date), 0), 2) AS share_percent",
  }),
  summaryView("v_tax_summary", dailyTaxSales, "t"),
  summaryView("v_hourly_sales", hourlySales, "h", {
    first: (d) => `${d.weekday("h.business_date")} AS weekday`,
    last: "ROUND(h.total_sales / NULLIF(h.orders, 0), 2) AS average_order",
  }),
  summaryView("v_operator_sales", dailyOperatorSales, "s"),
  {
    name: "v_report_reconciliation",
    select:
      () => `SELECT r.id AS report_id, r.location_id, l.name AS location_name, r.business_date,
  r.report_number, r.total_sales AS api_total_sales, s.stored_total_sales,
  ROUND(r.total_sales - s.stored_total_sales, 2) AS difference,
  s.orders_listed, s.orders_stored, s.orders_missing,
  CASE
    WHEN s.orders_missing > 0 THEN 'orders missing'
    WHEN ROUND(r.total_sales - s.stored_total_sales, 2) <> 0 THEN 'totals differ'
    ELSE 'ok'
  END AS status
FROM reports r
JOIN report_order_sums s ON s.report_id = r.id
${LOCATION} = r.location_id
WHERE r.deleted_at IS NULL`,
  },
];

/** Orders one row each, with their clock in columns rather than in string functions. */
const ORDER_VIEWS: readonly ViewSource[] = [
  {
    name: "v_orders",
    select: (d) => `SELECT ${AN_ORDER},
  ${d.weekday("o.business_date")} AS weekday,
  CASE ${d.weekday("o.business_date")}
    WHEN 1 THEN 'Monday' WHEN 2 THEN 'Tuesday' WHEN 3 THEN 'Wednesday' WHEN 4 THEN 'Thursday'
    WHEN 5 THEN 'Friday' WHEN 6 THEN 'Saturday' ELSE 'Sunday'
  END AS weekday_name,
  o.closed_hour, -- on the location's clock, computed when the order is stored (local-clock.ts)
  o.order_number, o.operator_id, o.operator_name, o.device_name, o.order_place, o.channel,
  o.service_type, ${d.integerWhenWhole("o.guests")} AS guests, o.total, o.total_tax,
  ROUND(o.total - o.total_tax, 2) AS net_total, o.total_discount, ${d.flag(SALE)} AS is_sale,
  o.is_canceled, o.is_transferred, o.is_training, o.created_at, o.closed_at, o.report_id
FROM orders o
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL`,
  },
  {
    name: "v_order_tips",
    select: (d) => `SELECT ${AN_ORDER}, ${d.elementPosition("t")} AS position,
  ${d.jsonValue("t.value", "amount", "numeric")} AS amount, t.value AS tip
FROM orders o
${d.jsonElements("o.tips", "t")}
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL AND o.tips IS NOT NULL AND ${d.isJsonArray("o.tips")}`,
  },
];

/** An item of an order's first stored version (order_versions.content), as a column. */
const firstItem = (d: SqlDialect, field: string, type: "text" | "numeric" | "integer") =>
  d.jsonValue("i.value", field, type);

/** The questions an owner asks after "how much did we sell". The views that compare versions
 * read order_versions: with POS_ORDER_HISTORY=false they only see what the current versions
 * show. */
const LOSS_PREVENTION_VIEWS: readonly ViewSource[] = [
  {
    name: "v_order_changes",
    select: () => `SELECT h.order_id, h.location_id, l.name AS location_name, h.business_date,
  h.order_number, h.version AS from_version, h.ended_by AS change,
  h.next_updated_at AS changed_at, h.next_operator_id AS changed_by_id,
  h.next_operator_name AS changed_by, h.ended_at AS seen_at, h.closed_at,
  h.operator_name AS previous_operator_name, h.total AS previous_total,
  h.next_total AS new_total, ROUND(COALESCE(h.next_total, 0) - h.total, 2) AS total_change,
  h.paid AS previous_paid, h.is_canceled AS was_canceled, h.next_is_canceled AS is_canceled,
  h.changed_fields
FROM order_versions h
${LOCATION} = h.location_id`,
  },
  {
    name: "v_cancelled_after_payment",
    select: (d) => `SELECT ${AN_ORDER}, o.order_number,
  COALESCE(b.next_operator_id, o.operator_id) AS operator_id,
  COALESCE(b.next_operator_name, o.operator_name) AS operator_name,
  COALESCE(b.operator_name, o.operator_name) AS served_by,
  o.total,
  COALESCE(
    b.paid,
    (SELECT ROUND(SUM(p.payment_amount), 2) FROM order_payment_rows p WHERE p.order_key = o.key)
  ) AS paid,
  COALESCE(b.closed_at, o.closed_at) AS paid_at,
  COALESCE(b.next_updated_at, o.updated_at) AS cancelled_at,
  o.cancel_reason,
  ${d.flag("b.order_id IS NOT NULL")} AS seen_paid
FROM orders o
-- The last version seen paid and not cancelled, if history kept one.
LEFT JOIN order_versions b ON b.order_id = o.id AND b.version = (
  SELECT MAX(x.version) FROM order_versions x
  WHERE x.order_id = o.id AND NOT x.is_canceled AND x.paid > 0
)
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL AND o.is_canceled AND NOT o.is_training
  AND (
    b.order_id IS NOT NULL
    OR EXISTS (SELECT 1 FROM order_payment_rows p WHERE p.order_key = o.key AND p.payment_amount > 0)
  )`,
  },
  {
    name: "v_items_voided_after_close",
    // Told apart by product, since a line taken off moves the positions after it.
    select: (d) => `WITH first_items AS (
  SELECT
    h.order_id,
    h.closed_at,
    ${firstItem(d, "position", "integer")} AS position,
    ${firstItem(d, "item_catalog_id", "text")} AS item_catalog_id,
    ${firstItem(d, "description", "text")} AS description,
    ${firstItem(d, "quantity", "numeric")} AS quantity,
    ${firstItem(d, "total", "numeric")} AS amount,
    ROW_NUMBER() OVER (
      PARTITION BY h.order_id, ${firstItem(d, "item_catalog_id", "text")}
      ORDER BY ${firstItem(d, "position", "integer")}
    ) AS nth
  FROM order_versions h
  ${d.jsonElements("h.content", "i", "order_items")}
  WHERE h.version = 1 AND NOT ${d.jsonValue("i.value", "is_canceled", "boolean")}
)
SELECT ${AN_OPERATORS_ORDER},
  f.position AS first_position, f.item_catalog_id, f.description, f.quantity, f.amount,
  f.closed_at, o.updated_at AS changed_at
FROM first_items f
JOIN orders o ON o.id = f.order_id
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL
  AND f.nth > (
    SELECT COUNT(*) FROM order_item_rows c
    JOIN api_ids k ON k.key = c.item_catalog_ref
    WHERE c.order_key = o.key AND k.id = f.item_catalog_id AND NOT c.is_canceled
  )`,
  },
  {
    name: "v_discounts_by_operator",
    select: (d) => `SELECT o.location_id, l.name AS location_name, o.business_date,
  o.operator_id, o.operator_name,
  COUNT(*) AS orders,
  COUNT(*) FILTER (WHERE o.total_discount > 0) AS discounted_orders,
  ROUND(SUM(o.total), 2) AS sales,
  ROUND(SUM(o.total_discount), 2) AS discounts,
  ROUND(SUM(o.total_discount) / NULLIF(SUM(o.total) + SUM(o.total_discount), 0), 4)
    AS discount_share,
  ROUND(SUM(${d.greatest("0", "o.total_discount - COALESCE(f.total_discount, o.total_discount)")}), 2)
    AS discounts_added_later
FROM orders o
LEFT JOIN (
  SELECT order_id, ${d.jsonValue("content", "orders.total_discount", "numeric")} AS total_discount
  FROM order_versions WHERE version = 1
) f ON f.order_id = o.id
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL AND ${SALE}
GROUP BY o.location_id, l.name, o.business_date, o.operator_id, o.operator_name`,
  },
  {
    name: "v_changed_after_report",
    select: (d) => `SELECT ${AN_OPERATORS_ORDER},
  o.report_id, r.finalized_at AS report_finalized_at, o.updated_at AS changed_at,
  ${d.minutesBetween("o.updated_at", "r.finalized_at")} AS minutes_after,
  o.total, o.is_canceled,
  (SELECT COUNT(*) FROM order_versions v WHERE v.order_id = o.id) AS earlier_versions
FROM orders o
JOIN reports r ON r.id = o.report_id AND r.deleted_at IS NULL
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL AND ${d.instant("o.updated_at")} > ${d.instant("r.finalized_at")}`,
  },
  {
    name: "v_room_transfers",
    select: () => `SELECT ${AN_OPERATORS_ORDER},
  o.transfer_reason, o.total, o.closed_at, o.is_canceled
FROM orders o
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL AND o.is_transferred`,
  },
  {
    name: "v_payment_mismatches",
    select: () => `SELECT ${AN_OPERATORS_ORDER}, o.total,
  ROUND(COALESCE(p.paid, 0), 2) AS paid,
  ROUND(COALESCE(p.paid, 0) - o.total, 2) AS difference,
  COALESCE(p.payments, 0) AS payments
FROM orders o
LEFT JOIN ${PAYMENTS_BY_ORDER} p ON p.order_key = o.key
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL AND ${SALE} AND ABS(COALESCE(p.paid, 0) - o.total) >= 0.005`,
  },
  {
    name: "v_training_with_payments",
    select: () => `SELECT ${AN_OPERATORS_ORDER}, o.total,
  ROUND(p.paid, 2) AS paid, p.payments
FROM orders o
JOIN ${PAYMENTS_BY_ORDER} p ON p.order_key = o.key
${LOCATION} = o.location_id
WHERE o.deleted_at IS NULL AND o.is_training AND p.paid > 0`,
  },
];

/**
 * A relation of the contract over the table that stores it (schema/relations.ts): the parent's
 * id, the row's positions, the parent's location, then the row's own columns. Rows of records
 * marked deleted are there too, as in the tables they replace.
 */
function relationView(relation: ChildRelation): ViewSource {
  const { name, table, parent, parentId, parentKey } = relation;
  const positions = positionsOf(relation);
  const own = getTableConfig(table)
    .columns.map((column) => column.name)
    .filter((column) => column !== parentKey && !positions.includes(column));
  const ids = keptIds(table, "c");
  const columns = [
    `p.id AS ${parentId}`,
    ...positions.map((column) => `c.${column}`),
    "p.location_id",
    ...own.map(ids.shown),
  ];
  return {
    name,
    select: () => `SELECT ${columns.join(", ")}
FROM ${tableName(table)} c
JOIN ${relationName(parent)} p ON p.key = c.${parentKey}${ids.joins}`,
  };
}

/** The ids a stored table `alias` keeps by key (api_ids): each column as its relation shows it
 * (the id, from a join of its own: k0, k1 …), and the joins. Left joins on the key: a query
 * that leaves an id out skips its join. */
function keptIds(table: SQLiteTable, alias: string) {
  const refs = idRefsOf(table);
  return {
    shown: (column: string) => {
      const at = refs.findIndex((ref) => ref.stored === column);
      return at < 0 ? `${alias}.${column}` : `k${at}.id AS ${refs[at]?.shown}`;
    },
    joins: refs
      .map((ref, at) => `\nLEFT JOIN api_ids k${at} ON k${at}.key = ${alias}.${ref.stored}`)
      .join(""),
  };
}

/** A record's relation over the table that stores it with ids kept by key (orders). */
function storedRelationView(relation: StoredRelation): ViewSource {
  const ids = keptIds(relation.table, "o");
  const columns = getTableConfig(relation.table).columns.map((column) => ids.shown(column.name));
  return {
    name: relation.name,
    select: () => `SELECT ${columns.join(", ")}
FROM ${tableName(relation.table)} o${ids.joins}`,
  };
}

/** Every view of the contract (design.md), in the order the migrations create them. */
export const VIEWS: readonly ViewSource[] = [
  storedRelationView(ORDERS_RELATION),
  ...CHILD_RELATIONS.map(relationView),
  ...SALES_VIEWS,
  ...ORDER_VIEWS,
  ...LOSS_PREVENTION_VIEWS,
];

/** Views once in the contract and no longer: a generated migration drops them too. */
const RETIRED_VIEWS: readonly string[] = [];

/** The first line of a generated view migration. */
/** The first words of every generated views' migration, whichever file generated it then. */
export const GENERATED_VIEWS_MARK = "-- Generated by `npm run db:views`";
export const GENERATED_VIEWS_HEADER = `${GENERATED_VIEWS_MARK} from src/db/sql/views.ts: edit that file, not this one.`;

/** A views' migration without its header: the statements, which are what must agree. */
export function viewStatements(migration: string): string {
  return migration.slice(migration.indexOf("\n") + 1);
}

/** A migration that drops every view and creates each again as this file defines it. */
export function viewsMigration(dialect: SqlDialect): string {
  const drops = [...RETIRED_VIEWS, ...VIEWS.map((view) => view.name)].map(
    (name) => `DROP VIEW IF EXISTS ${name};`,
  );
  const creates = VIEWS.map((view) => `CREATE VIEW ${view.name} AS\n${view.select(dialect)};`);
  return `${GENERATED_VIEWS_HEADER}\n${[...drops, ...creates].join("\n--> statement-breakpoint\n")}\n`;
}
