/** Storing API data: read back field by field, idempotent, replacing changed records whole,
 * snapshots that mark deletions, rejects kept apart. Real HTTP, real SQLite files. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, toEpochDay } from "../src/clock/days.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import type { Db } from "../src/db/sqlite/open.js";
import { readRawRecords } from "../src/db/sqlite/raw-archive.js";
import { ORDERS, PRODUCTS, readList } from "../src/streams/index.js";
import { readCatalogList, testClient } from "./helpers/client.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { loadLocation } from "./helpers/load.js";
import { storeDayPage, storeOrdersPage } from "./helpers/pages.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";

const sim = useSimulator();
const tempPath = useTempDir();
const since = addDays(TEST_TODAY, -11);
const days = { since, until: TEST_TODAY };
let db: Db;
let store: SqliteDestination;

const location = () => sim.current.dataset.locations[0]!;
const key = () => sim.current.keys[0] as string;

function totalChanges(): number {
  return scalar(db, "SELECT total_changes()") as number;
}

beforeAll(async () => {
  db = openTestDb(tempPath());
  store = new SqliteDestination(db);
  await loadLocation(testClient(sim.current).client, store, key(), days);
});

afterAll(() => store.close());

describe("a stored location", () => {
  it("equals the API's data field by field", async () => {
    const differences = await compareWithDataset(db, sim.current.dataset, {
      ...days,
      locations: [location()],
    });
    expect(differences).toEqual([]);
  });

  it("keeps every row tagged with its location", () => {
    for (const table of [
      "orders",
      "order_items",
      "order_payments",
      "reports",
      "report_orders",
      "products",
      "devices",
    ]) {
      expect(rows(db, `SELECT DISTINCT location_id FROM ${table}`), table).toEqual([
        { location_id: location().location.id },
      ]);
    }
  });

  it("stores each record under the day the API listed it", () => {
    const day = addDays(TEST_TODAY, -3);
    const listed = sim.current.dataset
      .ordersCreatedOn(location(), toEpochDay(day))
      .map((o) => o.id)
      .sort();
    const stored = rows(db, "SELECT id FROM orders WHERE business_date = ? ORDER BY id", day).map(
      (r) => r.id,
    );
    expect(stored).toEqual(listed);
  });

  it("records the key's fingerprint on the location, never the key", () => {
    const [row] = rows(db, "SELECT api_key_fingerprint FROM locations");
    expect(row.api_key_fingerprint).toMatch(/^key#[0-9a-f]{8}$/);
    expect(JSON.stringify(rows(db, "SELECT * FROM locations"))).not.toContain(key());
  });
});

describe("idempotent writes", () => {
  it("changes nothing when the same data is stored again", async () => {
    const before = totalChanges();
    const totals = await loadLocation(testClient(sim.current).client, store, key(), days);
    expect(totals.orders.inserted + totals.orders.updated).toBe(0);
    expect(totals.reports.inserted + totals.reports.updated).toBe(0);
    expect(totals.orders.unchanged).toBeGreaterThan(500);
    expect(totalChanges() - before).toBe(0);
  });
});

describe("changed records", () => {
  it("replaces a changed order and all its child rows in one go, and ignores an older version", async () => {
    const own = new SqliteDestination(openTestDb(tempPath()));
    const day = addDays(TEST_TODAY, -2);
    const original = sim.current.dataset
      .ordersCreatedOn(location(), toEpochDay(day))
      .find((o) => o.items.length >= 3)!;
    const lastItem = original.items.length - 1;
    const write = (order: typeof original) =>
      storeOrdersPage(own, location().location.id, day, [order]);
    const count = (sql: string) => scalar(own.db, sql, original.id);
    expect(await write(original)).toMatchObject({ inserted: 1 });
    const modifiersOfLast = original.items[lastItem]!.modifiers.length;
    expect(
      scalar(
        own.db,
        "SELECT COUNT(*) FROM order_item_modifiers WHERE order_id = ? AND item_position = ?",
        original.id,
        lastItem,
      ),
    ).toBe(modifiersOfLast);

    // A POS correction: the last item is taken off the ticket after the fact.
    const changed = structuredClone(original);
    changed.items.pop();
    changed.updatedAt = new Date(Date.parse(original.updatedAt) + 3_600_000)
      .toISOString()
      .replace("Z", "+00:00");
    changed.total = 1.23;
    expect(await write(changed)).toMatchObject({ inserted: 0, updated: 1, unchanged: 0 });
    expect(count("SELECT COUNT(*) FROM order_items WHERE order_id = ?")).toBe(
      original.items.length - 1,
    );
    expect(
      count(
        "SELECT COUNT(*) FROM order_item_modifiers WHERE order_id = ? AND item_position = " +
          lastItem,
      ),
    ).toBe(0);
    expect(count("SELECT total FROM orders WHERE id = ?")).toBe(1.23);

    // The older version arriving late changes nothing.
    expect(await write(original)).toMatchObject({ updated: 0, unchanged: 1 });
    expect(count("SELECT COUNT(*) FROM order_items WHERE order_id = ?")).toBe(
      original.items.length - 1,
    );
    await own.close();
  });

  it("leaves nothing of a page that failed to the next page written", async () => {
    const own = new SqliteDestination(openTestDb(tempPath()));
    const day = addDays(TEST_TODAY, -3);
    const [first, refused, next] = sim.current.dataset
      .ordersCreatedOn(location(), toEpochDay(day))
      .filter((o) => o.items.length >= 2);
    if (!first || !refused || !next) throw new Error("the day has too few orders");
    const write = (orders: (typeof first)[]) =>
      storeOrdersPage(own, location().location.id, day, orders);
    // The page fails once its first order and that order's item rows are in hand.
    own.db.sqlite.exec(`CREATE TEMP TRIGGER refuse_order BEFORE INSERT ON main.order_rows
      WHEN NEW.id = '${refused.id}' BEGIN SELECT RAISE(ABORT, 'an order the schema refuses'); END`);
    await expect(write([first, refused])).rejects.toThrow(/an order the schema refuses/);
    own.db.sqlite.exec("DROP TRIGGER temp.refuse_order");

    expect(await write([next])).toMatchObject({ inserted: 1 });
    await own.commit();
    const itemsOf = (id: string) =>
      scalar(own.db, "SELECT COUNT(*) FROM order_items WHERE order_id = ?", id);
    expect(itemsOf(next.id)).toBe(next.items.length);
    expect(scalar(own.db, "SELECT COUNT(*) FROM order_items")).toBe(next.items.length);
    expect(scalar(own.db, "SELECT COUNT(*) FROM orders")).toBe(1);
    await own.close();
  });

  it("picks up late updates made by the POS", async () => {
    const { dataset } = sim.current;
    const updates = dataset.applyLateUpdates(6, 3).filter((u) => u.locationIndex === 0);
    const totals = await loadLocation(testClient(sim.current).client, store, key(), days);
    expect(totals.orders.updated).toBeGreaterThanOrEqual(updates.length);
    expect(totals.reports.updated).toBeGreaterThan(0);
    expect(await compareWithDataset(db, dataset, { ...days, locations: [location()] })).toEqual([]);
  });
});

describe("snapshots", () => {
  it("marks catalog rows and devices deleted when they leave the list, and restores them", async () => {
    const { dataset } = sim.current;
    const hidden = dataset.hideCatalogItems(
      location(),
      ["products", "categories", "taxes", "devices"],
      1,
    );
    await loadLocation(testClient(sim.current).client, store, key(), {
      since: TEST_TODAY,
      until: TEST_TODAY,
    });
    for (const [table, id] of [
      ["products", hidden[0]],
      ["categories", hidden[1]],
      ["taxes", hidden[2]],
      ["devices", hidden[3]],
    ]) {
      expect(scalar(db, `SELECT deleted_at FROM ${table} WHERE id = ?`, id), table).toEqual(
        expect.any(String),
      );
    }
    expect(scalar(db, "SELECT COUNT(*) FROM products WHERE deleted_at IS NOT NULL")).toBe(1);
    // The deleted product keeps its prices and subcategories: history stays queryable.
    expect(scalar(db, "SELECT COUNT(*) FROM product_prices WHERE product_id = ?", hidden[0])).toBe(
      2,
    );

    dataset.restoreCatalogItems();
    await loadLocation(testClient(sim.current).client, store, key(), {
      since: TEST_TODAY,
      until: TEST_TODAY,
    });
    expect(scalar(db, "SELECT COUNT(*) FROM products WHERE deleted_at IS NOT NULL")).toBe(0);
    expect(scalar(db, "SELECT COUNT(*) FROM devices WHERE deleted_at IS NOT NULL")).toBe(0);
  });

  it("does not delete a listed record that failed validation", async () => {
    sim.current.faults.set({ malformedRate: 0.3 });
    try {
      const { client } = testClient(sim.current);
      const list = await readCatalogList(client, "products");
      expect(list.rejects.length).toBeGreaterThan(0);
      const counts = await store.writeList(PRODUCTS, list, {
        locationId: location().location.id,
        syncedAt: new Date().toISOString(),
        runId: null,
      });
      expect(counts.deleted).toBe(0);
      expect(counts.rejected).toBe(list.rejects.length);
      expect(scalar(db, "SELECT COUNT(*) FROM rejected_records WHERE stream = 'products'")).toBe(
        list.rejects.length,
      );
    } finally {
      sim.current.faults.reset();
    }
    // Valid again: the rejects are resolved.
    const { client } = testClient(sim.current);
    await store.writeList(PRODUCTS, await readCatalogList(client, "products"), {
      locationId: location().location.id,
      syncedAt: new Date().toISOString(),
      runId: null,
    });
    expect(scalar(db, "SELECT COUNT(*) FROM rejected_records WHERE stream = 'products'")).toBe(0);
  });
});

describe("lists that repeat themselves", () => {
  it("store a record listed twice once, and a child repeated inside a record once", async () => {
    const own = new SqliteDestination(openTestDb(tempPath()));
    const { client } = testClient(sim.current);
    const list = await readList(PRODUCTS, client);
    const [first] = list.records;
    if (!first) throw new Error("no products");
    const doubled = structuredClone(first.record);
    doubled.priceList.push(structuredClone(doubled.priceList[0]!));
    const repeated = { record: doubled, raw: JSON.stringify(doubled) };
    const counts = await own.writeList(
      PRODUCTS,
      { records: [...list.records, repeated, repeated], rejects: [] },
      { locationId: "loc", syncedAt: new Date().toISOString(), runId: null },
    );
    expect(counts.inserted).toBe(list.records.length);
    expect(counts.updated).toBe(1);
    expect(scalar(own.db, "SELECT COUNT(*) FROM products")).toBe(list.records.length);
    expect(
      scalar(own.db, "SELECT COUNT(*) FROM product_prices WHERE product_id = ?", first.record.id),
    ).toBe(first.record.priceList.length);
    const [archived] = readRawRecords(own.db.sqlite, "products", first.record.id, "loc");
    expect(JSON.parse(archived?.json ?? "{}").priceList).toHaveLength(
      first.record.priceList.length + 1,
    );
    await own.close();
  });
});

describe("rejected records", () => {
  it("stores malformed orders apart with their reason and JSON, once each", async () => {
    const separate = openTestDb(tempPath());
    try {
      const separateStore = new SqliteDestination(separate);
      sim.current.faults.set({ malformedRate: 0.05 });
      const { client } = testClient(sim.current);
      const range = { since: addDays(TEST_TODAY, -2), until: addDays(TEST_TODAY, -1) };
      const first = await loadLocation(client, separateStore, key(), range);
      const second = await loadLocation(client, separateStore, key(), range);
      expect(first.orders.rejected).toBeGreaterThan(0);
      expect(second.orders.rejected).toBe(first.orders.rejected);
      const stored = rows(
        separate,
        "SELECT record_id, reason, raw, day FROM rejected_records WHERE stream = 'orders'",
      );
      expect(stored).toHaveLength(first.orders.rejected);
      for (const reject of stored) {
        expect(reject.reason).not.toBe("");
        expect(() => JSON.parse(reject.raw)).not.toThrow();
        expect([range.since, range.until]).toContain(reject.day);
      }
      const differences = await compareWithDataset(separate, sim.current.dataset, {
        ...range,
        locations: [location()],
        isMalformed: (id) => sim.current.faults.isMalformed(id),
      });
      expect(differences).toEqual([]);
    } finally {
      sim.current.faults.reset();
      separate.close();
    }
  });

  it("keeps the window's day when a read by id rejects the same record again", async () => {
    const separate = openTestDb(tempPath());
    try {
      const separateStore = new SqliteDestination(separate);
      // A record whose id is unusable: its key is a hash of its JSON.
      const reject = { recordId: null, reason: "id: expected string", raw: '{"id":42}' };
      const locationId = location().location.id;
      const context = { locationId, runId: null, rejectedAt: "2026-03-15" };
      await storeDayPage(separateStore, ORDERS, {
        locationId,
        day: "2026-03-14",
        records: [],
        rejects: [reject],
        runId: null,
        syncedAt: "2026-03-15",
      });
      await separateStore.recordRejects("orders", [reject], { ...context, requestedId: "order-1" });
      expect(rows(separate, "SELECT day, record_id FROM rejected_records")).toEqual([
        { day: "2026-03-14", record_id: "order-1" },
      ]);
    } finally {
      separate.close();
    }
  });
});

describe("rows deleted behind pos-sync's back", () => {
  it("stores an order again after a client with foreign keys off deleted it but not its items", async () => {
    const separate = openTestDb(tempPath());
    try {
      const separateStore = new SqliteDestination(separate);
      const { client } = testClient(sim.current);
      const range = { since: addDays(TEST_TODAY, -1), until: addDays(TEST_TODAY, -1) };
      await loadLocation(client, separateStore, key(), range);
      await separateStore.commit();
      const { id, key: orderKey } = rows(
        separate,
        "SELECT o.id, o.key FROM orders o JOIN order_item_rows i ON i.order_key = o.key LIMIT 1",
      )[0] as { id: string; key: number };
      // What the sqlite3 shell does by default: no foreign keys, so no cascade.
      separate.sqlite.pragma("foreign_keys = OFF");
      separate.sqlite.prepare("DELETE FROM order_rows WHERE id = ?").run(id);
      separate.sqlite.pragma("foreign_keys = ON");
      // Its JSON stays in the archive, where storing it again must replace it.
      const archivedAt = "SELECT synced_at FROM raw_records WHERE table_name = 'orders' AND id = ?";
      separate.sqlite
        .prepare("UPDATE raw_records SET synced_at = '2000-01-01' WHERE id = ?")
        .run(id);
      const orphans = "SELECT COUNT(*) FROM order_item_rows WHERE order_key = ?";
      expect(scalar(separate, orphans, orderKey)).toBeGreaterThan(0);

      const again = await loadLocation(client, separateStore, key(), range);
      expect(again.orders.inserted).toBe(1);
      expect(
        await compareWithDataset(separate, sim.current.dataset, {
          ...range,
          locations: [location()],
          orphanRows: false,
        }),
      ).toEqual([]);
      // Stored again under a key of its own: the rows left behind join no order, and show in
      // no relation of the contract.
      expect(scalar(separate, "SELECT key FROM orders WHERE id = ?", id)).not.toBe(orderKey);
      expect(scalar(separate, archivedAt, id)).toBe(
        scalar(separate, "SELECT synced_at FROM orders WHERE id = ?", id),
      );
      expect(scalar(separate, orphans, orderKey)).toBeGreaterThan(0);
      expect(scalar(separate, "SELECT COUNT(*) FROM order_items WHERE order_id = ?", id)).toBe(
        scalar(
          separate,
          "SELECT COUNT(*) FROM order_item_rows i JOIN orders o ON o.key = i.order_key WHERE o.id = ?",
          id,
        ),
      );
    } finally {
      separate.close();
    }
  });
});

describe("two locations in one file", () => {
  it("keeps each location's rows apart", async () => {
    const shared = openTestDb(tempPath());
    try {
      const sharedStore = new SqliteDestination(shared);
      const range = { since: addDays(TEST_TODAY, -1), until: TEST_TODAY };
      for (const [index, apiKey] of sim.current.keys.entries()) {
        await loadLocation(
          testClient(sim.current, { keyIndex: index }).client,
          sharedStore,
          apiKey,
          range,
        );
      }
      expect(await compareWithDataset(shared, sim.current.dataset, range)).toEqual([]);
      const perLocation = rows(
        shared,
        "SELECT location_id, COUNT(*) AS n FROM orders GROUP BY location_id",
      );
      expect(perLocation).toHaveLength(2);
    } finally {
      shared.close();
    }
  });
});
