/**
 * One suite, two destinations: every guarantee the sync makes — complete data equal to the
 * ground truth, idempotent re-runs, malformed records set aside, faults survived, hostile data
 * kept, changed and vanished orders, resume after kill -9 — proved the same way on SQLite and on
 * PostgreSQL.
 */
import { afterAll, describe, expect, it } from "vitest";
import { orderSchema } from "../src/api/schemas.js";
import { addDays } from "../src/clock/days.js";
import { CHILD_RELATIONS } from "../src/db/schema/relations.js";
import { tableName } from "../src/db/sql/table.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { NASTY_TEXT } from "../src/simulator/hostile.js";
import { malform } from "../src/simulator/malformed.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { firstRunDays } from "./helpers/clock.js";
import {
  DESTINATION_KINDS,
  type TestDestination,
  useDestinations,
} from "./helpers/destinations.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { killSyncAfterRequests } from "./helpers/kill.js";
import { expectRowCountsKept } from "./helpers/row-counts.js";
import { compareHistory, ServedVersions } from "./helpers/served-versions.js";
import { SMALL_DATASET, TEST_TODAY } from "./helpers/simulator.js";
import { syncInto, type TestSyncOptions } from "./helpers/sync.js";

const destinations = useDestinations();
afterAll(() => destinations.closeReaders());

const history = { since: addDays(TEST_TODAY, -(SMALL_DATASET.days - 1)), until: TEST_TODAY };
/** Enough retries that a request failing a third of the time still gets through. */
const PATIENT = { retries: 10, minDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 2_000 };

async function withSimulator(
  options: Partial<Parameters<typeof startSimulator>[0]>,
  test: (simulator: Simulator) => Promise<void>,
): Promise<void> {
  const simulator = await startSimulator({ ...SMALL_DATASET, ...options });
  try {
    await test(simulator);
  } finally {
    await simulator.close();
  }
}

async function sync(simulator: Simulator, into: TestDestination, options: TestSyncOptions = {}) {
  const destination = await into.open();
  try {
    return await syncInto(simulator, destination, options);
  } finally {
    await destination.close();
  }
}

describe.each(DESTINATION_KINDS)("into %s", (kind) => {
  it("backfills every location equal to the ground truth, every past day complete", async () => {
    await withSimulator({ seed: 42 }, async (simulator) => {
      const into = await destinations.fresh(kind);
      const { result } = await sync(simulator, into);
      expect(result.status).toBe("succeeded");
      const stored = await into.stored();
      expect(await compareWithDataset(stored, simulator.dataset, history)).toEqual([]);
      const windows = await stored.rows(
        "SELECT status, COUNT(*) AS n FROM sync_windows WHERE stream = 'orders' GROUP BY status ORDER BY status",
      );
      expect(windows).toEqual([
        { status: "complete", n: 2 * (SMALL_DATASET.days - 1) },
        { status: "open", n: 2 },
      ]);
      expect(await stored.rows("SELECT status, error FROM sync_runs")).toEqual([
        { status: "succeeded", error: null },
      ]);
      // The views read the summaries the writes kept: a day's sales as the API's orders add up.
      const location = simulator.dataset.locations[0]!;
      const day = addDays(TEST_TODAY, -1);
      const sales = [...simulator.dataset.allOrders(location)]
        .filter((o) => o.createdAt.slice(0, 10) === day)
        .filter((o) => !o.isCanceled && !o.isTraining && !o.isTransferred);
      const expected = Math.round(sales.reduce((sum, o) => sum + o.total, 0) * 100) / 100;
      const [daily] = await stored.rows(
        "SELECT orders, total_sales FROM v_daily_sales WHERE location_id = ? AND business_date = ?",
        location.location.id,
        day,
      );
      expect(daily).toEqual({ orders: sales.length, total_sales: expected });
      // A product's orders: an order with two lines of it counts once (some orders here have).
      const productOrders = new Map<string, number>();
      for (const sale of sales) {
        const sold = sale.items.filter((i) => !i.isCanceled).map((i) => i.itemCatalogId);
        for (const product of new Set(sold))
          productOrders.set(product, (productOrders.get(product) ?? 0) + 1);
      }
      const products = await stored.rows(
        "SELECT product_id, orders FROM v_product_sales WHERE location_id = ? AND business_date = ?",
        location.location.id,
        day,
      );
      expect(new Map(products.map((p) => [p.product_id, Number(p.orders)]))).toEqual(productOrders);
      // The comparison sees a changed field (it is not blind to this destination's types).
      const order = [...simulator.dataset.allOrders(location)].at(-1)!;
      await stored.execute(
        "UPDATE order_rows SET operator_name = 'someone else' WHERE id = ?",
        order.id,
      );
      expect(await compareWithDataset(stored, simulator.dataset, history)).toEqual([
        `order ${order.id}: operator_name is "someone else", the API says ${JSON.stringify(order.operatorName)}`,
      ]);
    });
  });

  it("writes nothing and duplicates nothing when run again", async () => {
    await withSimulator({ seed: 43 }, async (simulator) => {
      const into = await destinations.fresh(kind);
      await sync(simulator, into);
      const stored = await into.stored();
      const count = async () =>
        Number(await stored.scalar("SELECT COUNT(*) FROM order_items")) +
        Number(await stored.scalar("SELECT COUNT(*) FROM orders"));
      const before = await count();
      const again = await sync(simulator, into, { range: history });
      expect(again.result.status).toBe("succeeded");
      const orders = again.result.stats.totals("orders");
      expect(orders.fetched).toBeGreaterThan(100);
      expect(orders.inserted + orders.updated).toBe(0);
      expect(await count()).toBe(before);
      expect(await compareWithDataset(stored, simulator.dataset, history)).toEqual([]);
    });
  });

  it("deletes the rows of an order's or a report's arrays with it, as a hand edit would", async () => {
    await withSimulator({ seed: 44 }, async (simulator) => {
      const into = await destinations.fresh(kind);
      await sync(simulator, into);
      const stored = await into.stored();
      const rowsOf = async (table: string) =>
        Number(await stored.scalar(`SELECT COUNT(*) FROM ${table}`));
      const children = CHILD_RELATIONS.map((relation) => tableName(relation.table));
      for (const table of children) expect(await rowsOf(table), table).toBeGreaterThan(0);
      await stored.execute("DELETE FROM order_rows");
      await stored.execute("DELETE FROM report_rows");
      for (const table of children) expect(await rowsOf(table), table).toBe(0);
    });
  });

  it("sets malformed records aside with their reason and stores the rest", async () => {
    await withSimulator({ seed: 44 }, async (simulator) => {
      simulator.faults.set({ malformedRate: 0.03 });
      const into = await destinations.fresh(kind);
      const { result } = await sync(simulator, into);
      expect(result.status).toBe("succeeded");
      const isMalformed = (id: string) => simulator.faults.isMalformed(id);
      const stored = await into.stored();
      expect(
        await compareWithDataset(stored, simulator.dataset, { ...history, isMalformed }),
      ).toEqual([]);
      const malformed = simulator.dataset.locations
        .flatMap((l) => [...simulator.dataset.allOrders(l)])
        .filter((o) => o.createdAt.slice(0, 10) >= history.since && isMalformed(o.id));
      expect(malformed.length).toBeGreaterThan(0);
      const rejected = await stored.rows(
        "SELECT record_id, reason FROM rejected_records WHERE stream = 'orders' ORDER BY record_id",
      );
      expect(rejected.map((r) => r.record_id)).toEqual(malformed.map((o) => o.id).sort());
      for (const reject of rejected) expect(reject.reason).not.toBe("");
      // Each record counted once in the run's figures, one without a usable id too (its window
      // set it aside, then the reports' cross-check asked for it by the id its report gives).
      const orders = result.stats.totals("orders");
      expect(malformed.some((o) => malform(o, "order").id !== o.id)).toBe(true);
      expect(orders.rejected).toBe(malformed.length);
    });
  });

  it("stores complete data through 503s, 429s, cut connections and slow answers", async () => {
    await withSimulator({ seed: 101 }, async (simulator) => {
      simulator.faults.set({
        serverErrorRate: 0.1,
        rateLimitRate: 0.05,
        // Both forms the spec allows, one on each destination.
        retryAfterForm: kind === "sqlite" ? "http-date" : "seconds",
        retryAfterSeconds: 1,
        dropRate: 0.06,
        slowRate: 0.01,
        slowMs: 2_500,
      });
      const into = await destinations.fresh(kind);
      const { result } = await sync(simulator, into, {
        transport: {
          retry: PATIENT,
          timeouts: { connectMs: 2_000, headersMs: 1_000, bodyMs: 2_000 },
        },
      });
      expect(result.status).toBe("succeeded");
      const { faults } = simulator.stats.snapshot();
      expect(faults.serverError).toBeGreaterThan(3);
      expect(faults.rateLimited).toBeGreaterThan(1);
      expect(faults.dropped).toBeGreaterThan(2);
      expect(faults.delayed).toBeGreaterThan(0);
      expect(await compareWithDataset(await into.stored(), simulator.dataset, history)).toEqual([]);
    });
  });

  it("keeps hostile text and amounts, and sets aside what the spec forbids", async () => {
    await withSimulator({ seed: 103, hostile: true }, async (simulator) => {
      const into = await destinations.fresh(kind);
      const { result } = await sync(simulator, into);
      expect(result.status).toBe("succeeded");
      const forbidden = (id: string) => {
        const location = simulator.dataset.locations.find((l) => simulator.dataset.order(l, id));
        const order = location ? simulator.dataset.order(location, id) : undefined;
        return order !== undefined && !orderSchema.safeParse(order).success;
      };
      const stored = await into.stored();
      expect(
        await compareWithDataset(stored, simulator.dataset, {
          ...history,
          isMalformed: forbidden,
          limit: 10,
        }),
      ).toEqual([]);
      const rejected = await stored.rows(
        "SELECT reason FROM rejected_records WHERE stream = 'orders'",
      );
      expect(rejected.length).toBeGreaterThan(0);
      for (const reject of rejected)
        expect(reject.reason).toBe("guests: Too small: expected number to be >=0");
      // Text survives as sent, however long or strange.
      const names = await stored.rows("SELECT operator_name FROM orders");
      expect(names.filter((r) => stored.same(r.operator_name, NASTY_TEXT)).length).toBeGreaterThan(
        0,
      );
      expect(Number(await stored.scalar("SELECT MAX(length(order_place)) FROM orders"))).toBe(
        20_000,
      );
      // Amounts as sent: zero, negative, huge.
      const count = async (where: string) =>
        Number(await stored.scalar(`SELECT COUNT(*) FROM orders WHERE ${where}`));
      expect(await count("total = 1e15")).toBeGreaterThan(0);
      expect(await count("total < 0")).toBeGreaterThan(0);
      // Fields the spec does not know (schema drift) are kept in the raw archive.
      const orders = await stored.rows("SELECT location_id, id FROM orders");
      let extended = 0;
      for (const order of orders) {
        const [archived] = await stored.archived(
          "orders",
          String(order.id),
          String(order.location_id),
        );
        if ((archived as { loyaltyProgram?: { points?: number } })?.loyaltyProgram?.points === 1234)
          extended++;
      }
      expect(extended).toBeGreaterThan(0);
    });
  });

  it("stores each order once, in its newest version, when pages repeat and change", async () => {
    // Days of three to four pages each.
    await withSimulator(
      { seed: 102, locations: 1, days: 4, ordersPerDay: [250, 350] },
      async (simulator) => {
        const days = { since: simulator.dataset.firstDay, until: simulator.dataset.today };
        simulator.faults.set({ duplicatesAcrossPages: true, changesBetweenPages: true });
        const into = await destinations.fresh(kind);
        expect((await sync(simulator, into)).result.status).toBe("succeeded");
        const stored = await into.stored();
        // Reports whose orders changed after the report was read are behind until their day is
        // read again; the orders themselves are exact.
        expect(
          await compareWithDataset(stored, simulator.dataset, { ...days, reports: false }),
        ).toEqual([]);
        const changed = await stored.rows(
          "SELECT id FROM orders WHERE updated_at > created_at AND updated_at >= ?",
          "2026-11-01",
        );
        expect(changed.length).toBeGreaterThan(5);
        // A re-read of the days, with the pages steady again, catches up the reports.
        simulator.faults.reset();
        expect((await sync(simulator, into, { range: days })).result.status).toBe("succeeded");
        expect(await compareWithDataset(stored, simulator.dataset, days)).toEqual([]);
      },
    );
  });

  it("marks orders voided upstream deleted, out of the views, and restores them when listed again", async () => {
    await withSimulator({ seed: 91, locations: 1, days: 6 }, async (simulator) => {
      const into = await destinations.fresh(kind);
      const day = addDays(TEST_TODAY, -2);
      const range = { since: day, until: day };
      await sync(simulator, into, { range });
      const stored = await into.stored();
      const viewOrders = async () =>
        Number(
          await stored.scalar("SELECT orders FROM v_daily_sales WHERE business_date = ?", day),
        );
      const before = await viewOrders();
      const voided = simulator.dataset.voidOrders(simulator.dataset.locations[0]!, day, 2);
      const second = await sync(simulator, into, { range });
      expect(second.result.stats.locations[0]?.streams.orders?.deleted).toBe(2);
      const marked = await stored.rows(
        "SELECT id FROM orders WHERE deleted_at IS NOT NULL ORDER BY id",
      );
      expect(marked.map((r) => r.id)).toEqual([...voided].sort());
      // History keeps each one's last version, with the day it disappeared.
      const vanished = await stored.rows(
        "SELECT order_id, ended_by, business_date FROM order_versions ORDER BY order_id",
      );
      expect(vanished).toEqual(
        [...voided]
          .sort()
          .map((id) => ({ order_id: id, ended_by: "vanished", business_date: day })),
      );
      expect(await viewOrders()).toBeLessThan(before);
      await expectRowCountsKept(stored);
      simulator.dataset.restoreVoidedOrders();
      await sync(simulator, into, { range });
      expect(
        Number(await stored.scalar("SELECT COUNT(*) FROM orders WHERE deleted_at IS NOT NULL")),
      ).toBe(0);
      expect(await viewOrders()).toBe(before);
      await expectRowCountsKept(stored);
      // Edits by hand are counted too: an order removed, one marked deleted, a report moved.
      const [removed, markedByHand] = [...voided].sort();
      await stored.execute("DELETE FROM order_rows WHERE id = ?", removed);
      await stored.execute(
        "UPDATE order_rows SET deleted_at = synced_at WHERE id = ?",
        markedByHand,
      );
      await stored.execute(
        "UPDATE report_rows SET location_id = 'elsewhere' WHERE id = (SELECT MIN(id) FROM report_rows)",
      );
      await expectRowCountsKept(stored);
    });
  });

  it("keeps every version of an order served between syncs, and none when nothing changed", async () => {
    await withSimulator({ seed: 57 }, async (simulator) => {
      const into = await destinations.fresh(kind);
      const served = new ServedVersions();
      const { dataset } = simulator;
      const syncServed = async () => {
        served.observe(dataset, { since: dataset.firstDay, until: dataset.today });
        expect((await sync(simulator, into)).result.status).toBe("succeeded");
      };
      await syncServed();
      for (let round = 0; round < 2; round++) {
        dataset.advanceDay();
        dataset.applyLateUpdates(10, 3);
        await syncServed();
      }
      const stored = await into.stored();
      expect(served.changed().length).toBeGreaterThan(8);
      expect(await compareHistory(stored, served)).toEqual([]);
      const kept = Number(await stored.scalar("SELECT COUNT(*) FROM order_versions"));
      await syncServed();
      expect(Number(await stored.scalar("SELECT COUNT(*) FROM order_versions"))).toBe(kept);
    });
  });

  it("is completed exactly by the next run after a kill -9 with pages of several days in flight", async () => {
    const simulator = await startSimulator({
      seed: 211,
      locations: 2,
      days: 8,
      today: simulatorToday(),
      ordersPerDay: [150, 250],
    });
    try {
      simulator.faults.set({ latencyMs: 15, malformedRate: 0.02 });
      const into = await destinations.fresh(kind);
      const { POS_DB_PATH: _path, ...api } = simulatorEnv(simulator, "");
      const env = { ...api, ...into.env };
      await killSyncAfterRequests(simulator, env, 12, {
        operation: "listOrders",
        args: ["--concurrency", "2"],
      });
      const stored = await into.stored();
      const days = firstRunDays(simulator, 0).length + firstRunDays(simulator, 1).length;
      expect(await stored.rows("SELECT status FROM sync_runs")).toEqual([{ status: "running" }]);
      const completeHalfway = await stored.scalar(
        "SELECT COUNT(*) FROM sync_windows WHERE stream = 'orders' AND status = 'complete'",
      );
      expect(Number(completeHalfway)).toBeLessThan(days);

      simulator.faults.set({ latencyMs: 0 });
      const next = await runCli(["sync"], env);
      expect(next.code, next.stdout + next.stderr).toBe(0);
      const { dataset } = simulator;
      const isMalformed = (id: string) => simulator.faults.isMalformed(id);
      expect(
        await compareWithDataset(stored, dataset, {
          since: dataset.firstDay,
          until: dataset.today,
          isMalformed,
        }),
      ).toEqual([]);
      const runs = await stored.rows("SELECT status FROM sync_runs ORDER BY id");
      expect(runs.map((r) => r.status)).toEqual(["interrupted", "succeeded"]);
      // Two streams of every day of each location, through its own today; each holds what the
      // API counts, in stored rows plus rejects.
      const windows = await stored.rows(
        `SELECT w.stream, w.day, w.status, w.api_total_count, w.stored_count,
                (CASE w.stream WHEN 'orders' THEN (SELECT COUNT(*) FROM orders o WHERE o.location_id = w.location_id AND o.business_date = w.day)
                               ELSE (SELECT COUNT(*) FROM reports r WHERE r.location_id = w.location_id AND r.business_date = w.day) END)
                + (SELECT COUNT(*) FROM rejected_records j WHERE j.location_id = w.location_id AND j.stream = w.stream AND j.day = w.day) AS in_db
         FROM sync_windows w WHERE w.stream IN ('orders', 'reports')`,
      );
      expect(windows.length).toBe(2 * days);
      for (const window of windows) {
        const name = `${window.stream} ${window.day}`;
        expect(["complete", "open"], name).toContain(window.status);
        expect(Number(window.stored_count), name).toBe(Number(window.api_total_count));
        expect(Number(window.in_db), name).toBe(Number(window.api_total_count));
      }
    } finally {
      await simulator.close();
    }
  });
});
