/** The BI views (drizzle/0001_views.sql, recreated by 0004, 0007 and 0008). A sale is an order
 * neither cancelled, nor made in training mode, nor transferred to a hotel room account; every
 * view names the location, sums are rounded to cents and whole counts come out as integers. */
import { CLOSED_HOUR } from "./columns.js";
import { LOSS_PREVENTION_VIEWS } from "./loss-prevention.js";
import type { ViewDoc } from "./types.js";

const locationId = "The location (locations.id).";
const locationName = "The location's name (locations.name); null until the location is read.";
const businessDate = "The orders' business_date (YYYY-MM-DD).";
const weekday =
  "ISO 8601 weekday of business_date: 1 = Monday … 7 = Sunday (group by it without date functions).";

export const VIEW_DOCS: Record<string, ViewDoc> = {
  v_orders: {
    meaning:
      "Every order that stands (not deleted upstream), one row each, with the location's name and the business day, weekday and closing hour as columns; is_sale says whether it counts in sales.",
    columns: {
      order_id: "The order (orders.id).",
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
      weekday,
      weekday_name: "Monday … Sunday, in English.",
      closed_hour: CLOSED_HOUR,
      order_number: "The order's number as the POS shows it.",
      operator_id: "The operator who took the order.",
      operator_name: "The operator's name.",
      device_name: "The device (till) the order was taken on; null when the API sends none.",
      order_place: "Where the order was served (table, counter…).",
      channel: "The order's channel (`unknown` when the API sends none).",
      service_type: "takeout, eatin, delivery or unknown.",
      guests: "Guests (an integer when whole).",
      total: "Order total, tax included.",
      total_tax: "Tax included in the total.",
      net_total: "total minus total_tax, rounded to the cent.",
      total_discount: "Discounts granted on the order.",
      is_sale: "1 when the order counts in sales (neither cancelled, training nor transferred).",
      is_canceled: "1 when the order was cancelled.",
      is_transferred: "1 when the order was transferred to a hotel room account.",
      is_training: "1 when the order was made in training mode.",
      created_at: "When the order was created, on the location's wall clock.",
      closed_at: "When the order was closed, on the location's wall clock.",
      report_id: "The end-of-session report the order belongs to.",
    },
  },
  v_daily_sales: {
    meaning:
      "Sales per location and day, with transferred, cancelled and training orders counted apart.",
    columns: {
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
      weekday,
      orders: "Number of sales orders.",
      guests: "Guests of the sales orders (an integer when whole).",
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
      location_name: locationName,
      business_date: businessDate,
      product_id: "The product (order_items.item_catalog_id, products.id).",
      product_name: "The line description (the alphabetically last, if it varied that day).",
      category: "Category name (the alphabetically last, if it varied that day).",
      sub_category: "Subcategory name (the alphabetically last, if it varied that day).",
      quantity: "Quantity sold (an integer when whole; fractional quantities are kept).",
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
      location_name: locationName,
      business_date: businessDate,
      payment_name: "Name of the payment method.",
      payments: "Number of payments.",
      amount: "Amount paid.",
      share_percent:
        "The method's share of the day's amount paid, in percent from 0 to 100 (2 decimals); null when the day's amount is 0.",
    },
  },
  v_tax_summary: {
    meaning:
      "Tax per location, day and tax rate, from the order lines of sales orders, cancelled lines left out.",
    columns: {
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
      tax_rate_bp: "Tax rate in hundredths of a percent (1000 = 10 %).",
      tax_name: "Name of the tax (the alphabetically last, if several share the rate).",
      gross_sales: "Line totals, tax included.",
      tax_amount: "Tax included in those lines.",
      taxable_amount: "gross_sales minus tax_amount.",
    },
  },
  v_hourly_sales: {
    meaning:
      "Sales orders per location, day and the hour they were closed, with the average ticket.",
    columns: {
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
      weekday,
      hour: CLOSED_HOUR,
      orders: "Number of sales orders closed in that hour.",
      total_sales: "Total of those orders, tax included.",
      average_order: "Average total of those orders (the average ticket).",
    },
  },
  v_operator_sales: {
    meaning:
      "Per location, day and operator: sales, discounts, and what was cancelled (whole orders, and lines cancelled inside orders that stood); training orders left out.",
    columns: {
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
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
  },
  v_order_tips: {
    meaning:
      "One row per tip of an order that stands (orders.tips expanded); orders with no tips (null or an empty list) have none.",
    columns: {
      order_id: "The order (orders.id).",
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
      position: "Index of the tip in the order's `tips[]` (0 = first).",
      amount:
        "The tip's `amount` field, when it has one (the spec does not show a tip's fields); null otherwise.",
      tip: "The tip's JSON as sent.",
    },
  },
  v_report_reconciliation: {
    meaning:
      "Each report's total_sales compared with the sales orders stored for it, and the orders it lists that are not stored.",
    columns: {
      report_id: "The report (reports.id).",
      location_id: locationId,
      location_name: locationName,
      business_date: "The report's business_date (YYYY-MM-DD).",
      report_number: "The report's session number.",
      api_total_sales: "The report's total_sales, as the API sent it.",
      stored_total_sales: "Total of the stored sales orders whose report_id is this report.",
      difference: "api_total_sales minus stored_total_sales.",
      orders_listed: "Orders the report lists (report_orders).",
      orders_stored: "Stored orders whose report_id is this report, not deleted upstream.",
      orders_missing: "Orders the report lists that are not stored.",
      status: "`orders missing`, `totals differ` or `ok`.",
    },
  },
  v_chain_product_sales: {
    meaning:
      "Sales per day and product across the chain: a product is the same at every location when the API gives it the same sku, else when it has the same name and category (each location's catalog has its own ids; v_product_sales keeps them).",
    columns: {
      business_date: businessDate,
      product_key:
        "How the product is matched across locations: `sku <sku>`, or `name <length>:<name> / <category>` for a product without one (the name's length in characters first, so that no two names and categories make the same key).",
      sku: "The product's sku (products.sku); null when matched by name and category.",
      product_name: "The product's name (the alphabetically last among the locations).",
      category: "Its category name (the alphabetically last among the locations).",
      locations: "How many locations sold it that day.",
      quantity: "Quantity sold at all of them.",
      sales: "Line totals, tax included, at all of them.",
      tax: "Tax included in those lines.",
      net_sales: "sales minus tax.",
      orders: "Sales orders with the product, summed over the locations.",
    },
  },
  v_chain_operator_sales: {
    meaning:
      "Per day and operator across the chain, an operator being the same person wherever the name is the same (operator ids differ per location; v_operator_sales keeps them): sales, discounts and cancellations.",
    columns: {
      business_date: businessDate,
      operator_name: "The operator's name, exactly as the POS sends it.",
      locations: "At how many locations the operator took orders that day.",
      orders: "Sales orders the operator took, at all of them.",
      cancelled_orders: "Orders the operator took that were cancelled.",
      cancelled_items: "Lines cancelled inside the operator's orders that stood.",
      total_sales: "Total of the sales orders, tax included.",
      total_discount: "Discounts granted on those orders.",
      cancelled_total: "Total of the cancelled orders.",
      cancelled_items_total: "Total of the cancelled lines.",
    },
  },
  ...LOSS_PREVENTION_VIEWS,
};
