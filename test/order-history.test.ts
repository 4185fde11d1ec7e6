/** Order history on SQLite: the version a sync replaces or the API stops listing is kept in
 * order_versions with what changed; the current tables keep the latest version alone. Real
 * HTTP to the simulator, real SQLite files. (Both destinations: destinations.test.ts.) */
import { beforeEach, describe, expect, it } from "vitest";
import type { Order } from "../src/api/schemas.js";
import { addDays } from "../src/clock/days.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import type { Db } from "../src/db/sqlite/open.js";
import { collectChanges } from "../src/read-models/changes.js";
import { ORDERS } from "../src/streams/index.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { storeDayPage } from "./helpers/pages.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const sim = useSimulator({ locations: 1, days: 6, changeRate: 0 });
const tempPath = useTempDir();
let db: Db;

beforeEach(() => {
  db = openTestDb(tempPath());
  return () => db.close();
});

const location = () => sim.current.dataset.locations[0]!;
const served = (id: string): Order => structuredClone(sim.current.dataset.order(location(), id)!);

interface VersionRow {
  order_id: string;
  version: number;
  total: number;
  next_total: number | null;
  is_canceled: number;
  paid: number;
  ended_by: string;
  changed_fields: string | null;
  content: string;
  updated_at: string;
  seen_at: string;
  ended_at: string;
  business_date: string;
}

const versions = (): VersionRow[] =>
  rows(db, "SELECT * FROM order_versions ORDER BY order_id, version");

describe("order history", () => {
  it("keeps the version a late change replaced, with what changed", async () => {
    await syncOnce(sim.current, db);
    expect(versions()).toEqual([]);
    const updates = sim.current.dataset.applyLateUpdates(12, 3);
    const before = new Map(updates.map((u) => [u.orderId, served(u.orderId)]));
    // applyLateUpdates changed them already: ask the stored rows what the first version was.
    const stored = new Map(
      updates.map((u) => [
        u.orderId,
        rows(
          db,
          "SELECT total, is_canceled, updated_at, synced_at FROM orders WHERE id = ?",
          u.orderId,
        )[0],
      ]),
    );
    await syncOnce(sim.current, db);
    const kept = versions();
    const ids = [...new Set(updates.map((u) => u.orderId))];
    expect(kept.map((v) => v.order_id).sort()).toEqual(ids.sort());
    // An order picked twice changed twice between the syncs: one version, both changes.
    const once = updates.filter((u) => updates.filter((v) => v.orderId === u.orderId).length === 1);
    expect(once.length).toBeGreaterThan(5);
    for (const update of once) {
      const version = kept.find((v) => v.order_id === update.orderId)!;
      const old = stored.get(update.orderId);
      const now = before.get(update.orderId)!;
      expect(version).toMatchObject({
        version: 1,
        ended_by: "changed",
        total: old.total,
        next_total: now.total,
        is_canceled: old.is_canceled,
        updated_at: old.updated_at,
        seen_at: old.synced_at,
      });
      const fields: string[] = JSON.parse(version.changed_fields!);
      if (update.kind === "cancel") expect(fields).toEqual(["is_canceled", "cancel_reason"]);
      if (update.kind === "requantify") {
        expect(fields).toContain("total");
        expect(fields.some((f) => /^order_items\[\d+\]\.quantity$/.test(f))).toBe(true);
      }
      if (update.kind === "drop-item")
        expect(fields).toContain(`order_items[${now.items.length}] removed`);
      const content = JSON.parse(version.content);
      expect(content.orders.total).toBe(old.total);
      expect(content.orders).not.toHaveProperty("synced_at");
      expect(content.order_items.length).toBeGreaterThan(0);
      // The current tables hold the new version alone.
      expect(scalar(db, "SELECT total FROM orders WHERE id = ?", update.orderId)).toBe(now.total);
    }
    // A re-sync with no change adds no version.
    await syncOnce(sim.current, db);
    expect(versions()).toHaveLength(kept.length);
  });

  it("numbers a second change as version 2", async () => {
    await syncOnce(sim.current, db);
    const [order] = sim.current.dataset.ordersCreatedOn(
      location(),
      epochDayOf(addDays(TEST_TODAY, -1)),
    );
    const id = order!.id;
    sim.current.dataset.updateOrder(location(), id);
    await syncOnce(sim.current, db);
    sim.current.dataset.updateOrder(location(), id);
    await syncOnce(sim.current, db);
    const kept = versions().filter((v) => v.order_id === id);
    expect(kept.map((v) => [v.version, v.ended_by])).toEqual([
      [1, "changed"],
      [2, "changed"],
    ]);
    expect(kept[0]!.next_total).toBe(kept[1]!.total);
    expect(kept[1]!.next_total).toBe(scalar(db, "SELECT total FROM orders WHERE id = ?", id));
  });

  it("keeps a vanished order's last version with the day it disappeared, and numbers its return", async () => {
    await syncOnce(sim.current, db);
    const day = addDays(TEST_TODAY, -2);
    const voided = sim.current.dataset.voidOrders(location(), day, 2);
    await syncOnce(sim.current, db);
    const vanished = versions();
    expect(vanished.map((v) => v.order_id).sort()).toEqual([...voided].sort());
    for (const version of vanished) {
      expect(version).toMatchObject({
        version: 1,
        ended_by: "vanished",
        next_total: null,
        changed_fields: null,
        business_date: day,
      });
      expect(version.ended_at).toBe(
        scalar(db, "SELECT deleted_at FROM orders WHERE id = ?", version.order_id),
      );
    }
    sim.current.dataset.restoreVoidedOrders();
    await syncOnce(sim.current, db);
    expect(versions()).toHaveLength(2);
    expect(scalar(db, "SELECT COUNT(*) FROM orders WHERE deleted_at IS NOT NULL")).toBe(0);
  });

  it("keeps no history when switched off", async () => {
    await syncOnce(sim.current, db, { configOverrides: { keepHistory: false } });
    sim.current.dataset.applyLateUpdates(5, 3);
    const run = await syncOnce(sim.current, db, { configOverrides: { keepHistory: false } });
    expect(run.result.stats.locations[0]?.streams.orders?.updated).toBeGreaterThan(0);
    expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBeGreaterThan(0);
    expect(versions()).toEqual([]);
  });

  it("keeps a version whose typed rows did not change, and changes leaves it unsaid", async () => {
    const destination = new SqliteDestination(db);
    const [order] = sim.current.dataset.ordersCreatedOn(
      location(),
      epochDayOf(addDays(TEST_TODAY, -1)),
    );
    const write = (record: Order) =>
      storeDayPage(destination, ORDERS, {
        locationId: location().location.id,
        day: addDays(TEST_TODAY, -1),
        records: [{ record, raw: JSON.stringify(record) }],
        rejects: [],
        runId: null,
        syncedAt: new Date().toISOString(),
      });
    const first = served(order!.id);
    await write(first);
    // The API touched the order: a new updatedAt and a field pos-sync does not store.
    const touched = { ...structuredClone(first), updatedAt: "2031-01-01T10:00:00.000+01:00" };
    await write({ ...touched, loyaltyTier: "gold" } as Order);
    const cancelled = { ...structuredClone(touched), isCanceled: true, cancelReason: "Late" };
    cancelled.updatedAt = "2031-01-01T11:00:00.000+01:00";
    await write(cancelled);
    await destination.commit();
    expect(versions().map((v) => [v.version, JSON.parse(v.changed_fields!)])).toEqual([
      [1, []],
      [2, ["is_canceled", "cancel_reason"]],
    ]);
    const report = await collectChanges(destination.reads, { sinceDay: "2000-01-01" });
    expect(report.changes.map((c) => [c.orderId, c.kinds])).toEqual([[first.id, ["cancelled"]]]);
  });

  it("keeps none when sync is given --no-history, and keeps them again without it", async () => {
    const path = tempPath();
    const env = simulatorEnv(sim.current, path);
    const since = addDays(TEST_TODAY, -3);
    const sync = (...flags: string[]) =>
      runCli(["sync", ...flags, "--since", since, "--until", TEST_TODAY], env);
    expect((await sync()).code).toBe(0);
    sim.current.dataset.applyLateUpdates(4, 3);
    expect((await sync("--no-history")).code).toBe(0);
    const stored = openTestDb(path);
    try {
      expect(scalar(stored, "SELECT COUNT(*) FROM order_versions")).toBe(0);
      sim.current.dataset.applyLateUpdates(4, 3);
      expect((await sync()).code).toBe(0);
      expect(scalar(stored, "SELECT COUNT(*) FROM order_versions")).toBeGreaterThan(0);
    } finally {
      stored.close();
    }
  });
});

function epochDayOf(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
}
