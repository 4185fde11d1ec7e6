/**
 * Summary tables: the sales figures of each location and business day, recomputed by pos-sync
 * whenever the day's orders change (at the end of the day's window), so that a year of a chain
 * answers in a fraction of a second. The v_ views read them; the rule of a sale (not cancelled, training or transferred)
 * and of a line (not cancelled) is the views' rule (db/sqlite/rollups.ts recomputes a day).
 */
import { integer, numeric, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { clockColumns, locationId } from "./columns.js";

const businessDate = () => text("business_date").notNull();
/** Whole counts come out as integers, fractional ones as they are. */
const count = (name: string) => numeric(name, { mode: "number" }).notNull();
const amount = (name: string) => real(name).notNull();

export const dailySales = sqliteTable(
  "daily_sales",
  {
    location_id: locationId(),
    business_date: businessDate(),
    ...clockColumns(["business_date"], []),
    orders: integer("orders").notNull(),
    guests: count("guests"),
    total_sales: amount("total_sales"),
    total_tax: amount("total_tax"),
    net_sales: amount("net_sales"),
    total_discount: amount("total_discount"),
    transferred_orders: integer("transferred_orders").notNull(),
    transferred_sales: amount("transferred_sales"),
    cancelled_orders: integer("cancelled_orders").notNull(),
    cancelled_total: amount("cancelled_total"),
    training_orders: integer("training_orders").notNull(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.business_date] })],
);

export const dailyProductSales = sqliteTable(
  "daily_product_sales",
  {
    location_id: locationId(),
    business_date: businessDate(),
    ...clockColumns(["business_date"], []),
    product_id: text("product_id").notNull(),
    product_name: text("product_name").notNull(),
    category: text("category").notNull(),
    sub_category: text("sub_category").notNull(),
    quantity: count("quantity"),
    sales: amount("sales"),
    tax: amount("tax"),
    net_sales: amount("net_sales"),
    orders: integer("orders").notNull(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.business_date, t.product_id] })],
);

export const dailyPaymentSales = sqliteTable(
  "daily_payment_sales",
  {
    location_id: locationId(),
    business_date: businessDate(),
    ...clockColumns(["business_date"], []),
    payment_name: text("payment_name").notNull(),
    payments: integer("payments").notNull(),
    amount: amount("amount"),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.business_date, t.payment_name] })],
);

export const dailyTaxSales = sqliteTable(
  "daily_tax_sales",
  {
    location_id: locationId(),
    business_date: businessDate(),
    ...clockColumns(["business_date"], []),
    tax_rate_bp: integer("tax_rate_bp").notNull(),
    tax_name: text("tax_name").notNull(),
    gross_sales: amount("gross_sales"),
    tax_amount: amount("tax_amount"),
    taxable_amount: amount("taxable_amount"),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.business_date, t.tax_rate_bp] })],
);

export const hourlySales = sqliteTable(
  "hourly_sales",
  {
    location_id: locationId(),
    business_date: businessDate(),
    ...clockColumns(["business_date"], []),
    hour: integer("hour").notNull(),
    orders: integer("orders").notNull(),
    total_sales: amount("total_sales"),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.business_date, t.hour] })],
);

export const dailyOperatorSales = sqliteTable(
  "daily_operator_sales",
  {
    location_id: locationId(),
    business_date: businessDate(),
    ...clockColumns(["business_date"], []),
    operator_id: text("operator_id").notNull(),
    operator_name: text("operator_name").notNull(),
    orders: integer("orders").notNull(),
    total_sales: amount("total_sales"),
    total_discount: amount("total_discount"),
    cancelled_orders: integer("cancelled_orders").notNull(),
    cancelled_total: amount("cancelled_total"),
    cancelled_items: integer("cancelled_items").notNull(),
    cancelled_items_total: amount("cancelled_items_total"),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.business_date, t.operator_id] })],
);

/** Each report against the orders stored for it (v_report_reconciliation), refreshed whenever the
 * report or any of its orders changes. */
export const reportOrderSums = sqliteTable("report_order_sums", {
  report_id: text("report_id").primaryKey(),
  location_id: locationId(),
  orders_listed: integer("orders_listed").notNull(),
  orders_stored: integer("orders_stored").notNull(),
  orders_missing: integer("orders_missing").notNull(),
  stored_total_sales: amount("stored_total_sales"),
});

/** Days and reports whose summaries wait to be recomputed: marked in the transaction that changes
 * their orders, cleared by the recompute at the end of the day's window (or of the run), so that
 * a day read in many pages is summed once. A run killed in between leaves them for the next. */
export const summaryPending = sqliteTable(
  "summary_pending",
  {
    /** day (key = business_date) or report (key = report id). */
    kind: text("kind").notNull(),
    location_id: locationId(),
    key: text("key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.location_id, t.key] })],
);

/** How many rows of a day stream's relation (orders, reports) each location has, live and marked
 * deleted: kept by triggers on the storage tables (drizzle/0018_row_counts.sql, drizzle/pg/0013_row_counts_open_claims.sql),
 * whoever writes, so that `status` reads two numbers instead of counting a year of orders. */
export const locationRowCounts = sqliteTable(
  "location_row_counts",
  {
    relation: text("relation").notNull(),
    location_id: locationId(),
    live: integer("live").notNull(),
    deleted: integer("deleted").notNull(),
  },
  (t) => [primaryKey({ columns: [t.relation, t.location_id] })],
);
