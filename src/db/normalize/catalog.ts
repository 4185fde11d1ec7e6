/** Catalog records, the location and its devices → rows. */

import type {
  Category,
  Device,
  Location,
  Modifier,
  PaymentMethod,
  Product,
  Tax,
} from "../../api/schemas.js";
import { contentHash } from "../../content-hash.js";
import type {
  categories,
  devices,
  locations,
  modifierOptions,
  modifiers,
  paymentMethods,
  productPrices,
  productSubCategories,
  products,
  taxes,
} from "../schema/index.js";
import { basisPointsFromHundredths, bit, optional, type RowContext } from "./values.js";

export interface ProductRows {
  product: typeof products.$inferSelect;
  subCategories: (typeof productSubCategories.$inferSelect)[];
  prices: (typeof productPrices.$inferSelect)[];
}

export function normalizeProduct(product: Product, raw: string, context: RowContext): ProductRows {
  const subCategories = product.subCategories ?? [];
  const base = { location_id: context.locationId, product_id: product.id };
  return {
    product: {
      location_id: context.locationId,
      id: product.id,
      name: product.name,
      category: product.category,
      category_id: product.categoryId,
      sku: optional(product.sku),
      is_archived: bit(subCategories.length === 0),
      content_hash: contentHash(raw),
      synced_at: context.syncedAt,
      deleted_at: null,
    },
    subCategories: subCategories.map((sub, position) => ({
      ...base,
      sub_category_id: sub.id,
      name: sub.name,
      position,
    })),
    prices: product.priceList.map((price, position) => ({
      ...base,
      price_type_id: price.priceTypeId,
      price_type_name: price.priceTypeName,
      unit_price: price.unitPrice,
      tax_rate: price.taxRate,
      tax_rate_bp: basisPointsFromHundredths(price.taxRate),
      position,
    })),
  };
}

export function normalizeCategory(
  category: Category,
  raw: string,
  context: RowContext,
): typeof categories.$inferSelect {
  return {
    location_id: context.locationId,
    id: category.id,
    name: category.name,
    position: category.index,
    content_hash: contentHash(raw),
    synced_at: context.syncedAt,
    deleted_at: null,
  };
}

export interface ModifierRows {
  modifier: typeof modifiers.$inferSelect;
  options: (typeof modifierOptions.$inferSelect)[];
}

export function normalizeModifier(
  modifier: Modifier,
  raw: string,
  context: RowContext,
): ModifierRows {
  return {
    modifier: {
      location_id: context.locationId,
      id: modifier.id,
      name: modifier.name,
      content_hash: contentHash(raw),
      synced_at: context.syncedAt,
      deleted_at: null,
    },
    options: modifier.options.map((option, position) => ({
      location_id: context.locationId,
      modifier_id: modifier.id,
      id: option.id,
      name: option.name,
      price: option.price,
      position,
    })),
  };
}

export function normalizePaymentMethod(
  method: PaymentMethod,
  raw: string,
  context: RowContext,
): typeof paymentMethods.$inferSelect {
  return {
    location_id: context.locationId,
    id: method.id,
    name: method.name,
    enabled: bit(method.enabled),
    content_hash: contentHash(raw),
    synced_at: context.syncedAt,
    deleted_at: null,
  };
}

export function normalizeTax(
  tax: Tax,
  raw: string,
  context: RowContext,
): typeof taxes.$inferSelect {
  return {
    location_id: context.locationId,
    id: tax.id,
    name: tax.name,
    percentage: tax.percentage,
    tax_rate_bp: basisPointsFromHundredths(tax.percentage),
    content_hash: contentHash(raw),
    synced_at: context.syncedAt,
    deleted_at: null,
  };
}

/** The location's row as the API describes it: its time zone is a setting, not API data. */
export type LocationRow = Omit<typeof locations.$inferSelect, "time_zone">;

export function normalizeLocation(
  location: Location,
  raw: string,
  context: { syncedAt: string; apiKeyFingerprint: string },
): LocationRow {
  return {
    id: location.id,
    location_id: location.id,
    name: location.name,
    address: location.address,
    city: location.city,
    zip: location.zip,
    country: location.country,
    phone: location.phone,
    url: location.url,
    text: location.text,
    siret: location.siret,
    naf: location.naf,
    tva: location.tva,
    api_key_fingerprint: context.apiKeyFingerprint,
    content_hash: contentHash(raw),
    synced_at: context.syncedAt,
  };
}

/** Devices come inside the location's JSON; each keeps its own element of deviceList as raw. */
export function normalizeDevice(
  device: Device,
  raw: string,
  position: number,
  context: RowContext,
): typeof devices.$inferSelect {
  return {
    location_id: context.locationId,
    id: device.id,
    name: device.name,
    model: device.model,
    position,
    content_hash: contentHash(raw),
    synced_at: context.syncedAt,
    deleted_at: null,
  };
}
