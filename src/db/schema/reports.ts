/** End-of-session reports, their header flattened, and their arrays as child tables, which refer
 * to their report by its integer key (as orders' do: orders.ts). The contract's `reports` is a
 * view of `report_rows` (views.ts), which keeps the typed twins the views read out of it. */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { clockColumns, contentHash, dayIndex, deletedAt, locationId, syncedAt } from "./columns.js";

export const reportRows = sqliteTable(
  "report_rows",
  {
    /** What the rows of the report's arrays refer to it by (never reused, as orders.key). */
    key: integer("key").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    location_id: locationId(),
    /** The day the API lists the report under: the local calendar date of createdAt. */
    business_date: text("business_date").notNull(),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
    started_at: text("started_at").notNull(),
    finalized_at: text("finalized_at").notNull(),
    device_name: text("device_name").notNull(),
    device_identifier: text("device_identifier"),
    report_number: integer("report_number").notNull(),
    guests_number: integer("guests_number").notNull(),
    /** Tax included; excludes transferred orders (spec 2.4). */
    total_sales: real("total_sales").notNull(),
    header_address: text("header_address").notNull(),
    header_city: text("header_city").notNull(),
    header_country: text("header_country").notNull(),
    header_name: text("header_name").notNull(),
    header_phone: text("header_phone").notNull(),
    header_naf: text("header_naf").notNull(),
    header_siret: text("header_siret").notNull(),
    header_text: text("header_text").notNull(),
    header_tva: text("header_tva").notNull(),
    header_zip: text("header_zip").notNull(),
    header_url: text("header_url"),
    clerk_name: text("clerk_name"),
    clerk_id: text("clerk_id"),
    initial_cash_balance: integer("initial_cash_balance"),
    final_cash_balance: integer("final_cash_balance"),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    /** When a complete re-read of its day stopped listing the report; null while listed. */
    deleted_at: deletedAt(),
    ...clockColumns(["business_date"], ["finalized_at"]),
  },
  (t) => [
    index("reports_location_day").on(t.location_id, t.business_date),
    dayIndex("report_rows", t.business_date_typed),
  ],
);

/** The key every report array shares: the report and the element's index. */
const reportChild = () => ({
  report_key: integer("report_key")
    .notNull()
    .references(() => reportRows.key, { onDelete: "cascade" }),
  position: integer("position").notNull(),
});

export const reportProductRows = sqliteTable(
  "report_product_rows",
  {
    ...reportChild(),
    product_name: text("product_name").notNull(),
    product_sales: real("product_sales").notNull(),
    category: text("category").notNull(),
    sub_category: text("sub_category").notNull(),
    product_quantity: integer("product_quantity").notNull(),
    product_catalog_id: text("product_catalog_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.report_key, t.position] })],
);

export const reportClerkShiftRows = sqliteTable(
  "report_clerk_shift_rows",
  {
    ...reportChild(),
    /** The element's `id`: the clerk. */
    clerk_id: text("clerk_id").notNull(),
    name: text("name").notNull(),
    clock_in_date: text("clock_in_date").notNull(),
    clock_out_date: text("clock_out_date").notNull(),
  },
  (t) => [primaryKey({ columns: [t.report_key, t.position] })],
);

export const reportDiscountRows = sqliteTable(
  "report_discount_rows",
  {
    ...reportChild(),
    discount_name: text("discount_name").notNull(),
    discount_value: real("discount_value").notNull(),
    discount_catalog_id: text("discount_catalog_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.report_key, t.position] })],
);

export const reportTaxRows = sqliteTable(
  "report_tax_rows",
  {
    ...reportChild(),
    tax_name: text("tax_name").notNull(),
    /** As sent: hundredths of a percent (1000 = 10 %). */
    tax_rate: integer("tax_rate").notNull(),
    tax_rate_bp: integer("tax_rate_bp").notNull(),
    tax_amount: real("tax_amount").notNull(),
    taxable_amount: real("taxable_amount").notNull(),
  },
  (t) => [primaryKey({ columns: [t.report_key, t.position] })],
);

export const reportPaymentRows = sqliteTable(
  "report_payment_rows",
  {
    ...reportChild(),
    payment_name: text("payment_name").notNull(),
    payment_amount: real("payment_amount").notNull(),
  },
  (t) => [primaryKey({ columns: [t.report_key, t.position] })],
);

export const reportEntryRows = sqliteTable(
  "report_entry_rows",
  {
    ...reportChild(),
    entry_name: text("entry_name").notNull(),
    /** May be negative. */
    entry_amount: real("entry_amount").notNull(),
    /** May be empty. */
    entry_type: text("entry_type").notNull(),
  },
  (t) => [primaryKey({ columns: [t.report_key, t.position] })],
);

export const reportOrderRows = sqliteTable(
  "report_order_rows",
  {
    ...reportChild(),
    order_id: text("order_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.report_key, t.position] }),
    index("report_order_rows_order").on(t.order_id),
  ],
);
