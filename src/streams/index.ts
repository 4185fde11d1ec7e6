/** Every stream pos-sync reads, as descriptions (description.ts), in the order a run reads them. */

import { DAY_STREAMS, type DayStream } from "../vocabulary.js";
import { CATEGORIES, MODIFIERS, PAYMENT_METHODS, PRODUCTS, TAXES } from "./catalog-lists.js";
import type { CatalogListDescription, DayStreamDescription } from "./description.js";
import { ORDERS } from "./orders.js";
import { REPORTS } from "./reports.js";

export type {
  CatalogListDescription,
  DayStreamDescription,
  SnapshotListDescription,
} from "./description.js";
export { countDays, readDays, readList, withoutChildren } from "./description.js";
export { DEVICES, devicesOf } from "./devices.js";
export { CATEGORIES, MODIFIERS, ORDERS, PAYMENT_METHODS, PRODUCTS, REPORTS, TAXES };

const BY_NAME: Record<DayStream, DayStreamDescription> = { reports: REPORTS, orders: ORDERS };

/** The day streams of vocabulary.ts, in its order. */
export const DAY_STREAM_DESCRIPTIONS: readonly DayStreamDescription[] = DAY_STREAMS.map(
  (name) => BY_NAME[name],
);

export const CATALOG_LISTS: readonly CatalogListDescription[] = [
  PRODUCTS,
  CATEGORIES,
  MODIFIERS,
  PAYMENT_METHODS,
  TAXES,
];
