/** End-of-session reports: read day by day; each report fills `reports` and one table per
 * array (products, clerk shifts, discounts, taxes, payments, entries, orders). */
import { SHOWN_PATHS } from "../api/paths.js";
import { type Report, reportSchema } from "../api/schemas.js";
import { normalizeReport } from "../db/normalize/report.js";
import {
  reportClerkShiftRows,
  reportDiscountRows,
  reportEntryRows,
  reportOrderRows,
  reportPaymentRows,
  reportProductRows,
  reportRows,
  reportTaxRows,
} from "../db/schema/index.js";
import type { DayStreamDescription } from "./description.js";

export const REPORTS: DayStreamDescription<Report> = {
  name: "reports",
  listing: { operation: "listReports", path: SHOWN_PATHS.reports },
  schema: reportSchema,
  summarized: "reports",
  table: reportRows,
  childTables: [
    reportProductRows,
    reportClerkShiftRows,
    reportDiscountRows,
    reportTaxRows,
    reportPaymentRows,
    reportEntryRows,
    reportOrderRows,
  ],
  toRows(report, raw, context, hash) {
    const rows = normalizeReport(report, raw, context, hash);
    return {
      parent: rows.report,
      children: [
        rows.products,
        rows.clerkShifts,
        rows.discounts,
        rows.taxes,
        rows.payments,
        rows.entries,
        rows.orders,
      ],
    };
  },
};
