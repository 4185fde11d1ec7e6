/**
 * The views for BI tools and analysts (`v_…`), each column with the type it declares
 * (view-columns.ts), written once and rendered for each dialect. What each view and column means
 * is told in scripts/data-dictionary/dictionary. Every view leaves out the orders and reports a
 * complete re-read no longer listed (deleted_at); the views of a location's figures name it.
 */
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { storedColumns } from "../schema/columns.js";
import {
  dailyOperatorSales,
  dailyPaymentSales,
  dailyProductSales,
  dailyTaxSales,
  hourlySales,
} from "../schema/index.js";
import type { SqlDialect } from "./dialect.js";
import { SALE } from "./rollups.js";
import { tableName } from "./table.js";
import type { ViewColumnType } from "./view-columns.js";
import type { ViewSource } from "./view-source.js";

/** A column of a BI view: its name, what it holds, and its value in the view's SELECT. */
export interface ViewColumn {
  name: string;
  type: ViewColumnType;
  value: (d: SqlDialect) => string;
}

/** A view for BI tools, whose every column declares its type (view-columns.ts). */
export interface TypedView extends ViewSource {
  columns: readonly ViewColumn[];
}

const column = (
  name: string,
  type: ViewColumnType,
  value: string | ((d: SqlDialect) => string) = name,
): ViewColumn => ({ name, type, value: typeof value === "string" ? () => value : value });

/** A day column, as its typed twin (schema/columns.ts). */
const day = (name: string, stored: string): ViewColumn =>
  column(name, "date", (d) => d.typed(stored));

/** A date-time on the location's wall clock, the same instant in UTC (`name_utc`), and as the API
 * sent it (`name_sent`). `value` builds it from date-time columns, each given as the column each
 * of the three reads. */
const instant = (
  name: string,
  value: string | ((at: (stored: string) => string) => string),
): ViewColumn[] => {
  const of = typeof value === "string" ? (at: (stored: string) => string) => at(value) : value;
  return [
    column(name, "local", (d) => of((stored) => d.local(stored))),
    column(`${name}_utc`, "utc", (d) => of((stored) => d.utc(stored))),
    column(`${name}_sent`, "sent", () => of((stored) => stored)),
  ];
};

/** `first` where it is not null, else `second`, in a form that keeps a typed twin's type (SQLite
 * types COALESCE's value as any value, a CASE's as its branches'). */
const firstOf = (at: (stored: string) => string, first: string, second: string) =>
  `CASE WHEN ${at(first)} IS NOT NULL THEN ${at(first)} ELSE ${at(second)} END`;

function typedView(
  name: string,
  columns: readonly ViewColumn[],
  from: (d: SqlDialect) => string,
): TypedView {
  return {
    name,
    columns,
    select: (d) =>
      d.typedView(
        columns.map((c) => ({ name: c.name, type: c.type, value: c.value(d) })),
        from(d),
      ),
  };
}

/** What the payments of an order `o` add up to (null without any), and how many there are: read
 * by the order's key, so that a view filtered by day reads the payments of those days alone. */
const PAID = "(SELECT SUM(p.payment_amount) FROM order_payment_rows p WHERE p.order_key = o.key)";
const PAYMENTS = "(SELECT COUNT(*) FROM order_payment_rows p WHERE p.order_key = o.key)";

/** A location's name beside its id: every view has it. */
const LOCATION = "LEFT JOIN locations l ON l.id";

/** The ids of the API the views show of an order, which it keeps by key (`location_ref` …). */
const ORDER_ID_NAMES = ["location", "operator", "report"] as const;

/** Each of them as ORDERS joins it (`o_location.id` …). */
const ORDER_IDS = Object.fromEntries(ORDER_ID_NAMES.map((id) => [id, `o_${id}.id`])) as Record<
  (typeof ORDER_ID_NAMES)[number],
  string
>;

/** Orders `o` as stored (order_rows: the `orders` view hides the typed twins the views show),
 * with the ids they keep by key (ORDER_IDS) and their location `l`. The views read every column
 * of an order from this one row, so that a filter by day and one by location meet on one table's
 * indexes. Reports and order versions are read from their stored tables too. */
const ORDERS = `FROM order_rows o
${ORDER_ID_NAMES.map((id) => `LEFT JOIN api_ids o_${id} ON o_${id}.key = o.${id}_ref`).join("\n")}
${LOCATION} = ${ORDER_IDS.location}`;

/** A row's location (its id `locationId`) and its business day, from the typed twin of the row
 * `alias`'s day. */
const locationColumns = (alias: string, locationId = `${alias}.location_id`): ViewColumn[] => [
  column("location_id", "text", locationId),
  column("location_name", "text", "l.name"),
  day("business_date", `${alias}.business_date`),
];

/** The columns that name an order `o` in the order views… */
const AN_ORDER: ViewColumn[] = [
  column("order_id", "text", "o.id"),
  ...locationColumns("o", ORDER_IDS.location),
];
/** …and, in the loss-prevention views, its number and who served it. */
const AN_OPERATORS_ORDER: ViewColumn[] = [
  ...AN_ORDER,
  column("order_number", "text", "o.order_number"),
  column("operator_id", "text", ORDER_IDS.operator),
  column("operator_name", "text", "o.operator_name"),
];

const weekday = (stored: string) => column("weekday", "integer", (d) => d.weekday(stored));

/** What a summary table's column holds: its REAL columns are all amounts of money. */
const SUMMARY_TYPES: Record<string, ViewColumnType> = {
  integer: "integer",
  real: "money",
  numeric: "numeric",
  text: "text",
};

/** A view of one summary table (sql/rollups.ts) of a location's days, with the location's name:
 * the table's columns, and others `first` and `last`. */
function summaryView(
  name: string,
  table: SQLiteTable,
  alias: string,
  more: { first?: ViewColumn[]; last?: ViewColumn[] } = {},
): TypedView {
  const own = storedColumns(table)
    .filter(({ name }) => name !== "location_id" && name !== "business_date")
    .map((c) => {
      const type = SUMMARY_TYPES[c.getSQLType()];
      if (!type) throw new Error(`no view type for ${tableName(table)}.${c.name}`);
      return column(c.name, type, `${alias}.${c.name}`);
    });
  return typedView(
    name,
    [...locationColumns(alias), ...(more.first ?? []), ...own, ...(more.last ?? [])],
    () => `FROM ${tableName(table)} ${alias}
${LOCATION} = ${alias}.location_id`,
  );
}

const averageOrder = (alias: string) =>
  column("average_order", "money", `ROUND(${alias}.total_sales / NULLIF(${alias}.orders, 0), 2)`);

const SALES_VIEWS: readonly TypedView[] = [
  typedView(
    "v_daily_sales",
    [
      ...locationColumns("d"),
      weekday("d.business_date"),
      column("orders", "integer", "d.orders"),
      column("guests", "numeric", "d.guests"),
      ...["total_sales", "total_tax", "net_sales", "total_discount"].map((name) =>
        column(name, "money", `d.${name}`),
      ),
      averageOrder("d"),
      column("transferred_orders", "integer", "d.transferred_orders"),
      column("transferred_sales", "money", "d.transferred_sales"),
      column("cancelled_orders", "integer", "d.cancelled_orders"),
      column("cancelled_total", "money", "d.cancelled_total"),
      column("training_orders", "integer", "d.training_orders"),
    ],
    () => `FROM daily_sales d
${LOCATION} = d.location_id`,
  ),
  summaryView("v_product_sales", dailyProductSales, "p"),
  summaryView("v_payment_mix", dailyPaymentSales, "m", {
    last: [
      column(
        "share_percent",
        "real",
        // The day's total read by key, not as a window: SQLite pushes no filter into a framed
        // view with a window function, and the view would sum every day on each read.
        `ROUND(100.0 * m.amount / NULLIF((
    SELECT SUM(x.amount) FROM daily_payment_sales x
    WHERE x.location_id = m.location_id AND x.business_date = m.business_date
  ), 0), 2)`,
      ),
    ],
  }),
  summaryView("v_tax_summary", dailyTaxSales, "t"),
  summaryView("v_hourly_sales", hourlySales, "h", {
    first: [weekday("h.business_date")],
    last: [averageOrder("h")],
  }),
  summaryView("v_operator_sales", dailyOperatorSales, "s"),
  typedView(
    "v_report_reconciliation",
    [
      column("report_id", "text", "r.id"),
      ...locationColumns("r"),
      column("report_number", "integer", "r.report_number"),
      column("api_total_sales", "money", "r.total_sales"),
      column("stored_total_sales", "money", "s.stored_total_sales"),
      column("difference", "money", "ROUND(r.total_sales - s.stored_total_sales, 2)"),
      column("orders_listed", "integer", "s.orders_listed"),
      column("orders_stored", "integer", "s.orders_stored"),
      column("orders_missing", "integer", "s.orders_missing"),
      column(
        "status",
        "text",
        `CASE
    WHEN s.orders_missing > 0 THEN 'orders missing'
    WHEN ROUND(r.total_sales - s.stored_total_sales, 2) <> 0 THEN 'totals differ'
    ELSE 'ok'
  END`,
      ),
    ],
    () => `FROM report_rows r
JOIN report_order_sums s ON s.report_id = r.id
${LOCATION} = r.location_id
WHERE r.deleted_at IS NULL`,
  ),
];

/** Orders one row each, with their clock in columns rather than in string functions. */
const ORDER_VIEWS: readonly TypedView[] = [
  typedView(
    "v_orders",
    [
      ...AN_ORDER,
      weekday("o.business_date"),
      column(
        "weekday_name",
        "text",
        (d) => `CASE ${d.weekday("o.business_date")}
    WHEN 1 THEN 'Monday' WHEN 2 THEN 'Tuesday' WHEN 3 THEN 'Wednesday' WHEN 4 THEN 'Thursday'
    WHEN 5 THEN 'Friday' WHEN 6 THEN 'Saturday' ELSE 'Sunday'
  END`,
      ),
      // On the location's clock, computed when the order is stored (clock/local-clock.ts).
      column("closed_hour", "integer", "o.closed_hour"),
      column("order_number", "text", "o.order_number"),
      column("operator_id", "text", ORDER_IDS.operator),
      ...["operator_name", "device_name", "order_place"].map((name) =>
        column(name, "text", `o.${name}`),
      ),
      column("channel", "text", "o.channel"),
      column("service_type", "text", "o.service_type"),
      column("guests", "numeric", "o.guests"),
      column("total", "money", "o.total"),
      column("total_tax", "money", "o.total_tax"),
      column("net_total", "money", "ROUND(o.total - o.total_tax, 2)"),
      column("total_discount", "money", "o.total_discount"),
      column("is_sale", "boolean", (d) => d.flag(SALE)),
      column("is_canceled", "boolean", "o.is_canceled"),
      column("is_transferred", "boolean", "o.is_transferred"),
      column("is_training", "boolean", "o.is_training"),
      ...instant("created_at", "o.created_at"),
      ...instant("closed_at", "o.closed_at"),
      column("report_id", "text", ORDER_IDS.report),
    ],
    () => `${ORDERS}
WHERE o.deleted_at IS NULL`,
  ),
  typedView(
    "v_order_tips",
    [
      ...AN_ORDER,
      column("position", "integer", (d) => d.elementPosition("t")),
      column("amount", "money", (d) => d.jsonValue("t.value", "amount", "numeric")),
      column("tip", "json", "t.value"),
    ],
    (d) => `${ORDERS}
${d.jsonElements("o.tips", "t")}
WHERE o.deleted_at IS NULL AND o.tips IS NOT NULL AND ${d.isJsonArray("o.tips")}`,
  ),
];

/** A field of a line (`alias.value`) of an order's first stored version (order_versions.content). */
const firstItem = (
  d: SqlDialect,
  alias: string,
  field: string,
  type: "text" | "numeric" | "integer" | "boolean",
) => d.jsonValue(`${alias}.value`, field, type);

/** The questions an owner asks after "how much did we sell". The views that compare versions
 * read order_versions: with POS_ORDER_HISTORY=false they only see what the current versions
 * show. */
const LOSS_PREVENTION_VIEWS: readonly TypedView[] = [
  typedView(
    "v_order_changes",
    [
      column("order_id", "text", "h.order_id"),
      ...locationColumns("h"),
      column("order_number", "text", "h.order_number"),
      column("from_version", "integer", "h.version"),
      column("change", "text", "h.ended_by"),
      ...instant("changed_at", "h.next_updated_at"),
      column("changed_by_id", "text", "h.next_operator_id"),
      column("changed_by", "text", "h.next_operator_name"),
      ...instant("seen_at", "h.ended_at"),
      ...instant("closed_at", "h.closed_at"),
      column("previous_operator_name", "text", "h.operator_name"),
      column("previous_total", "money", "h.total"),
      column("new_total", "money", "h.next_total"),
      column("total_change", "money", "ROUND(COALESCE(h.next_total, 0) - h.total, 2)"),
      column("previous_paid", "money", "h.paid"),
      column("was_canceled", "boolean", "h.is_canceled"),
      column("is_canceled", "boolean", "h.next_is_canceled"),
      column("changed_fields", "json", "h.changed_fields"),
    ],
    () => `FROM order_version_rows h
${LOCATION} = h.location_id`,
  ),
  typedView(
    "v_cancelled_after_payment",
    [
      ...AN_ORDER,
      column("order_number", "text", "o.order_number"),
      column("operator_id", "text", `COALESCE(b.next_operator_id, ${ORDER_IDS.operator})`),
      column("operator_name", "text", "COALESCE(b.next_operator_name, o.operator_name)"),
      column("served_by", "text", "COALESCE(b.operator_name, o.operator_name)"),
      column("total", "money", "o.total"),
      column("paid", "money", `COALESCE(b.paid, ROUND(${PAID}, 2))`),
      ...instant("paid_at", (at) => firstOf(at, "b.closed_at", "o.closed_at")),
      ...instant("cancelled_at", (at) => firstOf(at, "b.next_updated_at", "o.updated_at")),
      column("cancel_reason", "text", "o.cancel_reason"),
      column("seen_paid", "boolean", (d) => d.flag("b.order_id IS NOT NULL")),
    ],
    () => `${ORDERS}
-- The last version seen paid and not cancelled, if history kept one.
LEFT JOIN order_version_rows b ON b.order_id = o.id AND b.version = (
  SELECT MAX(x.version) FROM order_version_rows x
  WHERE x.order_id = o.id AND NOT x.is_canceled AND x.paid > 0
)
WHERE o.deleted_at IS NULL AND o.is_canceled AND NOT o.is_training
  AND (
    b.order_id IS NOT NULL
    -- A payment of the order's own: a scalar by key, which PostgreSQL cannot turn into a hash of
    -- every payment as it does an EXISTS under OR.
    OR (SELECT MAX(p.payment_amount) FROM order_payment_rows p WHERE p.order_key = o.key) > 0
  )`,
  ),
  typedView(
    "v_items_voided_after_close",
    // Told apart by product, since a line taken off moves the positions after it: a line of the
    // first version is voided when its rank among that version's lines of its product is beyond
    // the number of them the order has now. The rank counts the lines up to its position, which
    // are unique in an order, as are its lines' catalog ids never null (order_item_rows' key and
    // columns); it is read by the order's key, not ranked over every first version.
    [
      ...AN_OPERATORS_ORDER,
      column("first_position", "integer", (d) => firstItem(d, "i", "position", "integer")),
      column("item_catalog_id", "text", (d) => firstItem(d, "i", "item_catalog_id", "text")),
      column("description", "text", (d) => firstItem(d, "i", "description", "text")),
      column("quantity", "numeric", (d) => firstItem(d, "i", "quantity", "numeric")),
      column("amount", "money", (d) => firstItem(d, "i", "total", "numeric")),
      ...instant("closed_at", "h.closed_at"),
      ...instant("changed_at", "o.updated_at"),
    ],
    (d) => `${ORDERS}
JOIN order_version_rows h ON h.order_id = o.id AND h.version = 1
${d.jsonElements("h.content", "i", "order_items")}
WHERE o.deleted_at IS NULL AND NOT ${firstItem(d, "i", "is_canceled", "boolean")}
  AND (
    SELECT COUNT(*) FROM order_version_rows v
    ${d.jsonElements("v.content", "j", "order_items")}
    WHERE v.order_id = h.order_id AND v.version = 1
      AND NOT ${firstItem(d, "j", "is_canceled", "boolean")}
      AND ${firstItem(d, "j", "item_catalog_id", "text")} = ${firstItem(d, "i", "item_catalog_id", "text")}
      AND ${firstItem(d, "j", "position", "integer")} <= ${firstItem(d, "i", "position", "integer")}
  ) > (
    SELECT COUNT(*) FROM order_item_rows c
    JOIN api_ids k ON k.key = c.item_catalog_ref
    WHERE c.order_key = o.key AND k.id = ${firstItem(d, "i", "item_catalog_id", "text")}
      AND NOT c.is_canceled
  )`,
  ),
  typedView(
    "v_discounts_by_operator",
    [
      ...locationColumns("o", ORDER_IDS.location),
      column("operator_id", "text", ORDER_IDS.operator),
      column("operator_name", "text", "o.operator_name"),
      column("orders", "integer", "COUNT(*)"),
      column("discounted_orders", "integer", "COUNT(*) FILTER (WHERE o.total_discount > 0)"),
      column("sales", "money", "ROUND(SUM(o.total), 2)"),
      column("discounts", "money", "ROUND(SUM(o.total_discount), 2)"),
      column(
        "discount_share",
        "real",
        "ROUND(SUM(o.total_discount) / NULLIF(SUM(o.total) + SUM(o.total_discount), 0), 4)",
      ),
      column(
        "discounts_added_later",
        "money",
        (d) =>
          `ROUND(SUM(${d.greatest("0", `o.total_discount - COALESCE(${d.jsonValue("f.content", "orders.total_discount", "numeric")}, o.total_discount)`)}), 2)`,
      ),
    ],
    (d) => `${ORDERS}
LEFT JOIN order_version_rows f ON f.order_id = o.id AND f.version = 1
WHERE o.deleted_at IS NULL AND ${SALE}
GROUP BY ${ORDER_IDS.location}, l.name, ${d.typed("o.business_date")}, ${ORDER_IDS.operator}, o.operator_name`,
  ),
  typedView(
    "v_changed_after_report",
    [
      ...AN_OPERATORS_ORDER,
      column("report_id", "text", ORDER_IDS.report),
      ...instant("report_finalized_at", "r.finalized_at"),
      ...instant("changed_at", "o.updated_at"),
      column("minutes_after", "integer", (d) => d.minutesBetween("o.updated_at", "r.finalized_at")),
      column("total", "money", "o.total"),
      column("is_canceled", "boolean", "o.is_canceled"),
      column(
        "earlier_versions",
        "integer",
        "(SELECT COUNT(*) FROM order_version_rows v WHERE v.order_id = o.id)",
      ),
    ],
    (d) => `${ORDERS}
JOIN report_rows r ON r.id = ${ORDER_IDS.report} AND r.deleted_at IS NULL
WHERE o.deleted_at IS NULL AND ${d.instant("o.updated_at")} > ${d.instant("r.finalized_at")}`,
  ),
  typedView(
    "v_room_transfers",
    [
      ...AN_OPERATORS_ORDER,
      column("transfer_reason", "text", "o.transfer_reason"),
      column("total", "money", "o.total"),
      ...instant("closed_at", "o.closed_at"),
      column("is_canceled", "boolean", "o.is_canceled"),
    ],
    () => `${ORDERS}
WHERE o.deleted_at IS NULL AND o.is_transferred`,
  ),
  typedView(
    "v_payment_mismatches",
    [
      ...AN_OPERATORS_ORDER,
      column("total", "money", "o.total"),
      column("paid", "money", `ROUND(COALESCE(${PAID}, 0), 2)`),
      column("difference", "money", `ROUND(COALESCE(${PAID}, 0) - o.total, 2)`),
      column("payments", "integer", PAYMENTS),
    ],
    () => `${ORDERS}
WHERE o.deleted_at IS NULL AND ${SALE} AND ABS(COALESCE(${PAID}, 0) - o.total) >= 0.005`,
  ),
  typedView(
    "v_training_with_payments",
    [
      ...AN_OPERATORS_ORDER,
      column("total", "money", "o.total"),
      column("paid", "money", `ROUND(${PAID}, 2)`),
      column("payments", "integer", PAYMENTS),
    ],
    () => `${ORDERS}
WHERE o.deleted_at IS NULL AND o.is_training AND ${PAID} > 0`,
  ),
];

/** A product across the chain: by its `sku` where the API gives one, else by its name and
 * category (each location's catalog has its own ids). The name's length comes first, so that no
 * two pairs make one key ("Wine / Red" in "Glass" and "Wine" in "Red / Glass"). */
const CHAIN_PRODUCT = `CASE WHEN c.sku IS NOT NULL THEN 'sku ' || c.sku
    ELSE 'name ' || LENGTH(p.product_name) || ':' || p.product_name || ' / ' || p.category END`;

/** The chain's figures, the same product or operator of every location as one: what a chain
 * manager compares. The per-location views keep each location's ids. */
const CHAIN_VIEWS: readonly TypedView[] = [
  typedView(
    "v_chain_product_sales",
    [
      day("business_date", "p.business_date"),
      column("product_key", "text", CHAIN_PRODUCT),
      column("sku", "text", "MAX(c.sku)"),
      column("product_name", "text", "MAX(p.product_name)"),
      column("category", "text", "MAX(p.category)"),
      column("locations", "integer", "COUNT(DISTINCT p.location_id)"),
      column("quantity", "numeric", "SUM(p.quantity)"),
      column("sales", "money", "ROUND(SUM(p.sales), 2)"),
      column("tax", "money", "ROUND(SUM(p.tax), 2)"),
      column("net_sales", "money", "ROUND(SUM(p.net_sales), 2)"),
      column("orders", "integer", "SUM(p.orders)"),
    ],
    (d) => `FROM daily_product_sales p
LEFT JOIN products c ON c.location_id = p.location_id AND c.id = p.product_id
GROUP BY ${d.typed("p.business_date")}, ${CHAIN_PRODUCT}`,
  ),
  typedView(
    "v_chain_operator_sales",
    [
      day("business_date", "s.business_date"),
      column("operator_name", "text", "s.operator_name"),
      column("locations", "integer", "COUNT(DISTINCT s.location_id)"),
      ...["orders", "cancelled_orders", "cancelled_items"].map((name) =>
        column(name, "integer", `SUM(s.${name})`),
      ),
      ...["total_sales", "total_discount", "cancelled_total", "cancelled_items_total"].map((name) =>
        column(name, "money", `ROUND(SUM(s.${name}), 2)`),
      ),
    ],
    (d) => `FROM daily_operator_sales s
GROUP BY ${d.typed("s.business_date")}, s.operator_name`,
  ),
];

/** The views for BI tools (`v_…`), every column typed. */
export const BI_VIEWS: readonly TypedView[] = [
  ...SALES_VIEWS,
  ...ORDER_VIEWS,
  ...LOSS_PREVENTION_VIEWS,
  ...CHAIN_VIEWS,
];
