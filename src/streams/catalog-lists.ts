/** The five catalog lists: each read whole in one request and stored as a snapshot of its
 * location. Two of them live at paths the spec does not show, which settings may move. */
import { SHOWN_PATHS } from "../api/paths.js";
import {
  type Category,
  categorySchema,
  type Modifier,
  modifierSchema,
  type PaymentMethod,
  type Product,
  paymentMethodSchema,
  productSchema,
  type Tax,
  taxSchema,
} from "../api/schemas.js";
import {
  normalizeCategory,
  normalizeModifier,
  normalizePaymentMethod,
  normalizeProduct,
  normalizeTax,
} from "../db/normalize/catalog.js";
import {
  categories,
  modifierOptions,
  modifiers,
  paymentMethods,
  productPrices,
  productSubCategories,
  products,
  taxes,
} from "../db/schema/index.js";
import { type CatalogListDescription, withoutChildren } from "./description.js";

export const PRODUCTS: CatalogListDescription<Product> = {
  name: "products",
  listing: { operation: "listProducts", path: SHOWN_PATHS.products },
  schema: productSchema,
  table: products,
  childTables: [productSubCategories, productPrices],
  toRows(product, raw, context) {
    const rows = normalizeProduct(product, raw, context);
    return { parent: rows.product, children: [rows.subCategories, rows.prices] };
  },
};

export const CATEGORIES: CatalogListDescription<Category> = {
  name: "categories",
  listing: { operation: "listCategories", path: SHOWN_PATHS.categories },
  schema: categorySchema,
  table: categories,
  childTables: [],
  toRows: withoutChildren(normalizeCategory),
};

export const MODIFIERS: CatalogListDescription<Modifier> = {
  name: "modifiers",
  listing: { operation: "listModifiers", path: SHOWN_PATHS.modifiers },
  schema: modifierSchema,
  table: modifiers,
  childTables: [modifierOptions],
  toRows(modifier, raw, context) {
    const rows = normalizeModifier(modifier, raw, context);
    return { parent: rows.modifier, children: [rows.options] };
  },
};

export const PAYMENT_METHODS: CatalogListDescription<PaymentMethod> = {
  name: "paymentMethods",
  listing: { operation: "listPaymentMethods", unshownPath: "paymentMethods" },
  schema: paymentMethodSchema,
  table: paymentMethods,
  childTables: [],
  toRows: withoutChildren(normalizePaymentMethod),
};

export const TAXES: CatalogListDescription<Tax> = {
  name: "taxes",
  listing: { operation: "listTaxes", unshownPath: "taxes" },
  schema: taxSchema,
  table: taxes,
  childTables: [],
  toRows: withoutChildren(normalizeTax),
};
