/** End-of-session reports and their arrays (src/db/schema/reports.ts). */
import {
  api,
  businessDate,
  clockOffset,
  contentHash,
  dayRecordDeletedAt,
  derived,
  locationId,
  position,
  sentAt,
  syncedAt,
} from "./columns.js";
import type { ColumnDoc, TableDoc } from "./types.js";

/** The key every report array shares: the report and the element's index. */
const reportChild = (array: string): Record<string, ColumnDoc> => ({
  report_id: api("id", "The report (reports.id)."),
  position: position(array),
  location_id: locationId(),
});

/** A field of the flattened reportHeaderInfo object. */
const header = (field: string, meaning: string): ColumnDoc =>
  api(`reportHeaderInfo.${field}`, `${meaning} printed in the report's header.`);

export const REPORT_TABLES: Record<string, TableDoc> = {
  reports: {
    record: "report",
    meaning:
      "One row per end-of-session report (a till session, from opening to closing); the reportHeaderInfo object is flattened into header_* columns.",
    columns: {
      key: derived(
        "The row's key, given by the database and never reused: what the tables behind the report's arrays refer to it by (report_product_rows.report_key …). The report's identity is id.",
      ),
      id: api("id", "Report identifier (UUID)."),
      location_id: locationId(),
      business_date: businessDate("report"),
      created_at: sentAt("createdAt", "When the server first recorded the report"),
      updated_at: sentAt(
        "updatedAt",
        "When the report last changed",
        "a newer version replaces the row",
      ),
      started_at: sentAt(
        "startedAt",
        "When the session opened, by the device's clock",
        "its consistency is not guaranteed",
      ),
      finalized_at: sentAt(
        "finalizedAt",
        "When the session closed, by the device's clock",
        "its consistency is not guaranteed",
      ),
      finalized_at_offset: clockOffset("finalized_at"),
      device_name: api("deviceName", "Name of the device the session ran on."),
      device_identifier: api(
        "deviceIdentifier",
        "Identifier of the POS that opened the session; null when the API sends none.",
      ),
      report_number: api("reportNumber", "Session number (from 1)."),
      guests_number: api("guestsNumber", "Number of guests served during the session."),
      total_sales: api(
        "totalSales",
        "Sales of the session, tax included, excluding orders transferred to a hotel room account (compare with v_report_reconciliation).",
      ),
      header_address: header("headerAddress", "Location address"),
      header_city: header("headerCity", "City"),
      header_country: header("headerCountry", "Country"),
      header_name: header("headerName", "Location name"),
      header_phone: header("headerPhone", "Phone number"),
      header_naf: header("headerNaf", "Activity code (NAF)"),
      header_siret: header("headerSiret", "Company registration code (SIRET)"),
      header_text: header("headerText", "Free text"),
      header_tva: header("headerTva", "VAT number (TVA)"),
      header_zip: header("headerZip", "Postal code"),
      header_url: api(
        "reportHeaderInfo.headerUrl",
        "Web address printed in the header; null when the API leaves it out.",
      ),
      clerk_name: api("clerkName", "Clerk who closed the session; null when the API sends none."),
      clerk_id: api("clerkId", "That clerk's identifier (UUID); null when the API sends none."),
      initial_cash_balance: api(
        "initialCashBalance",
        "Cash fund when the session opened, an integer as sent; null when not sent.",
      ),
      final_cash_balance: api(
        "finalCashBalance",
        "Cash fund when the session closed, an integer as sent; null when not sent.",
      ),
      content_hash: contentHash("report"),
      synced_at: syncedAt(),
      deleted_at: dayRecordDeletedAt("report"),
    },
  },
  report_products: {
    record: "report",
    elements: "reportProducts[]",
    meaning: "Sales per product over the session, as the report aggregates them.",
    columns: {
      ...reportChild("reportProducts[]"),
      product_name: api("reportProducts[].productName", "Product name."),
      product_sales: api(
        "reportProducts[].productSales",
        "Sales of the product during the session, as sent.",
      ),
      category: api("reportProducts[].category", "Category name."),
      sub_category: api("reportProducts[].subCategory", "Subcategory name."),
      product_quantity: api("reportProducts[].productQuantity", "Units sold (an integer)."),
      product_catalog_id: api(
        "reportProducts[].productCatalogId",
        "The product in the catalog (products.id).",
      ),
    },
  },
  report_clerk_shifts: {
    record: "report",
    elements: "reportClerksShift[]",
    meaning: "One row per clerk shift during the session.",
    columns: {
      ...reportChild("reportClerksShift[]"),
      clerk_id: api(
        "reportClerksShift[].id",
        "The clerk (the element's id, renamed to say whose it is).",
      ),
      name: api("reportClerksShift[].name", "The clerk's name."),
      clock_in_date: sentAt("reportClerksShift[].clockInDate", "When the clerk clocked in"),
      clock_out_date: sentAt("reportClerksShift[].clockOutDate", "When the clerk clocked out"),
    },
  },
  report_discounts: {
    record: "report",
    elements: "reportDiscounts[]",
    meaning: "Discounts granted during the session.",
    columns: {
      ...reportChild("reportDiscounts[]"),
      discount_name: api("reportDiscounts[].discountName", "Name of the discount."),
      discount_value: api("reportDiscounts[].discountValue", "Amount of the discount, as sent."),
      discount_catalog_id: api(
        "reportDiscounts[].discountCatalogId",
        "The discount in the POS catalog (pos-sync has no discounts table).",
      ),
    },
  },
  report_taxes: {
    record: "report",
    elements: "reportTaxes[]",
    meaning: "Tax collected during the session, per tax.",
    columns: {
      ...reportChild("reportTaxes[]"),
      tax_name: api("reportTaxes[].taxName", "Name of the tax."),
      tax_rate: api(
        "reportTaxes[].taxRate",
        "Tax rate as sent: hundredths of a percent (1000 = 10 %).",
      ),
      tax_rate_bp: derived(
        "tax_rate as an integer, in hundredths of a percent (1000 = 10 %), the unit every table shares.",
      ),
      tax_amount: api("reportTaxes[].taxAmount", "Tax collected."),
      taxable_amount: api("reportTaxes[].taxableAmount", "Amount the tax was computed on."),
    },
  },
  report_payments: {
    record: "report",
    elements: "reportPayments[]",
    meaning: "Payments received during the session, per payment method.",
    columns: {
      ...reportChild("reportPayments[]"),
      payment_name: api("reportPayments[].paymentName", "Name of the payment method."),
      payment_amount: api("reportPayments[].paymentAmount", "Amount received."),
    },
  },
  report_entries: {
    record: "report",
    elements: "reportEntries[]",
    meaning: "Accounting entries of the session.",
    columns: {
      ...reportChild("reportEntries[]"),
      entry_name: api("reportEntries[].entryName", "Name of the entry."),
      entry_amount: api("reportEntries[].entryAmount", "Amount of the entry; may be negative."),
      entry_type: api("reportEntries[].entryType", "Type of the entry, as sent; may be empty."),
    },
  },
  report_orders: {
    record: "report",
    elements: "orders[]",
    meaning: "The orders the report lists as belonging to the session.",
    columns: {
      ...reportChild("orders[]"),
      order_id: api(
        "orders[]",
        "An order of the session (orders.id); the order may not be stored yet.",
      ),
    },
  },
};
