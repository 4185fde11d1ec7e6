/** The daily summary tables (src/db/schema/rollups.ts): sums of the orders of each location and
 * business day, kept by pos-sync in the transaction that changes those orders. The views read
 * them; a query may too. */
import { derived } from "./columns.js";
import type { ColumnDoc, TableDoc } from "./types.js";

const dayKey: Record<string, ColumnDoc> = {
  location_id: derived("The location (locations.id)."),
  business_date: derived("The orders' business_date (YYYY-MM-DD)."),
};

const summary = (meaning: string, columns: Record<string, string>): TableDoc => ({
  record: null,
  meaning: `${meaning} Recomputed from the orders of a day whenever they change, at the end of the day's window; read it through its v_ view for the location's name.`,
  columns: {
    ...dayKey,
    ...Object.fromEntries(Object.entries(columns).map(([name, text]) => [name, derived(text)])),
  },
});

export const ROLLUP_TABLES: Record<string, TableDoc> = {
  daily_sales: summary("Sales per location and day (v_daily_sales).", {
    orders: "Number of sales orders (neither cancelled, training nor transferred).",
    guests: "Guests of the sales orders (an integer when whole).",
    total_sales: "Total of the sales orders, tax included, rounded to the cent.",
    total_tax: "Tax included in those totals.",
    net_sales: "total_sales minus total_tax.",
    total_discount: "Discounts granted on the sales orders.",
    transferred_orders: "Orders transferred to a hotel room account (not cancelled, not training).",
    transferred_sales: "Total of those transferred orders.",
    cancelled_orders: "Cancelled orders, training ones included.",
    cancelled_total: "Total of the cancelled orders.",
    training_orders: "Orders made in training mode, cancelled ones included.",
  }),
  daily_product_sales: summary(
    "Sales per location, day and product, from the lines of sales orders that were not cancelled (v_product_sales).",
    {
      product_id: "The product (order_items.item_catalog_id).",
      product_name: "The line description (the alphabetically last, if it varied that day).",
      category: "Category name (the alphabetically last, if it varied that day).",
      sub_category: "Subcategory name (the alphabetically last, if it varied that day).",
      quantity: "Quantity sold (an integer when whole).",
      sales: "Line totals, tax included.",
      tax: "Tax included in those lines.",
      net_sales: "sales minus tax.",
      orders: "Number of sales orders with the product.",
    },
  ),
  daily_payment_sales: summary(
    "Payments of sales orders per location, day and payment method name (v_payment_mix).",
    {
      payment_name: "Name of the payment method.",
      payments: "Number of payments.",
      amount: "Amount paid.",
    },
  ),
  daily_tax_sales: summary(
    "Tax per location, day and rate, from the lines of sales orders that were not cancelled (v_tax_summary).",
    {
      tax_rate_bp: "Tax rate in hundredths of a percent (1000 = 10 %).",
      tax_name: "Name of the tax (the alphabetically last, if several share the rate).",
      gross_sales: "Line totals, tax included.",
      tax_amount: "Tax included in those lines.",
      taxable_amount: "gross_sales minus tax_amount.",
    },
  ),
  hourly_sales: summary(
    "Sales orders per location, day and the hour they were closed (v_hourly_sales).",
    {
      hour: "Hour (0-23) of closed_at, on the clock it was sent in (the location's local time when the API sends its offset).",
      orders: "Number of sales orders closed in that hour.",
      total_sales: "Total of those orders, tax included.",
    },
  ),
  daily_operator_sales: summary(
    "Per location, day and operator: sales, discounts and cancellations; training orders left out (v_operator_sales).",
    {
      operator_id: "The operator (orders.operator_id).",
      operator_name: "The operator's name (the alphabetically last, if it varied that day).",
      orders: "Number of sales orders the operator took.",
      total_sales: "Total of those orders, tax included.",
      total_discount: "Discounts granted on those orders.",
      cancelled_orders: "Orders the operator took that were cancelled.",
      cancelled_total: "Total of those cancelled orders.",
      cancelled_items:
        "Lines cancelled inside the operator's orders that were not cancelled whole.",
      cancelled_items_total: "Total of those cancelled lines.",
    },
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
};
