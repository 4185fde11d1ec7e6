/** The catalog of each location (src/db/schema/catalog.ts). Every list is a snapshot. */
import {
  api,
  contentHash,
  deletedAt,
  derived,
  flag,
  locationId,
  position,
  syncedAt,
} from "./columns.js";
import type { TableDoc } from "./types.js";

const productId = () => api("id", "The product (products.id).");

export const CATALOG_TABLES: Record<string, TableDoc> = {
  categories: {
    record: "category",
    meaning: "The location's product categories, as last listed by the API.",
    columns: {
      location_id: locationId(),
      id: api("id", "Category identifier (UUID)."),
      name: api("name", "Category name."),
      position: api(
        "index",
        "The category's position in the POS configuration (the API's `index`, from 0).",
      ),
      content_hash: contentHash("category"),
      synced_at: syncedAt(),
      deleted_at: deletedAt("categories"),
    },
  },
  products: {
    record: "product",
    meaning: "The location's products, as last listed by the API.",
    columns: {
      location_id: locationId(),
      id: api("id", "Product identifier (UUID)."),
      name: api("name", "Product name."),
      category: api("category", "Name of the product's category."),
      category_id: api("categoryId", "The product's category (categories.id)."),
      sku: api("sku", "Stock-keeping unit code; null when the API sends none."),
      is_archived: derived(
        "1 when the product has no subcategories (an empty or absent subCategories list), which the API defines as archived; 0 otherwise.",
      ),
      content_hash: contentHash("product"),
      synced_at: syncedAt(),
      deleted_at: deletedAt("products"),
    },
  },
  product_sub_categories: {
    record: "product",
    elements: "subCategories[]",
    meaning: "The subcategories a product belongs to (a product with none is archived).",
    columns: {
      location_id: locationId(),
      product_id: productId(),
      sub_category_id: api("subCategories[].id", "Subcategory identifier (UUID)."),
      name: api("subCategories[].name", "Subcategory name."),
      position: position("subCategories[]"),
    },
  },
  product_prices: {
    record: "product",
    elements: "priceList[]",
    meaning:
      "A product's prices, one per price type (a price type listed twice keeps its first entry; the archived JSON keeps both).",
    columns: {
      location_id: locationId(),
      product_id: productId(),
      price_type_id: api("priceList[].priceTypeId", "Price type identifier (an integer)."),
      price_type_name: api(
        "priceList[].priceTypeName",
        "Price type name (what order_items.tier names).",
      ),
      unit_price: api("priceList[].unitPrice", "Price of one unit at this price type."),
      tax_rate: api(
        "priceList[].taxRate",
        "Tax rate as sent: hundredths of a percent (1000 = 10 %).",
      ),
      tax_rate_bp: derived(
        "tax_rate rounded to an integer: hundredths of a percent (1000 = 10 %), the unit every table shares.",
      ),
      position: position("priceList[]"),
    },
  },
  modifiers: {
    record: "modifier",
    meaning:
      "The location's modifier groups (choices offered on a product, e.g. sides), as last listed by the API.",
    columns: {
      location_id: locationId(),
      id: api("id", "Modifier group identifier (UUID)."),
      name: api("name", "Modifier group name."),
      content_hash: contentHash("modifier"),
      synced_at: syncedAt(),
      deleted_at: deletedAt("modifiers"),
    },
  },
  modifier_options: {
    record: "modifier",
    elements: "options[]",
    meaning: "The options of a modifier group.",
    columns: {
      location_id: locationId(),
      modifier_id: api("id", "The modifier group (modifiers.id)."),
      id: api("options[].id", "Option identifier (UUID)."),
      name: api("options[].name", "Option name."),
      price: api("options[].price", "Price of the option, as sent."),
      position: position("options[]"),
    },
  },
  payment_methods: {
    record: "paymentMethod",
    meaning: "The location's payment methods, as last listed by the API.",
    columns: {
      location_id: locationId(),
      id: api("id", "Payment method identifier (UUID)."),
      name: api("name", "Payment method name."),
      enabled: flag("enabled", "when the payment method is available"),
      content_hash: contentHash("payment method"),
      synced_at: syncedAt(),
      deleted_at: deletedAt("payment methods"),
    },
  },
  taxes: {
    record: "tax",
    meaning: "The location's taxes, as last listed by the API.",
    columns: {
      location_id: locationId(),
      id: api("id", "Tax identifier (UUID)."),
      name: api("name", "Tax name."),
      percentage: api(
        "percentage",
        "Tax rate as sent: hundredths of a percent (1000 = 10 %), despite the name.",
      ),
      tax_rate_bp: derived(
        "The same rate as an integer in hundredths of a percent (1000 = 10 %), the unit every table shares.",
      ),
      content_hash: contentHash("tax"),
      synced_at: syncedAt(),
      deleted_at: deletedAt("taxes"),
    },
  },
};
