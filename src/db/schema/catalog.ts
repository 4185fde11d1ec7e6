/** The catalog of each location. Every list is a snapshot: a row missing from the latest list
 * gets `deleted_at`, and loses it when it comes back. */
import { foreignKey, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { contentHash, deletedAt, flag, locationId, syncedAt } from "./columns.js";

export const categories = sqliteTable(
  "categories",
  {
    location_id: locationId(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    /** The category's `index`: its position in the POS configuration. */
    position: integer("position").notNull(),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.id] })],
);

export const products = sqliteTable(
  "products",
  {
    location_id: locationId(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    category_id: text("category_id").notNull(),
    sku: text("sku"),
    /** 1 when the product has no subcategories, which the spec defines as archived. */
    is_archived: flag("is_archived").notNull(),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.id] })],
);

export const productSubCategories = sqliteTable(
  "product_sub_categories",
  {
    location_id: locationId(),
    product_id: text("product_id").notNull(),
    sub_category_id: text("sub_category_id").notNull(),
    name: text("name").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.location_id, t.product_id, t.sub_category_id] }),
    foreignKey({
      columns: [t.location_id, t.product_id],
      foreignColumns: [products.location_id, products.id],
    }).onDelete("cascade"),
  ],
);

export const productPrices = sqliteTable(
  "product_prices",
  {
    location_id: locationId(),
    product_id: text("product_id").notNull(),
    price_type_id: integer("price_type_id").notNull(),
    price_type_name: text("price_type_name").notNull(),
    unit_price: real("unit_price").notNull(),
    /** As sent: hundredths of a percent (1000 = 10 %). */
    tax_rate: real("tax_rate").notNull(),
    /** The rate in hundredths of a percent, the unit every table shares. */
    tax_rate_bp: integer("tax_rate_bp").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.location_id, t.product_id, t.price_type_id] }),
    foreignKey({
      columns: [t.location_id, t.product_id],
      foreignColumns: [products.location_id, products.id],
    }).onDelete("cascade"),
  ],
);

export const modifiers = sqliteTable(
  "modifiers",
  {
    location_id: locationId(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.id] })],
);

export const modifierOptions = sqliteTable(
  "modifier_options",
  {
    location_id: locationId(),
    modifier_id: text("modifier_id").notNull(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    price: real("price").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.location_id, t.modifier_id, t.id] }),
    foreignKey({
      columns: [t.location_id, t.modifier_id],
      foreignColumns: [modifiers.location_id, modifiers.id],
    }).onDelete("cascade"),
  ],
);

export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    location_id: locationId(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    enabled: flag("enabled").notNull(),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.id] })],
);

export const taxes = sqliteTable(
  "taxes",
  {
    location_id: locationId(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    /** As sent: hundredths of a percent (1000 = 10 %). */
    percentage: integer("percentage").notNull(),
    tax_rate_bp: integer("tax_rate_bp").notNull(),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.id] })],
);
