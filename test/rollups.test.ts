/**
 * The daily summary tables agree with the orders they sum after every kind of change: new
 * orders, an order changed, an order the API moved to another day, an order deleted upstream.
 * The expected figures are computed here from the order tables, independently of rollups.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../src/api/schemas.js";
import { addDays, toEpochDay } from "../src/dates.js";
import type { Db } from "../src/db/open.js";
import { Store } from "../src/db/store.js";
import { ORDERS } from "../src/streams/index.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";

const sim = useSimulator({ locations: 1, days: 4 });
const tempPath = useTempDir();
let db: Db;
let store: Store;
const location = () => sim.current.dataset.locations[0]!;
const dayBefore = addDays(TEST_TODAY, -1);

function write(day: string, orders: readonly Order[]): void {
  store.writePage(ORDERS, {
    locationId: location().location.id,
    day,
    records: orders.map((order) => ({ record: order, raw: JSON.stringify(order) })),
    rejects: [],
    runId: null,
    syncedAt: new Date().toISOString(),
  });
}

/** Each summary, and the same figures recomputed from the order tables. */
function disagreements(): string[] {
  const sale = "o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0";
  const pairs: [string, string, string][] = [
    [
      "daily_sales",
      "SELECT location_id, business_date, orders, total_sales, cancelled_orders FROM daily_sales",
      `SELECT location_id, business_date, COUNT(*) FILTER (WHERE ${sale}),
         ROUND(TOTAL(total) FILTER (WHERE ${sale}), 2), COUNT(*) FILTER (WHERE is_canceled = 1)
       FROM orders o WHERE deleted_at IS NULL GROUP BY 1, 2`,
    ],
    [
      "daily_product_sales",
      "SELECT location_id, business_date, product_id, quantity, sales FROM daily_product_sales",
      `SELECT o.location_id, o.business_date, i.item_catalog_id, TOTAL(i.quantity), ROUND(TOTAL(i.total), 2)
       FROM order_items i JOIN orders o ON o.id = i.order_id
       WHERE o.deleted_at IS NULL AND ${sale} AND i.is_canceled = 0 GROUP BY 1, 2, 3`,
    ],
    [
      "daily_payment_sales",
      "SELECT location_id, business_date, payment_name, payments, amount FROM daily_payment_sales",
      `SELECT o.location_id, o.business_date, p.payment_name, COUNT(*), ROUND(TOTAL(p.payment_amount), 2)
       FROM order_payments p JOIN orders o ON o.id = p.order_id
       WHERE o.deleted_at IS NULL AND ${sale} GROUP BY 1, 2, 3`,
    ],
  ];
  const sorted = (sql: string) =>
    rows(db, sql)
      .map((row) => JSON.stringify(Object.values(row)))
      .sort();
  return pairs.flatMap(([name, summary, recomputed]) => {
    const a = sorted(summary);
    const b = sorted(recomputed);
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${name} disagrees with the orders`];
  });
}

beforeAll(() => {
  db = openTestDb(tempPath());
  store = new Store(db);
  for (const day of [dayBefore, TEST_TODAY])
    write(day, sim.current.dataset.ordersCreatedOn(location(), toEpochDay(day)));
});
afterAll(() => db.close());

describe("the daily summary tables", () => {
  it("sum the orders of each day as they are stored", () => {
    expect(rows(db, "SELECT COUNT(*) AS n FROM daily_sales")[0].n).toBe(2);
    expect(disagreements()).toEqual([]);
  });

  it("follow an order that changes, and one the API moves to another day", () => {
    const [first, second] = sim.current.dataset.ordersCreatedOn(location(), toEpochDay(TEST_TODAY));
    const later = (order: Order) =>
      new Date(Date.parse(order.updatedAt) + 3_600_000).toISOString().replace("Z", "+00:00");
    const changed = { ...structuredClone(first!), total: 999.99, updatedAt: later(first!) };
    changed.items = changed.items.slice(0, 1);
    write(TEST_TODAY, [changed]);
    expect(disagreements()).toEqual([]);
    // Listed under the day before now: both days' summaries change.
    const moved = { ...structuredClone(second!), updatedAt: later(second!) };
    write(dayBefore, [moved]);
    expect(
      rows(db, "SELECT business_date FROM orders WHERE id = ?", moved.id)[0].business_date,
    ).toBe(dayBefore);
    expect(disagreements()).toEqual([]);
  });

  it("leave out an order deleted upstream", () => {
    const [gone] = rows(
      db,
      "SELECT id FROM orders WHERE is_canceled = 0 AND is_training = 0 LIMIT 1",
    );
    const before = rows(db, "SELECT SUM(orders) AS n FROM daily_sales")[0].n;
    store.markDeleted(ORDERS, [gone.id], new Date().toISOString());
    expect(disagreements()).toEqual([]);
    expect(rows(db, "SELECT SUM(orders) AS n FROM daily_sales")[0].n).toBeLessThanOrEqual(before);
  });
});
