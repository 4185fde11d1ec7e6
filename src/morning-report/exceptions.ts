/**
 * The morning report's exceptions, decided from the rows read for a location's day: the orders the
 * loss-prevention views point at, each operator's discounts against their usual share, and the
 * reports that do not reconcile. Pure, so that when a discount is flagged is decided (and tested)
 * in one place, whichever database the rows came from; which reports reconcile is the view's
 * (v_report_reconciliation), and only what the report says of them is decided here.
 */
import type {
  DiscountRow,
  ExceptionRow,
  UnreconciledReportRow,
} from "../db/reads/morning-report.js";

export type ExceptionKind =
  | "cancelled after payment"
  | "item voided after close"
  | "discounts above usual"
  | "paid short"
  | "training order paid"
  | "changed after the report"
  | "report does not reconcile";

export interface ReportException {
  kind: ExceptionKind;
  /** The employee: who cancelled, voided, discounted, served. */
  employee: string | null;
  /** The order's number as the POS shows it, or the report's. */
  orderNumber: string | null;
  amount: number;
  /** HH:MM on the location's clock when the exception has a moment on the report's day;
   * `YYYY-MM-DD HH:MM` when on another (cancelled after midnight, changed days later). */
  time: string | null;
  /** What the kind adds, in words: the item voided, the reason, the usual share. */
  detail: string | null;
}

/** An order a loss-prevention view points at, as the report reads it (of one location). */
export type ExceptionOrder = Omit<ExceptionRow, "locationId">;

/** An operator's discounts and sales over some days. */
export type OperatorDiscounts = Omit<DiscountRow, "locationId">;

/** A report whose totals or orders do not agree with the stored orders. */
export type UnreconciledReport = Omit<UnreconciledReportRow, "locationId">;

/** What the report reads of a location's day, for its exceptions. */
export interface ExceptionRows {
  cancelledAfterPayment: readonly ExceptionOrder[];
  voidedAfterClose: readonly ExceptionOrder[];
  paymentsShort: readonly ExceptionOrder[];
  trainingWithPayments: readonly ExceptionOrder[];
  changedAfterReport: readonly ExceptionOrder[];
  /** Each operator's discounts on the day, and over the four weeks before. */
  discountsOfDay: readonly OperatorDiscounts[];
  discountsBefore: readonly OperatorDiscounts[];
  reports: readonly UnreconciledReport[];
}

/** Discounts are flagged when their share of the day is over twice the operator's usual share of
 * the four weeks before (and five points over it), or over 10 % for one without history. */
export const DISCOUNT_FACTOR = 2;
export const DISCOUNT_MARGIN = 0.05;
export const DISCOUNT_NEW_OPERATOR = 0.1;

/** The share of an operator's sales before discounts that they gave away; 0 without sales. */
export const discountShare = (row: OperatorDiscounts) =>
  row.sales + row.discounts > 0 ? row.discounts / (row.sales + row.discounts) : 0;
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const cents = (value: number) => Math.round(value * 100) / 100;

/** The orders of one kind, as the report lists them; `time` shows a stored instant on the
 * location's clock. */
function listed(
  kind: ExceptionKind,
  found: readonly ExceptionOrder[],
  time: (at: string | null) => string | null,
): ReportException[] {
  return found.map((row) => ({
    kind,
    employee: row.operatorName,
    orderNumber: row.orderNumber,
    amount: row.amount,
    time: time(row.at),
    detail:
      kind === "paid short" && row.paid !== null
        ? `total ${row.amount.toFixed(2)}, paid ${row.paid.toFixed(2)}`
        : kind === "changed after the report" && row.detail !== null
          ? `${row.detail} min after the report`
          : row.detail,
  }));
}

/** The operators whose discounts of the day are above their usual. */
export function discountsAboveUsual(
  ofDay: readonly OperatorDiscounts[],
  before: readonly OperatorDiscounts[],
): ReportException[] {
  const usualShare = new Map(before.map((row) => [row.operatorId, discountShare(row)]));
  return ofDay
    .filter((row) => {
      const usual = usualShare.get(row.operatorId);
      const now = discountShare(row);
      if (row.discounts <= 0) return false;
      return usual === undefined
        ? now > DISCOUNT_NEW_OPERATOR
        : now > usual * DISCOUNT_FACTOR && now > usual + DISCOUNT_MARGIN;
    })
    .map((row) => {
      const usual = usualShare.get(row.operatorId);
      return {
        kind: "discounts above usual" as const,
        employee: row.operatorName,
        orderNumber: null,
        amount: cents(row.discounts),
        time: null,
        detail: `${percent(discountShare(row))} of sales${usual === undefined ? ", no history" : `, usually ${percent(usual)}`}`,
      };
    });
}

/** The reports that do not reconcile, as the report lists them. */
export function unreconciled(reports: readonly UnreconciledReport[]): ReportException[] {
  return reports.map((report) => ({
    kind: "report does not reconcile" as const,
    employee: null,
    orderNumber: `report ${report.reportNumber}`,
    amount: report.difference,
    time: null,
    detail: report.ordersMissing > 0 ? `${report.ordersMissing} order(s) missing` : report.status,
  }));
}

/** A location's day's exceptions, in the order the report lists them. */
export function exceptionsOf(
  rows: ExceptionRows,
  time: (at: string | null) => string | null,
): ReportException[] {
  return [
    ...listed("cancelled after payment", rows.cancelledAfterPayment, time),
    ...listed("item voided after close", rows.voidedAfterClose, time),
    ...discountsAboveUsual(rows.discountsOfDay, rows.discountsBefore),
    ...listed("paid short", rows.paymentsShort, time),
    ...listed("training order paid", rows.trainingWithPayments, time),
    ...listed("changed after the report", rows.changedAfterReport, time),
    ...unreconciled(rows.reports),
  ];
}
