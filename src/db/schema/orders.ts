/**
 * Orders and their arrays: items (with their modifiers and discounts) and payments. The ids an
 * order names again and again (its location, report, operator and device; its items' products
 * and taxes …) are kept by their keys in `api_ids` (`location_ref`, `item_catalog_ref` …), and a
 * row of an array refers to its order by the order's integer key, not by the API's 36-character
 * id and the location's: the contract's relations with those columns (`orders`, `order_items` …)
 * are views that join them back (relations.ts, views.ts).
 */
import {
  foreignKey,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import { clockColumns, contentHash, dayIndex, deletedAt, flag, syncedAt } from "./columns.js";

/** Ids of the API that rows name again and again, each stored once: an order's location, report,
 * operator and device, and the catalog entries that rows of orders' arrays name (a day's orders
 * name one report, a few operators and a few hundred products and taxes, thousands of times).
 * Never deleted, so that a key, once given, stays its id's. */
export const apiIds = sqliteTable("api_ids", {
  key: integer("key").primaryKey({ autoIncrement: true }),
  id: text("id").notNull().unique(),
});

/** An id of the API (`<name>_id` in the relation), stored as its key in `api_ids`. */
const idRef = (name: string) => integer(`${name}_ref`).references(() => apiIds.key);

/** The contract's `orders` (a view: views.ts), less the ids it keeps by key. */
export const orderRows = sqliteTable(
  "order_rows",
  {
    /** What the rows of the order's arrays refer to it by: never reused, so that rows a client
     * left behind (deleting an order with foreign keys off) never join a later order. */
    key: integer("key").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    location_ref: idRef("location").notNull(),
    /** The day the API lists the order under: the local calendar date of createdAt. */
    business_date: text("business_date").notNull(),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
    customer_id: text("customer_id"),
    device_ref: idRef("device"),
    device_name: text("device_name"),
    report_ref: idRef("report").notNull(),
    opened_at: text("opened_at").notNull(),
    closed_at: text("closed_at").notNull(),
    /** The hour (0-23) closed_at shows on the location's clock (clock/local-clock.ts); null when
     * closed_at is not a date-time. */
    closed_hour: integer("closed_hour"),
    guests: real("guests").notNull(),
    order_place: text("order_place").notNull(),
    order_number: text("order_number").notNull(),
    operator_ref: idRef("operator").notNull(),
    operator_name: text("operator_name").notNull(),
    total: real("total").notNull(),
    total_tax: real("total_tax").notNull(),
    total_discount: real("total_discount").notNull(),
    /** JSON array: the spec does not show the fields of a menu. */
    menus: text("menus").notNull(),
    /** JSON array or null: the spec does not show the fields of a tip. */
    tips: text("tips"),
    is_canceled: flag("is_canceled").notNull(),
    is_transferred: flag("is_transferred").notNull(),
    transfer_reason: text("transfer_reason"),
    cancel_reason: text("cancel_reason"),
    /** `unknown` when the API leaves it out (the spec's default). */
    channel: text("channel").notNull(),
    /** takeout, eatin, delivery or unknown (the default when absent). */
    service_type: text("service_type").notNull(),
    /** 0 when the API leaves it out (the spec's default). */
    is_training: flag("is_training").notNull(),
    source: text("source").notNull(),
    external_order_id: text("external_order_id"),
    external_location_id: text("external_location_id"),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    /** When a complete re-read of its day stopped listing the order (voided upstream); null
     * while listed. Such rows stay for audit and count in no view. */
    deleted_at: deletedAt(),
    ...clockColumns(["business_date"], ["created_at", "closed_at", "updated_at"]),
  },
  (t) => [
    index("order_rows_location_day").on(t.location_ref, t.business_date),
    dayIndex("order_rows", t.business_date_typed),
    index("order_rows_report").on(t.report_ref),
  ],
);

/** The order a row of its arrays belongs to. */
const orderKey = () => integer("order_key").notNull();

export const orderItemRows = sqliteTable(
  "order_item_rows",
  {
    order_key: orderKey().references(() => orderRows.key, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    description: text("description").notNull(),
    quantity: real("quantity").notNull(),
    weight: real("weight"),
    unit_price: real("unit_price").notNull(),
    total: real("total").notNull(),
    category: text("category").notNull(),
    sub_category: text("sub_category").notNull(),
    is_canceled: flag("is_canceled").notNull(),
    cancel_reason: text("cancel_reason"),
    tier: text("tier").notNull(),
    is_transferred: flag("is_transferred").notNull(),
    transfer_reason: text("transfer_reason"),
    /** Null when the API leaves it out. */
    stock_impact_indicator: flag("stock_impact_indicator"),
    tax_name: text("tax_name").notNull(),
    /** As sent: a fraction (0.1 = 10 %). */
    tax_rate: real("tax_rate").notNull(),
    tax_rate_bp: integer("tax_rate_bp").notNull(),
    tax_amount: real("tax_amount").notNull(),
    tax_catalog_ref: idRef("tax_catalog").notNull(),
    item_catalog_ref: idRef("item_catalog").notNull(),
    /** Null when the API leaves it out. */
    is_loss: flag("is_loss"),
    loss_reason: text("loss_reason"),
    combo_parent_id: text("combo_parent_id"),
  },
  (t) => [primaryKey({ columns: [t.order_key, t.position] })],
);

export const orderItemModifierRows = sqliteTable(
  "order_item_modifier_rows",
  {
    order_key: orderKey(),
    item_position: integer("item_position").notNull(),
    position: integer("position").notNull(),
    modifier_group_ref: idRef("modifier_group").notNull(),
    modifier_ref: idRef("modifier").notNull(),
    name: text("name").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.order_key, t.item_position, t.position] }),
    foreignKey({
      columns: [t.order_key, t.item_position],
      foreignColumns: [orderItemRows.order_key, orderItemRows.position],
    }).onDelete("cascade"),
  ],
);

export const orderItemDiscountRows = sqliteTable(
  "order_item_discount_rows",
  {
    order_key: orderKey(),
    item_position: integer("item_position").notNull(),
    position: integer("position").notNull(),
    discount_name: text("discount_name").notNull(),
    discount_value: real("discount_value").notNull(),
    discount_catalog_ref: idRef("discount_catalog").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.order_key, t.item_position, t.position] }),
    foreignKey({
      columns: [t.order_key, t.item_position],
      foreignColumns: [orderItemRows.order_key, orderItemRows.position],
    }).onDelete("cascade"),
  ],
);

export const orderPaymentRows = sqliteTable(
  "order_payment_rows",
  {
    order_key: orderKey().references(() => orderRows.key, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    payment_amount: real("payment_amount").notNull(),
    payment_name: text("payment_name").notNull(),
    payment_catalog_ref: idRef("payment_catalog").notNull(),
  },
  (t) => [primaryKey({ columns: [t.order_key, t.position] })],
);
