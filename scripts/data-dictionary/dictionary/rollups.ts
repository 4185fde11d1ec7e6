/** The daily summary tables (src/db/schema/rollups.ts): sums of the orders of each location and
 * business day, kept by pos-sync in the transaction that changes those orders. The views read
 * them; a query may too. */
import { derived } from "./columns.js";
import type { ColumnDoc, TableDoc } from "./types.js";
import { VIEW_DOCS } from "./views.js";

const dayKey: Record<string, ColumnDoc> = {
  location_id: derived("The location (locations.id)."),
  business_date: derived("The orders' business_date (YYYY-MM-DD)."),
};

/** A summary table whose columns mean what the same columns of its view mean (views.ts). */
const summary = (view: string, meaning: string, columns: readonly string[]): TableDoc => {
  const viewColumns = VIEW_DOCS[view]?.columns ?? {};
  return {
    record: null,
    meaning: `${meaning} (${view} reads it). Recomputed from the orders of a day whenever they change, at the end of the day's window; read it through its view for the location's name.`,
    columns: {
      ...dayKey,
      ...Object.fromEntries(
        columns.map((name) => [name, derived(viewColumns[name] ?? `See ${view}.${name}.`)]),
      ),
    },
  };
};

export const ROLLUP_TABLES: Record<string, TableDoc> = {
  daily_sales: summary("v_daily_sales", "Sales per location and day", [
    "orders",
    "guests",
    "total_sales",
    "total_tax",
    "net_sales",
    "total_discount",
    "transferred_orders",
    "transferred_sales",
    "cancelled_orders",
    "cancelled_total",
    "training_orders",
  ]),
  daily_product_sales: summary(
    "v_product_sales",
    "Sales per location, day and product, from the lines of sales orders that were not cancelled",
    [
      "product_id",
      "product_name",
      "category",
      "sub_category",
      "quantity",
      "sales",
      "tax",
      "net_sales",
      "orders",
    ],
  ),
  daily_payment_sales: summary(
    "v_payment_mix",
    "Payments of sales orders per location, day and payment method name",
    ["payment_name", "payments", "amount"],
  ),
  daily_tax_sales: summary(
    "v_tax_summary",
    "Tax per location, day and rate, from the lines of sales orders that were not cancelled",
    ["tax_rate_bp", "tax_name", "gross_sales", "tax_amount", "taxable_amount"],
  ),
  hourly_sales: summary(
    "v_hourly_sales",
    "Sales orders per location, day and the hour they were closed",
    ["hour", "orders", "total_sales"],
  ),
  daily_operator_sales: summary(
    "v_operator_sales",
    "Per location, day and operator: sales, discounts and cancellations; training orders left out",
    [
      "operator_id",
      "operator_name",
      "orders",
      "total_sales",
      "total_discount",
      "cancelled_orders",
      "cancelled_total",
      "cancelled_items",
      "cancelled_items_total",
    ],
  ),
  report_order_sums: {
    record: null,
    meaning:
      "Each report against the orders stored for it (v_report_reconciliation reads it): recomputed whenever the report or one of its orders changes, at the end of the window that changed it. pos-sync verify recomputes the same from the order tables rather than trust it.",
    columns: {
      report_id: derived("The report (reports.id)."),
      location_id: derived("The location (locations.id)."),
      orders_listed: derived("Orders the report lists (report_orders)."),
      orders_stored: derived("Stored orders whose report_id is this report, not deleted upstream."),
      orders_missing: derived(
        "Orders the report lists that are not stored (or were deleted upstream).",
      ),
      stored_total_sales: derived(
        "Total of the stored sales orders whose report_id is this report, rounded to the cent.",
      ),
    },
  },
  summary_pending: {
    record: null,
    meaning:
      "Days and reports whose summaries wait to be recomputed: marked in the transaction that changes their orders, cleared when pos-sync sums them at the end of the day's window (or of the run), so that a day read in many pages is summed once. Empty between runs.",
    columns: {
      kind: derived("day, or report."),
      location_id: derived("The location (locations.id)."),
      key: derived("The business_date (a day) or the report's id (a report)."),
    },
  },
  location_row_counts: {
    record: null,
    meaning:
      "How many orders and reports each location has stored, live and marked deleted, as pos-sync status shows them: kept by triggers on order_rows and report_rows at every write, pos-sync's or one made by hand, so that status reads two numbers instead of counting a location's whole history.",
    columns: {
      relation: derived("orders, or reports."),
      location_id: derived("The location (locations.id)."),
      live: derived("Rows the API lists now (deleted_at empty): the ones every view counts."),
      deleted: derived("Rows kept for audit after the API stopped listing them."),
    },
  },
};
