/** The BI views agree with sums computed here, independently, from the API's records. */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../src/api/schemas.js";
import { addDays, eachDay, toEpochDay } from "../src/clock/days.js";
import { MS_PER_MINUTE } from "../src/clock/units.js";
import { BI_VIEWS } from "../src/db/sql/bi-views.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import type { Db } from "../src/db/sqlite/open.js";
import { ORDERS } from "../src/streams/index.js";
import { testClient } from "./helpers/client.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { loadLocation } from "./helpers/load.js";
import { storeDayPage } from "./helpers/pages.js";
import { SMALL_DATASET, TEST_TODAY, useSimulator } from "./helpers/simulator.js";

const sim = useSimulator();
const tempPath = useTempDir();
// The simulator's whole history, so that every report's orders are stored.
const days = { since: addDays(TEST_TODAY, -(SMALL_DATASET.days - 1)), until: TEST_TODAY };
let db: Db;
let store: SqliteDestination;

beforeAll(async () => {
  db = openTestDb(tempPath());
  store = new SqliteDestination(db);
  const loadAll = async () => {
    for (const [index, key] of sim.current.keys.entries()) {
      await loadLocation(testClient(sim.current, { keyIndex: index }).client, store, key, days);
    }
  };
  await loadAll();
  // Orders changed after the fact, so that the views over order history have rows too.
  sim.current.dataset.applyLateUpdates(16, 3);
  await loadAll();
});

afterAll(() => store.close());

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
  it("splits each day's payments of sales orders by method, with shares that add up to 100 %", () => {
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
      (r) => r.share_percent,
    );
    for (const total of shares.values()) expect(total).toBeCloseTo(100, 0);
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
  it("buckets sales by the local hour the order was closed, with the average ticket", () => {
    const sales = apiOrders().filter((o) => isSale(o.order));
    const key = (o: (typeof sales)[number]) =>
      `${o.locationId}|${o.day}|${Number(o.order.closedAt.slice(11, 13))}`;
    const expected = groupSum(sales, key, (o) => cents(o.order.total));
    const counts = groupSum(sales, key, () => 1);
    const viewRows = rows(db, "SELECT * FROM v_hourly_sales");
    expect(viewRows).toHaveLength(expected.size);
    for (const row of viewRows) {
      const k = `${row.location_id}|${row.business_date}|${row.hour}`;
      expect(cents(row.total_sales)).toBe(expected.get(k));
      expect(row.orders).toBe(counts.get(k));
      const average = (expected.get(k) ?? 0) / 100 / row.orders;
      expect(Math.abs(row.average_order - average)).toBeLessThanOrEqual(0.005 + 1e-9);
    }
    expect(viewRows.some((r) => r.hour === 0)).toBe(true);
  });
});

describe("v_orders", () => {
  it("lists the orders that stand with their location, weekday and closing hour as columns", () => {
    const api = apiOrders();
    const viewRows = rows(db, "SELECT * FROM v_orders");
    expect(viewRows).toHaveLength(api.length);
    const byId = new Map(viewRows.map((r) => [r.order_id, r]));
    const names = new Map(
      sim.current.dataset.locations.map((l) => [l.location.id, l.location.name]),
    );
    for (const { order, day, locationId } of api) {
      const row = byId.get(order.id);
      // 2026-03-15 was a Sunday: ISO weekday 7.
      const weekday = ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
      expect(row).toMatchObject({
        location_name: names.get(locationId),
        business_date: day,
        weekday,
        closed_hour: Number(order.closedAt.slice(11, 13)),
        is_sale: isSale(order) ? 1 : 0,
      });
    }
    expect(byId.size).toBe(api.length);
  });

  it("gives whole counts as integers and every sum rounded to the cent", () => {
    const typeOf = (sql: string) => rows(db, sql).map((r) => r.t);
    expect(new Set(typeOf("SELECT typeof(guests) AS t FROM v_daily_sales"))).toEqual(
      new Set(["integer"]),
    );
    expect(new Set(typeOf("SELECT typeof(quantity) AS t FROM v_product_sales"))).toEqual(
      new Set(["integer"]),
    );
    for (const [view, column] of [
      ["v_daily_sales", "total_sales"],
      ["v_product_sales", "sales"],
      ["v_payment_mix", "amount"],
      ["v_hourly_sales", "average_order"],
      ["v_operator_sales", "cancelled_items_total"],
    ] as const) {
      for (const row of rows(db, `SELECT ${column} AS v FROM ${view}`))
        expect(Math.abs(row.v * 100 - Math.round(row.v * 100)), view).toBeLessThan(1e-6);
    }
  });

  it("keeps each value's kind whatever its type says: days as YYYY-MM-DD, money as reals, flags as 0/1, date-times in SQLite's own text on the wall clock and in UTC", () => {
    for (const view of BI_VIEWS) {
      const all = rows(db, `SELECT * FROM ${view.name}`);
      for (const { name, type } of view.columns) {
        const values = all.map((row) => row[name]).filter((value) => value !== null);
        const where = `${view.name}.${name}`;
        if (type === "date") for (const v of values) expect(v, where).toMatch(/^\d{4}-\d\d-\d\d$/);
        if (type === "boolean") for (const v of values) expect([0, 1], where).toContain(v);
        if (type === "local") {
          for (const row of all.filter((r) => r[`${name}_sent`] !== null)) {
            const sent: string = row[`${name}_sent`];
            for (const form of [name, `${name}_utc`])
              expect(row[form], `${where} ${form}`).toMatch(SQLITE_DATE_TIME);
            const utc = Date.parse(`${row[`${name}_utc`].replace(" ", "T")}Z`);
            expect(utc, where).toBe(Date.parse(sent));
            const ahead = Date.parse(`${row[name].replace(" ", "T")}Z`) - utc;
            expect(ahead % (15 * MS_PER_MINUTE), where).toBe(0);
            expect(Math.abs(ahead), where).toBeLessThanOrEqual(14 * 60 * MS_PER_MINUTE);
            // The simulator's API writes each location's offset: the wall clock is the text's.
            // (pos-sync's own times, seen_at, are UTC: shown on the clock the API last wrote.)
            if (!sent.endsWith("Z"))
              expect(row[name], where).toBe(sent.slice(0, 23).replace("T", " "));
          }
        }
      }
    }
    // A tip's amount is a real in every row, so that a tool typing it from the first rows keeps 4.5.
    const kinds = rows(db, "SELECT DISTINCT typeof(amount) AS t FROM v_order_tips").map((r) => r.t);
    expect(kinds).toEqual(["real"]);
  });

  it("reads in Python's sqlite3 with its converters on: every DATE as a date, every TIMESTAMP as a datetime", () => {
    const read = pythonReadsViews(
      db.sqlite.name,
      BI_VIEWS.map((view) => view.name),
    );
    for (const view of BI_VIEWS) {
      const seen = read[view.name];
      expect(seen?.error, view.name).toBeUndefined();
      for (const { name, type } of view.columns) {
        const kinds = new Set(seen?.kinds[name] ?? []);
        kinds.delete("NoneType");
        const where = `${view.name}.${name}`;
        if (seen?.rows === 0) continue;
        if (type === "date") expect([...kinds], where).toEqual(["date"]);
        if (type === "local" || type === "utc") expect([...kinds], where).toEqual(["datetime"]);
      }
    }
    // Rows enough to tell: every order, and most views (those over order history have rows
    // only when the dataset's late changes touched the days synced).
    expect(read.v_orders?.rows).toBeGreaterThan(0);
    expect(BI_VIEWS.filter((view) => (read[view.name]?.rows ?? 0) > 0).length).toBeGreaterThan(12);
  });

  it("names the location in every view for BI of a location's figures", () => {
    const views = rows(
      db,
      "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE 'v\\_%' ESCAPE '\\' AND name NOT LIKE 'v\\_chain\\_%' ESCAPE '\\'",
    ).map((r) => r.name);
    expect(views.length).toBeGreaterThanOrEqual(9);
    const names = new Set(sim.current.dataset.locations.map((l) => l.location.name));
    for (const view of views) {
      const values = rows(db, `SELECT DISTINCT location_name AS n FROM ${view}`).map((r) => r.n);
      expect(values.length, view).toBeGreaterThan(0);
      for (const name of values) expect(names.has(name), `${view}: ${name}`).toBe(true);
    }
  });
});

/** What Python's sqlite3 reads of each view with PARSE_DECLTYPES (its stock DATE and TIMESTAMP
 * converters): the rows, and the Python type of each column's values; or the error it raised. */
function pythonReadsViews(
  path: string,
  views: readonly string[],
): Record<string, { rows: number; kinds: Record<string, string[]>; error?: string }> {
  const script = `
import json, sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True, detect_types=sqlite3.PARSE_DECLTYPES)
out = {}
for view in json.loads(sys.argv[2]):
    try:
        cursor = db.execute("SELECT * FROM " + view)
        names = [c[0] for c in cursor.description]
        kinds = {n: set() for n in names}
        count = 0
        for row in cursor:
            count += 1
            for n, v in zip(names, row):
                kinds[n].add(type(v).__name__)
        out[view] = {"rows": count, "kinds": {n: sorted(k) for n, k in kinds.items()}}
    except Exception as e:
        out[view] = {"rows": 0, "kinds": {}, "error": repr(e)}
print(json.dumps(out))
`;
  const result = spawnSync("python3", ["-W", "ignore", "-c", script, path, JSON.stringify(views)], {
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr || result.error}`);
  return JSON.parse(result.stdout);
}

/** SQLite's own text of a date-time, to the millisecond: what drivers parse as a TIMESTAMP. */
const SQLITE_DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/;

describe("the chain views", () => {
  const byDay = (sql: string) =>
    new Map(rows(db, sql).map((row) => [row.day as string, cents(row.total as number)]));

  it("v_chain_product_sales counts a product once for the chain, by sku or else name and category, adding up to every location's", () => {
    const chain = rows(db, "SELECT * FROM v_chain_product_sales");
    const keys = chain.map((row) => `${row.business_date} ${row.product_key}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const row of chain) {
      // SQLite's LENGTH counts characters, not UTF-16 units.
      const name = `${[...row.product_name].length}:${row.product_name} / ${row.category}`;
      expect(row.product_key).toBe(row.sku === null ? `name ${name}` : `sku ${row.sku}`);
    }
    // The simulator's locations are one chain, as a real chain's catalog is: a dish has the same
    // sku at each (or none at any), so a product sold at several is one row of its day, matched
    // by its sku or, without one, by name and category.
    const products = chain.map(
      (row) => `${row.business_date} ${row.product_name} / ${row.category}`,
    );
    expect(new Set(products).size).toBe(chain.length);
    expect(chain.some((row) => row.locations > 1 && row.sku === null)).toBe(true);
    expect(chain.some((row) => row.locations > 1 && row.sku !== null)).toBe(true);
    expect(
      byDay(
        "SELECT business_date AS day, SUM(sales) AS total FROM v_chain_product_sales GROUP BY 1",
      ),
    ).toEqual(
      byDay("SELECT business_date AS day, SUM(sales) AS total FROM v_product_sales GROUP BY 1"),
    );
    const [sku] = rows(
      db,
      `SELECT business_date, sku, locations, quantity FROM v_chain_product_sales
       WHERE sku IS NOT NULL LIMIT 1`,
    );
    const [perLocation] = rows(
      db,
      `SELECT COUNT(DISTINCT p.location_id) AS locations, SUM(p.quantity) AS quantity
       FROM v_product_sales p JOIN products c ON c.location_id = p.location_id AND c.id = p.product_id
       WHERE p.business_date = ? AND c.sku = ?`,
      sku.business_date,
      sku.sku,
    );
    expect(perLocation).toEqual({ locations: sku.locations, quantity: sku.quantity });
  });

  it("v_chain_product_sales keeps apart two products whose name and category run together alike", () => {
    const other = openTestDb(tempPath());
    try {
      const insert = other.sqlite.prepare(
        `INSERT INTO daily_product_sales (location_id, business_date, product_id, product_name,
           category, sub_category, quantity, sales, tax, net_sales, orders)
         VALUES (?, '2026-03-01', ?, ?, ?, '', 1, 5, 1, 4, 1)`,
      );
      insert.run("location a", "wine a", "Wine / Red", "Glass");
      insert.run("location b", "wine b", "Wine", "Red / Glass");
      const chain = rows(
        other,
        "SELECT product_key, product_name, locations FROM v_chain_product_sales ORDER BY 1",
      );
      expect(chain).toEqual([
        { product_key: "name 10:Wine / Red / Glass", product_name: "Wine / Red", locations: 1 },
        { product_key: "name 4:Wine / Red / Glass", product_name: "Wine", locations: 1 },
      ]);
    } finally {
      other.sqlite.close();
    }
  });

  it("v_chain_operator_sales counts an operator once for the chain, by name", () => {
    const chain = rows(db, "SELECT * FROM v_chain_operator_sales");
    const keys = chain.map((row) => `${row.business_date} ${row.operator_name}`);
    expect(new Set(keys).size).toBe(keys.length);
    const perLocation = rows(
      db,
      `SELECT business_date, operator_name, COUNT(DISTINCT location_id) AS locations,
              SUM(orders) AS orders, ROUND(SUM(total_sales), 2) AS total_sales
       FROM v_operator_sales GROUP BY business_date, operator_name`,
    );
    expect(
      chain.map(({ business_date, operator_name, locations, orders, total_sales }) => ({
        business_date,
        operator_name,
        locations,
        orders,
        total_sales,
      })),
    ).toEqual(expect.arrayContaining(perLocation));
    expect(chain).toHaveLength(perLocation.length);
  });
});

describe("v_order_tips", () => {
  it("has one row per tip the API sent, and none for orders without tips", () => {
    const tips = apiOrders().flatMap(({ order }) =>
      (order.tips ?? []).map((tip, position) => ({ order, tip, position })),
    );
    expect(tips.length).toBeGreaterThan(0);
    const viewRows = rows(db, "SELECT * FROM v_order_tips ORDER BY order_id, position");
    expect(viewRows).toHaveLength(tips.length);
    const byKey = new Map(viewRows.map((r) => [`${r.order_id}|${r.position}`, r]));
    for (const { order, tip, position } of tips) {
      const row = byKey.get(`${order.id}|${position}`);
      expect(JSON.parse(row?.tip ?? "null")).toEqual(tip);
      expect(row?.amount).toBe((tip as { amount?: number }).amount ?? null);
    }
  });
});

describe("v_operator_sales", () => {
  it("counts each operator's sales, cancelled orders and cancelled lines per day", () => {
    const api = apiOrders().filter(({ order }) => order.isTraining !== true);
    const key = (o: (typeof api)[number]) => `${o.locationId}|${o.day}|${o.order.operatorId}`;
    const sales = groupSum(api, key, (o) => (isSale(o.order) ? cents(o.order.total) : 0));
    const cancelled = groupSum(api, key, (o) => (o.order.isCanceled ? 1 : 0));
    const voided = groupSum(api, key, (o) =>
      o.order.isCanceled ? 0 : o.order.items.filter((i) => i.isCanceled).length,
    );
    const viewRows = rows(db, "SELECT * FROM v_operator_sales");
    for (const row of viewRows) {
      const k = `${row.location_id}|${row.business_date}|${row.operator_id}`;
      expect(cents(row.total_sales), k).toBe(sales.get(k) ?? 0);
      expect(row.cancelled_orders, k).toBe(cancelled.get(k) ?? 0);
      expect(row.cancelled_items, k).toBe(voided.get(k) ?? 0);
    }
    expect(viewRows.reduce((n, r) => n + r.cancelled_items, 0)).toBeGreaterThan(0);
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

  it("counts the orders a report lists that the API no longer lists", async () => {
    const [row] = rows(db, "SELECT report_id, orders_listed FROM v_report_reconciliation LIMIT 1");
    const [order] = rows(
      db,
      "SELECT order_id FROM report_orders WHERE report_id = ? LIMIT 1",
      row.report_id,
    );
    await store.markDeleted(ORDERS, [order.order_id], new Date().toISOString());
    await store.settleSummaries();
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

  it("shows the difference when a stored order changed after its report", async () => {
    const [row] = rows(db, "SELECT * FROM v_report_reconciliation WHERE status = 'ok' LIMIT 1");
    const stored = rows(db, "SELECT id FROM orders WHERE report_id = ?", row.report_id).map(
      (r) => r.id,
    );
    const { order, day, locationId } = apiOrders().find(
      (o) => stored.includes(o.order.id) && isSale(o.order),
    )!;
    const later = (hours: number) =>
      new Date(Date.parse(order.updatedAt) + hours * 3_600_000)
        .toISOString()
        .replace("Z", "+00:00");
    const write = async (version: Order) => {
      await storeDayPage(store, ORDERS, {
        locationId,
        day,
        records: [{ record: version, raw: JSON.stringify(version) }],
        rejects: [],
        runId: null,
        syncedAt: new Date().toISOString(),
      });
      await store.settleSummaries();
    };
    const reconciliation = () =>
      rows(db, "SELECT * FROM v_report_reconciliation WHERE report_id = ?", row.report_id)[0];
    await write({ ...order, total: order.total + 5, updatedAt: later(1) });
    expect(reconciliation()).toMatchObject({ difference: -5, status: "totals differ" });
    await write({ ...order, updatedAt: later(2) });
    expect(reconciliation()).toMatchObject({ difference: 0, status: "ok" });
  });
});
