/** The BI views (drizzle/0001_views.sql, recreated by 0004 to leave out orders and reports the
 * API no longer lists). A sale is an order neither cancelled, nor made in training mode, nor
 * transferred to a hotel room account; sums are rounded to cents. */
import type { ViewDoc } from "./types.js";

const locationId = "The location (locations.id).";
const businessDate = "The orders' business_date (YYYY-MM-DD).";

export const VIEW_DOCS: Record<string, ViewDoc> = {
  v_daily_sales: {
    meaning:
      "Sales per location and day, with transferred, cancelled and training orders counted apart.",
    columns: {
      location_id: locationId,
      business_date: businessDate,
      orders: "Number of sales orders.",
      guests: "Guests of the sales orders.",
      total_sales: "Total of the sales orders, tax included.",
      total_tax: "Tax included in those totals.",
      net_sales: "total_sales minus total_tax.",
      total_discount: "Discounts granted on the sales orders.",
      average_order: "Average total of a sales order; null on a day without one.",
      transferred_orders:
        "Orders transferred to a hotel room account (neither cancelled nor training), not in the sales figures.",
      transferred_sales: "Total of those transferred orders.",
      cancelled_orders: "Cancelled orders, training ones included.",
      cancelled_total: "Total of the cancelled orders.",
      training_orders: "Orders made in training mode, cancelled ones included.",
    },
  },
  v_product_sales: {
    meaning:
      "Sales per location, day and product, from the order lines of sales orders, cancelled lines left out.",
    columns: {
      location_id: locationId,
      business_date: businessDate,
      product_id: "The product (order_items.item_catalog_id, products.id).",
      product_name: "The line description (the alphabetically last, if it varied that day).",
      category: "Category name (the alphabetically last, if it varied that day).",
      sub_category: "Subcategory name (the alphabetically last, if it varied that day).",
      quantity: "Quantity sold.",
      sales: "Line totals, tax included.",
      tax: "Tax included in those lines.",
      net_sales: "sales minus tax.",
      orders: "Number of sales orders with the product.",
    },
  },
  v_payment_mix: {
    meaning: "Payments of sales orders per location, day and payment method name.",
    columns: {
      location_id: locationId,
      business_date: businessDate,
      payment_name: "Name of the payment method.",
      payments: "Number of payments.",
      amount: "Amount paid.",
      share:
        "The method's share of the day's amount paid, from 0 to 1 (4 decimals); null when the day's amount is 0.",
    },
  },
  v_tax_summary: {
    meaning:
      "Tax per location, day and tax rate, from the order lines of sales orders, cancelled lines left out.",
    columns: {
      location_id: locationId,
      business_date: businessDate,
      tax_rate_bp: "Tax rate in hundredths of a percent (1000 = 10 %).",
      tax_name: "Name of the tax (the alphabetically last, if several share the rate).",
      gross_sales: "Line totals, tax included.",
      tax_amount: "Tax included in those lines.",
      taxable_amount: "gross_sales minus tax_amount.",
    },
  },
  v_hourly_sales: {
    meaning: "Sales orders per location, day and hour of the day.",
    columns: {
      location_id: locationId,
      business_date: businessDate,
      hour: "Hour (0-23) of created_at in the location's local time.",
      orders: "Number of sales orders.",
      total_sales: "Total of those orders, tax included.",
    },
  },
  v_report_reconciliation: {
    meaning:
      "Each report's total_sales compared with the sales orders stored for it, and the orders it lists that are not stored.",
    columns: {
      report_id: "The report (reports.id).",
      location_id: locationId,
      business_date: "The report's business_date (YYYY-MM-DD).",
      report_number: "The report's session number.",
      api_total_sales: "The report's total_sales, as the API sent it.",
      stored_total_sales: "Total of the stored sales orders whose report_id is this report.",
      difference: "api_total_sales minus stored_total_sales.",
      orders_listed: "Orders the report lists (report_orders).",
      orders_stored: "Stored orders whose report_id is this report, in any state.",
      orders_missing: "Orders the report lists that are not stored.",
      status: "`orders missing`, `totals differ` or `ok`.",
    },
  },
};
