/** The morning report's exceptions from the rows read (src/morning-report/exceptions.ts): when an
 * operator's discounts are above their usual, what a report that does not reconcile says, and how
 * each order a loss-prevention view points at is listed. */
import { describe, expect, it } from "vitest";
import {
  discountsAboveUsual,
  type ExceptionOrder,
  type ExceptionRows,
  exceptionsOf,
  type OperatorDiscounts,
  type ReportException,
  type UnreconciledReport,
  unreconciled,
} from "../src/morning-report/exceptions.js";

/** An operator's discounts and sales (before: over the four weeks before; else the day's). */
const ops = (discounts: number, sales: number, operatorId = "op-1"): OperatorDiscounts => ({
  operatorId,
  operatorName: `Operator ${operatorId}`,
  discounts,
  sales,
});

describe("discounts above usual", () => {
  it.each<
    [name: string, day: OperatorDiscounts, before: OperatorDiscounts[], detail: string | null]
  >([
    ["not for an operator without discounts", ops(0, 500), [], null],
    ["not for a day without sales or discounts", ops(0, 0), [ops(10, 90)], null],
    [
      "for a day of discounts without sales, from an operator without history",
      ops(5, 0),
      [],
      "100.0 % of sales, no history",
    ],
    ["not for an operator without history at exactly 10 %", ops(10, 90), [], null],
    ["for an operator without history over 10 %", ops(11, 89), [], "11.0 % of sales, no history"],
    [
      "not for an operator with history whose share is twice the usual but not five points over",
      ops(5, 95),
      [ops(2, 98)],
      null,
    ],
    [
      "not for an operator with history whose share is five points over but not twice the usual",
      ops(16, 84),
      [ops(10, 90)],
      null,
    ],
    [
      "not for an operator at exactly twice the usual, however many points over",
      ops(20, 80),
      [ops(10, 90)],
      null,
    ],
    [
      "for an operator over twice the usual and five points over it",
      ops(21, 79),
      [ops(10, 90)],
      "21.0 % of sales, usually 10.0 %",
    ],
    [
      "not for an operator usually without discounts at exactly five points",
      ops(5, 95),
      [ops(0, 900)],
      null,
    ],
    [
      "for an operator usually without discounts over five points, under the 10 % of a new one",
      ops(6, 94),
      [ops(0, 900)],
      "6.0 % of sales, usually 0.0 %",
    ],
    [
      "for an operator whose weeks before had neither sales nor discounts: a usual of none, not no history",
      ops(8, 92),
      [ops(0, 0)],
      "8.0 % of sales, usually 0.0 %",
    ],
    ["by the operator's own history, not another's", ops(8, 92), [ops(0, 900, "op-2")], null],
  ])("%s", (_name, day, before, detail) => {
    const flagged = discountsAboveUsual([day], before);
    expect(flagged.map((e) => e.detail)).toEqual(detail === null ? [] : [detail]);
  });

  it("says who and how much, to the cent, in the day's order of operators", () => {
    expect(
      discountsAboveUsual([ops(12.3456, 20, "op-1"), ops(1, 99, "op-2"), ops(30, 70, "op-3")], []),
    ).toEqual([
      {
        kind: "discounts above usual",
        employee: "Operator op-1",
        orderNumber: null,
        amount: 12.35,
        time: null,
        detail: "38.2 % of sales, no history",
      },
      {
        kind: "discounts above usual",
        employee: "Operator op-3",
        orderNumber: null,
        amount: 30,
        time: null,
        detail: "30.0 % of sales, no history",
      },
    ]);
  });
});

describe("reports that do not reconcile", () => {
  const report = (fields: Partial<UnreconciledReport>): UnreconciledReport => ({
    reportNumber: 17,
    difference: -12.5,
    ordersMissing: 0,
    status: "totals differ",
    ...fields,
  });

  it.each<[name: string, report: UnreconciledReport, detail: string]>([
    [
      "says how many orders are missing",
      report({ ordersMissing: 2, status: "orders missing" }),
      "2 order(s) missing",
    ],
    ["says the totals differ when no order is missing", report({}), "totals differ"],
  ])("%s", (_name, row, detail) => {
    expect(unreconciled([row])).toEqual([
      {
        kind: "report does not reconcile",
        employee: null,
        orderNumber: "report 17",
        amount: -12.5,
        time: null,
        detail,
      },
    ]);
  });
});

describe("a location's day's exceptions", () => {
  const order = (fields: Partial<ExceptionOrder>): ExceptionOrder => ({
    orderNumber: "A-1",
    operatorName: "Ana",
    amount: 20,
    at: "2026-11-28T20:15:00.000Z",
    detail: null,
    paid: null,
    ...fields,
  });
  const none: ExceptionRows = {
    cancelledAfterPayment: [],
    voidedAfterClose: [],
    paymentsShort: [],
    trainingWithPayments: [],
    changedAfterReport: [],
    discountsOfDay: [],
    discountsBefore: [],
    reports: [],
  };
  /** The time as the report shows it: here the stored instant, marked. */
  const time = (at: string | null) => (at === null ? null : `at ${at}`);

  it.each<[name: string, rows: Partial<ExceptionRows>, listed: Partial<ReportException>]>([
    [
      "a cancellation after payment, with its reason",
      { cancelledAfterPayment: [order({ detail: "customer left" })] },
      { kind: "cancelled after payment", detail: "customer left" },
    ],
    [
      "an item voided after close, with the item",
      { voidedAfterClose: [order({ detail: "Espresso" })] },
      { kind: "item voided after close", detail: "Espresso" },
    ],
    [
      "an order paid short, with its total and what was paid",
      { paymentsShort: [order({ amount: 20, paid: 15.5 })] },
      { kind: "paid short", detail: "total 20.00, paid 15.50" },
    ],
    [
      "an order paid short whose payment is not known, without a detail",
      { paymentsShort: [order({ paid: null })] },
      { kind: "paid short", detail: null },
    ],
    [
      "a training order paid",
      { trainingWithPayments: [order({ at: null })] },
      { kind: "training order paid", time: null, detail: null },
    ],
    [
      "an order changed after the report, with the minutes after it",
      { changedAfterReport: [order({ detail: "42" })] },
      { kind: "changed after the report", detail: "42 min after the report" },
    ],
    [
      "an order changed after the report, the minutes not known",
      { changedAfterReport: [order({ detail: null })] },
      { kind: "changed after the report", detail: null },
    ],
  ])("lists %s", (_name, rows, listed) => {
    expect(exceptionsOf({ ...none, ...rows }, time)).toEqual([
      {
        employee: "Ana",
        orderNumber: "A-1",
        amount: 20,
        time: "at 2026-11-28T20:15:00.000Z",
        ...listed,
      },
    ]);
  });

  it("lists nothing on a day without exceptions", () => {
    expect(exceptionsOf(none, time)).toEqual([]);
  });

  it("lists the kinds in the report's order", () => {
    const one = [order({})];
    const listed = exceptionsOf(
      {
        cancelledAfterPayment: one,
        voidedAfterClose: one,
        paymentsShort: one,
        trainingWithPayments: one,
        changedAfterReport: one,
        discountsOfDay: [ops(50, 50)],
        discountsBefore: [],
        reports: [{ reportNumber: 3, difference: 1, ordersMissing: 1, status: "orders missing" }],
      },
      time,
    );
    expect(listed.map((e) => e.kind)).toEqual([
      "cancelled after payment",
      "item voided after close",
      "discounts above usual",
      "paid short",
      "training order paid",
      "changed after the report",
      "report does not reconcile",
    ]);
  });
});
