/**
 * The daily summary tables agree with the orders they sum after every kind of change: new
 * orders, an order changed, an order the API moved to another day, an order deleted upstream.
 * The expected figures are computed here from the order tables, independently of rollups.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../src/api/schemas.js";
import { addDays, toEpochDay } from "../src/clock/days.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import type { Db } from "../src/db/sqlite/open.js";
import { ORDERS } from "../src/streams/index.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { storeOrdersPage } from "./helpers/pages.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const sim = useSimulator({ locations: 1, days: 4 });
const tempPath = useTempDir();
let db: Db;
let store: SqliteDestination;
const location = () => sim.current.dataset.locations[0]!;
const dayBefore = addDays(TEST_TODAY, -1);

async function write(day: string, orders: readonly Order[]): Promise<void> {
  await storeOrdersPage(store, location().location.id, day, orders);
  await store.settleSummaries();
}

/** Each summary, and the same figures recomputed from the order tables. */
function disagreements(of: Db = db): string[] {
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
    rows(of, sql)
      .map((row) => JSON.stringify(Object.values(row)))
      .sort();
  return pairs.flatMap(([name, summary, recomputed]) => {
    const a = sorted(summary);
    const b = sorted(recomputed);
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${name} disagrees with the orders`];
  });
}

beforeAll(async () => {
  db = openTestDb(tempPath());
  store = new SqliteDestination(db);
  for (const day of [dayBefore, TEST_TODAY])
    await write(day, sim.current.dataset.ordersCreatedOn(location(), toEpochDay(day)));
});
afterAll(() => store.close());

describe("the daily summary tables", () => {
  it("sum a day once, when it is settled, however many pages it took", async () => {
    const orders = sim.current.dataset.ordersCreatedOn(location(), toEpochDay(TEST_TODAY));
    const later = orders.slice(0, 4).map((order) => ({
      ...structuredClone(order),
      total: order.total + 1,
      updatedAt: new Date(Date.parse(order.updatedAt) + 60_000)
        .toISOString()
        .replace("Z", "+00:00"),
    }));
    for (const order of later) {
      await storeOrdersPage(store, location().location.id, TEST_TODAY, [order]);
    }
    // Four pages, one mark: the day is summed once.
    expect(rows(db, "SELECT kind, key FROM summary_pending")).toEqual([
      { kind: "day", key: TEST_TODAY },
    ]);
    expect(disagreements()).toEqual(["daily_sales disagrees with the orders"]);
    expect(await store.settleSummaries()).toBeGreaterThanOrEqual(1);
    expect(rows(db, "SELECT * FROM summary_pending")).toEqual([]);
    expect(disagreements()).toEqual([]);
  });

  it("sum the orders of each day as they are stored", () => {
    expect(rows(db, "SELECT COUNT(*) AS n FROM daily_sales")[0].n).toBe(2);
    expect(disagreements()).toEqual([]);
  });

  it("follow an order that changes, and one the API moves to another day", async () => {
    const [first, second] = sim.current.dataset.ordersCreatedOn(location(), toEpochDay(TEST_TODAY));
    const later = (order: Order) =>
      new Date(Date.parse(order.updatedAt) + 3_600_000).toISOString().replace("Z", "+00:00");
    const changed = { ...structuredClone(first!), total: 999.99, updatedAt: later(first!) };
    changed.items = changed.items.slice(0, 1);
    await write(TEST_TODAY, [changed]);
    expect(disagreements()).toEqual([]);
    // Listed under the day before now: both days' summaries change.
    const moved = { ...structuredClone(second!), updatedAt: later(second!) };
    await write(dayBefore, [moved]);
    expect(
      rows(db, "SELECT business_date FROM orders WHERE id = ?", moved.id)[0].business_date,
    ).toBe(dayBefore);
    expect(disagreements()).toEqual([]);
  });

  it("leave out an order deleted upstream", async () => {
    const [gone] = rows(
      db,
      "SELECT id FROM orders WHERE is_canceled = 0 AND is_training = 0 LIMIT 1",
    );
    const before = rows(db, "SELECT SUM(orders) AS n FROM daily_sales")[0].n;
    await store.markDeleted(ORDERS, [gone.id], new Date().toISOString());
    await store.settleSummaries();
    expect(disagreements()).toEqual([]);
    expect(rows(db, "SELECT SUM(orders) AS n FROM daily_sales")[0].n).toBeLessThanOrEqual(before);
  });

  it("are summed by a sync at the end of each day window, with nothing left marked", async () => {
    const synced = openTestDb(tempPath());
    const { result } = await syncOnce(sim.current, synced);
    expect(result.status).toBe("succeeded");
    expect(rows(synced, "SELECT COUNT(*) AS n FROM daily_sales")[0].n).toBeGreaterThan(2);
    expect(rows(synced, "SELECT COUNT(*) AS n FROM report_order_sums")[0].n).toBeGreaterThan(2);
    expect(rows(synced, "SELECT * FROM summary_pending")).toEqual([]);
    expect(disagreements(synced)).toEqual([]);
    synced.close();
  });
});
