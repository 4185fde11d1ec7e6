/** The data dictionary: what every table, column and view of the database means. Rendered into
 * docs/data-dictionary.md by scripts/data-dictionary/write-data-dictionary.ts, which checks it against the
 * schema first. */
import { BOOKKEEPING_TABLES } from "./bookkeeping.js";
import { CATALOG_TABLES } from "./catalog.js";
import { LOCATION_TABLES } from "./location.js";
import { ORDER_TABLES } from "./orders.js";
import { REPORT_TABLES } from "./reports.js";
import { ROLLUP_TABLES } from "./rollups.js";
import type { TableDoc } from "./types.js";

export type { ApiRecord, ColumnDoc, TableDoc, ViewDoc } from "./types.js";
export { VIEW_DOCS } from "./views.js";

export const TABLE_DOCS: Record<string, TableDoc> = {
  ...LOCATION_TABLES,
  ...CATALOG_TABLES,
  ...ORDER_TABLES,
  ...REPORT_TABLES,
  ...ROLLUP_TABLES,
  ...BOOKKEEPING_TABLES,
};
