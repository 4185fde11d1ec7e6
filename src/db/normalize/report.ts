/** One end-of-session report → its row (header flattened) and the rows of its seven arrays. */
import type { Report } from "../../api/schemas.js";
import { contentHash } from "../../content-hash.js";
import type { TwinName } from "../schema/columns.js";
import type {
  RelationRow,
  reportClerkShiftRows,
  reportDiscountRows,
  reportEntryRows,
  reportOrderRows,
  reportPaymentRows,
  reportProductRows,
  reportRows,
  reportTaxRows,
} from "../schema/index.js";
import { basisPointsFromHundredths, type DayRowContext, optional } from "./values.js";

/** A report's row, less its key: the database gives it. */
export type ReportRow = Omit<typeof reportRows.$inferSelect, "key" | TwinName>;
type OfReport<T extends { $inferSelect: object }> = RelationRow<T, "report_key", "report_id">[];

export interface ReportRows {
  report: ReportRow;
  products: OfReport<typeof reportProductRows>;
  clerkShifts: OfReport<typeof reportClerkShiftRows>;
  discounts: OfReport<typeof reportDiscountRows>;
  taxes: OfReport<typeof reportTaxRows>;
  payments: OfReport<typeof reportPaymentRows>;
  entries: OfReport<typeof reportEntryRows>;
  orders: OfReport<typeof reportOrderRows>;
}

export function normalizeReport(
  report: Report,
  raw: string,
  context: DayRowContext,
  hash = contentHash(raw),
): ReportRows {
  const header = report.reportHeaderInfo;
  const key = (position: number) => ({
    report_id: report.id,
    position,
    location_id: context.locationId,
  });
  return {
    report: {
      id: report.id,
      location_id: context.locationId,
      business_date: context.businessDate,
      created_at: report.createdAt,
      updated_at: report.updatedAt,
      started_at: report.startedAt,
      finalized_at: report.finalizedAt,
      finalized_at_offset: context.clock.offsetOf(report.finalizedAt),
      device_name: report.deviceName,
      device_identifier: report.deviceIdentifier,
      report_number: report.reportNumber,
      guests_number: report.guestsNumber,
      total_sales: report.totalSales,
      header_address: header.headerAddress,
      header_city: header.headerCity,
      header_country: header.headerCountry,
      header_name: header.headerName,
      header_phone: header.headerPhone,
      header_naf: header.headerNaf,
      header_siret: header.headerSiret,
      header_text: header.headerText,
      header_tva: header.headerTva,
      header_zip: header.headerZip,
      header_url: optional(header.headerUrl),
      clerk_name: report.clerkName,
      clerk_id: report.clerkId,
      initial_cash_balance: report.initialCashBalance,
      final_cash_balance: report.finalCashBalance,
      content_hash: hash,
      synced_at: context.syncedAt,
      deleted_at: null,
    },
    products: report.reportProducts.map((p, i) => ({
      ...key(i),
      product_name: p.productName,
      product_sales: p.productSales,
      category: p.category,
      sub_category: p.subCategory,
      product_quantity: p.productQuantity,
      product_catalog_id: p.productCatalogId,
    })),
    clerkShifts: report.reportClerksShift.map((s, i) => ({
      ...key(i),
      clerk_id: s.id,
      name: s.name,
      clock_in_date: s.clockInDate,
      clock_out_date: s.clockOutDate,
    })),
    discounts: report.reportDiscounts.map((d, i) => ({
      ...key(i),
      discount_name: d.discountName,
      discount_value: d.discountValue,
      discount_catalog_id: d.discountCatalogId,
    })),
    taxes: report.reportTaxes.map((t, i) => ({
      ...key(i),
      tax_name: t.taxName,
      tax_rate: t.taxRate,
      tax_rate_bp: basisPointsFromHundredths(t.taxRate),
      tax_amount: t.taxAmount,
      taxable_amount: t.taxableAmount,
    })),
    payments: report.reportPayments.map((p, i) => ({
      ...key(i),
      payment_name: p.paymentName,
      payment_amount: p.paymentAmount,
    })),
    entries: report.reportEntries.map((e, i) => ({
      ...key(i),
      entry_name: e.entryName,
      entry_amount: e.entryAmount,
      entry_type: e.entryType,
    })),
    orders: report.orders.map((orderId, i) => ({ ...key(i), order_id: orderId })),
  };
}
