/** The BI views agree with sums computed here, independently, from the API's records. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../src/api/schemas.js";
import { addDays, eachDay, toEpochDay } from "../src/dates.js";
import type { Db } from "../src/db/open.js";
import { Store } from "../src/db/store.js";
import { testClient } from "./helpers/client.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { loadLocation } from "./helpers/load.js";
import { SMALL_DATASET, TEST_TODAY, useSimulator } from "./helpers/simulator.js";

const sim = useSimulator();
const tempPath = useTempDir();
// The simulator's whole history, so that every report's orders are stored.
const days = { since: addDays(TEST_TODAY, -(SMALL_DATASET.days - 1)), until: TEST_TODAY };
let db: Db;

beforeAll(async () => {
  db = openTestDb(tempPath());
  const store = new Store(db);
  for (const [index, key] of sim.current.keys.entries()) {
    await loadLocation(testClient(sim.current, { keyIndex: index }).client, store, key, days);
  }
});

afterAll(() => db.close());

const isSale = (o: Order) => !o.isCanceled && o.isTraining !== true && !o.isTransferred;
const cents = (n: number) => Math.round(n * 100);

/** Every order of the dataset in the synced range, with the day the API lists it under. */
function apiOrders(): { locationId: string; day: string; order: Order }[] {
  const all: { locationId: string; day: string; order: Order }[] = [];
  for (const location of sim.current.dataset.locations) {
    for (const day of eachDay(days.since, days.until)) {
      for (const order of sim.current.dataset.ordersCreatedOn(location, toEpochDay(day))) {
        all.push({ locationId: location.location.id, day, order });
      }
    }
  }
  return all;
}

function groupSum<T>(
  items: T[],
  key: (item: T) => string,
  value: (item: T) => number,
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const item of items) sums.set(key(item), (sums.get(key(item)) ?? 0) + value(item));
  return sums;
}

describe("v_daily_sales", () => {
  it("sums sales, tax and discounts of sales orders per location and day, and counts the rest apart", () => {
    const orders = apiOrders();
    const byDay = (o: (typeof orders)[number]) => `${o.locationId}|${o.day}`;
    const sales = orders.filter((o) => isSale(o.order));
    const expectedSales = groupSum(sales, byDay, (o) => cents(o.order.total));
    const expectedTax = groupSum(sales, byDay, (o) => cents(o.order.totalTax));
    const expectedOrders = groupSum(sales, byDay, () => 1);
    const expectedCancelled = groupSum(
      orders.filter((o) => o.order.isCanceled),
      byDay,
      () => 1,
    );
    const viewRows = rows(db, "SELECT * FROM v_daily_sales");
    expect(viewRows).toHaveLength(new Set(orders.map(byDay)).size);
    for (const row of viewRows) {
      const key = `${row.location_id}|${row.business_date}`;
      expect(cents(row.total_sales), key).toBe(expectedSales.get(key) ?? 0);
      expect(cents(row.total_tax), key).toBe(expectedTax.get(key) ?? 0);
      expect(cents(row.net_sales), key).toBe(
        (expectedSales.get(key) ?? 0) - (expectedTax.get(key) ?? 0),
      );
      expect(row.orders, key).toBe(expectedOrders.get(key) ?? 0);
      expect(row.cancelled_orders, key).toBe(expectedCancelled.get(key) ?? 0);
    }
    expect(viewRows.some((r) => r.transferred_orders > 0)).toBe(true);
    expect(viewRows.some((r) => r.training_orders > 0)).toBe(true);
  });
});

describe("v_product_sales", () => {
  it("leaves out cancelled items and orders that are not sales", () => {
    const items = apiOrders()
      .filter((o) => isSale(o.order))
      .flatMap((o) => o.order.items.filter((i) => !i.isCanceled).map((item) => ({ ...o, item })));
    const key = (i: (typeof items)[number]) => `${i.locationId}|${i.day}|${i.item.itemCatalogId}`;
    const expectedSales = groupSum(items, key, (i) => cents(i.item.total));
    const expectedQuantity = groupSum(items, key, (i) => i.item.quantity);
    const viewRows = rows(db, "SELECT * FROM v_product_sales");
    expect(viewRows).toHaveLength(expectedSales.size);
    for (const row of viewRows) {
      const k = `${row.location_id}|${row.business_date}|${row.product_id}`;
      expect(cents(row.sales), k).toBe(expectedSales.get(k));
      expect(row.quantity, k).toBeCloseTo(expectedQuantity.get(k) ?? -1, 9);
    }
  });
});

describe("v_payment_mix", () => {
  it("splits each day's payments of sales orders by method, with shares that add up to one", () => {
    const payments = apiOrders()
      .filter((o) => isSale(o.order))
      .flatMap((o) => o.order.payments.map((payment) => ({ ...o, payment })));
    const key = (p: (typeof payments)[number]) =>
      `${p.locationId}|${p.day}|${p.payment.paymentName}`;
    const expected = groupSum(payments, key, (p) => cents(p.payment.paymentAmount));
    const viewRows = rows(db, "SELECT * FROM v_payment_mix");
    expect(viewRows).toHaveLength(expected.size);
    for (const row of viewRows)
      expect(cents(row.amount)).toBe(
        expected.get(`${row.location_id}|${row.business_date}|${row.payment_name}`),
      );
    const shares = groupSum(
      viewRows,
      (r) => `${r.location_id}|${r.business_date}`,
      (r) => r.share,
    );
    for (const total of shares.values()) expect(total).toBeCloseTo(1, 3);
  });
});

describe("v_tax_summary", () => {
  it("groups item taxes by rate in basis points", () => {
    const items = apiOrders()
      .filter((o) => isSale(o.order))
      .flatMap((o) => o.order.items.filter((i) => !i.isCanceled).map((item) => ({ ...o, item })));
    const key = (i: (typeof items)[number]) =>
      `${i.locationId}|${i.day}|${Math.round(i.item.tax.taxRate * 10_000)}`;
    const expectedTax = groupSum(items, key, (i) => cents(i.item.tax.taxAmount));
    const expectedGross = groupSum(items, key, (i) => cents(i.item.total));
    const viewRows = rows(db, "SELECT * FROM v_tax_summary");
    expect(viewRows).toHaveLength(expectedTax.size);
    for (const row of viewRows) {
      const k = `${row.location_id}|${row.business_date}|${row.tax_rate_bp}`;
      expect(cents(row.tax_amount), k).toBe(expectedTax.get(k));
      expect(cents(row.gross_sales), k).toBe(expectedGross.get(k));
      expect(cents(row.taxable_amount), k).toBe(
        (expectedGross.get(k) ?? 0) - (expectedTax.get(k) ?? 0),
      );
    }
    expect(new Set(viewRows.map((r) => r.tax_rate_bp))).toEqual(new Set([550, 1000, 2000]));
  });
});

describe("v_hourly_sales", () => {
  it("buckets sales by the local hour of createdAt", () => {
    const sales = apiOrders().filter((o) => isSale(o.order));
    const key = (o: (typeof sales)[number]) =>
      `${o.locationId}|${o.day}|${Number(o.order.createdAt.slice(11, 13))}`;
    const expected = groupSum(sales, key, (o) => cents(o.order.total));
    const viewRows = rows(db, "SELECT * FROM v_hourly_sales");
    expect(viewRows).toHaveLength(expected.size);
    for (const row of viewRows)
      expect(cents(row.total_sales)).toBe(
        expected.get(`${row.location_id}|${row.business_date}|${row.hour}`),
      );
    expect(viewRows.some((r) => r.hour === 0)).toBe(true);
  });
});

describe("v_report_reconciliation", () => {
  it("shows zero difference for every report of the simulator's data", () => {
    const viewRows = rows(db, "SELECT * FROM v_report_reconciliation");
    expect(viewRows).toHaveLength(2 * (SMALL_DATASET.days - 1));
    for (const row of viewRows) {
      expect(row, row.report_id).toMatchObject({ difference: 0, status: "ok", orders_missing: 0 });
      expect(row.orders_stored).toBe(row.orders_listed);
      expect(row.api_total_sales).toBe(row.stored_total_sales);
    }
  });

  it("counts the orders a report lists that are not stored", () => {
    const [row] = rows(db, "SELECT report_id, orders_listed FROM v_report_reconciliation LIMIT 1");
    const [order] = rows(
      db,
      "SELECT order_id FROM report_orders WHERE report_id = ? LIMIT 1",
      row.report_id,
    );
    db.sqlite.prepare("DELETE FROM orders WHERE id = ?").run(order.order_id);
    const [after] = rows(
      db,
      "SELECT * FROM v_report_reconciliation WHERE report_id = ?",
      row.report_id,
    );
    expect(after).toMatchObject({
      orders_missing: 1,
      status: "orders missing",
      orders_stored: row.orders_listed - 1,
    });
  });

  it("shows the difference when a stored order is missing or changed", () => {
    const [row] = rows(db, "SELECT * FROM v_report_reconciliation WHERE status = 'ok' LIMIT 1");
    const [order] = rows(
      db,
      "SELECT id, total FROM orders WHERE report_id = ? AND is_canceled = 0 AND is_training = 0 AND is_transferred = 0 LIMIT 1",
      row.report_id,
    );
    db.sqlite.prepare("UPDATE orders SET total = total + 5 WHERE id = ?").run(order.id);
    try {
      const [changed] = rows(
        db,
        "SELECT * FROM v_report_reconciliation WHERE report_id = ?",
        row.report_id,
      );
      expect(changed).toMatchObject({ difference: -5, status: "totals differ" });
    } finally {
      db.sqlite.prepare("UPDATE orders SET total = ? WHERE id = ?").run(order.total, order.id);
    }
  });
});
