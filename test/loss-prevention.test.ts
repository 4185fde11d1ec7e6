/**
 * The loss-prevention views and `changes`, on both destinations, against the ground truth: the
 * versions the simulator served before each of several syncs, with its planted changes (late
 * cancellations, voided items, added discounts, short payments) and late updates in between.
 * Each view must return exactly the orders the served data says, and nothing else; and every
 * view, rendered for each dialect from one source (src/db/sql/views.ts), the same rows on both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../src/api/schemas.js";
import { openReadableDestination } from "../src/commands/common.js";
import { loadConfig } from "../src/config/config.js";
import { VIEWS } from "../src/db/sql/views.js";
import { collectChanges } from "../src/read-models/changes.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { describeChange } from "../src/ui/format-changes.js";
import {
  DESTINATION_KINDS,
  type TestDestination,
  useDestinations,
} from "./helpers/destinations.js";
import { paid, ServedVersions } from "./helpers/served-versions.js";
import { SMALL_DATASET } from "./helpers/simulator.js";
import type { StoredData } from "./helpers/stored-data.js";
import { syncEach } from "./helpers/sync.js";

const destinations = useDestinations();
let simulator: Simulator;
const served = new ServedVersions();
const stores = new Map<string, { into: TestDestination; stored: StoredData }>();

const isSale = (o: Order) => !o.isCanceled && o.isTraining !== true && !o.isTransferred;
const cents = (amount: number) => Math.round(amount * 100);

/** Syncs every destination with what the simulator serves now, observed first. */
async function syncAll(): Promise<void> {
  const { dataset } = simulator;
  served.observe(dataset, { since: dataset.firstDay, until: dataset.today });
  await syncEach(
    simulator,
    [...stores.values()].map(({ into }) => into),
  );
}

beforeAll(async () => {
  // Four times the default change rate, so that each kind of change falls due between two of
  // the daily syncs often enough to be seen as a version, on every run of the test.
  simulator = await startSimulator({
    ...SMALL_DATASET,
    seed: 73,
    ordersPerDay: [80, 140],
    changeRate: 4,
  });
  for (const kind of DESTINATION_KINDS) {
    const into = await destinations.fresh(kind);
    stores.set(kind, { into, stored: undefined as unknown as StoredData });
  }
  await syncAll();
  for (let round = 0; round < 3; round++) {
    simulator.dataset.advanceDay();
    simulator.dataset.applyLateUpdates(8, 3);
    await syncAll();
  }
  for (const entry of stores.values()) entry.stored = await entry.into.stored();
}, 240_000);

afterAll(async () => {
  await destinations.closeReaders();
  await simulator?.close();
});

const ids = (rows: Record<string, unknown>[]) => rows.map((r) => String(r.order_id)).sort();

/** The orders listed now, with every version served (the last is current). */
function currentOrders(): { id: string; versions: Order[]; now: Order }[] {
  return served
    .current()
    .map(([id, versions]) => ({ id, versions, now: versions.at(-1) as Order }));
}

function expectedCancelledAfterPayment(): string[] {
  return currentOrders()
    .filter(({ versions, now }) => {
      if (!now.isCanceled || now.isTraining === true) return false;
      const seenPaid = versions.slice(0, -1).some((v) => !v.isCanceled && paid(v) > 0);
      return seenPaid || now.payments.some((p) => p.paymentAmount > 0);
    })
    .map(({ id }) => id)
    .sort();
}

/** Lines that stood in the first version served and do not stand now, by product. */
function expectedVoidedItems(): string[] {
  const lines: string[] = [];
  for (const { id, versions, now } of currentOrders()) {
    if (versions.length < 2) continue;
    const standing = (o: Order) => {
      const count = new Map<string, number>();
      for (const item of o.items)
        if (!item.isCanceled)
          count.set(item.itemCatalogId, (count.get(item.itemCatalogId) ?? 0) + 1);
      return count;
    };
    const before = standing(versions[0] as Order);
    const after = standing(now);
    for (const [product, n] of before)
      for (let k = after.get(product) ?? 0; k < n; k++) lines.push(`${id} ${product}`);
  }
  return lines.sort();
}

describe.each(DESTINATION_KINDS)("on %s", (kind) => {
  const stored = () => (stores.get(kind) as { stored: StoredData }).stored;

  it("lists exactly the orders cancelled after payment, naming who served and who cancelled", async () => {
    const rows = await stored().rows("SELECT * FROM v_cancelled_after_payment");
    const expected = expectedCancelledAfterPayment();
    expect(expected.length).toBeGreaterThan(3);
    expect(ids(rows)).toEqual(expected);
    const seenPaid = rows.filter((r) => r.seen_paid === true || r.seen_paid === 1);
    expect(seenPaid.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.operator_name).toEqual(expect.any(String));
      expect(row.location_name).toEqual(expect.any(String));
      expect(Number(row.paid)).toBeGreaterThan(0);
    }
  });

  it("lists exactly the items voided or taken off after the order was closed", async () => {
    const rows = await stored().rows(
      "SELECT order_id, item_catalog_id, operator_name FROM v_items_voided_after_close",
    );
    const expected = expectedVoidedItems();
    expect(expected.length).toBeGreaterThan(2);
    expect(rows.map((r) => `${r.order_id} ${r.item_catalog_id}`).sort()).toEqual(expected);
  });

  it("sums discounts per operator and day, with those added after the fact", async () => {
    const rows = await stored().rows(
      "SELECT location_id, business_date, operator_name, orders, discounts, discounts_added_later FROM v_discounts_by_operator",
    );
    const expected = new Map<string, { orders: number; discounts: number; later: number }>();
    for (const { id, versions, now } of currentOrders()) {
      if (!isSale(now)) continue;
      const place = served.placeOf.get(id)!;
      const key = `${place.locationId} ${place.day} ${now.operatorName}`;
      const entry = expected.get(key) ?? { orders: 0, discounts: 0, later: 0 };
      entry.orders++;
      entry.discounts += cents(now.totalDiscount);
      entry.later += Math.max(
        0,
        cents(now.totalDiscount) - cents((versions[0] as Order).totalDiscount),
      );
      expected.set(key, entry);
    }
    const actual = new Map(
      rows.map((r) => [
        `${r.location_id} ${r.business_date} ${r.operator_name}`,
        {
          orders: Number(r.orders),
          discounts: cents(Number(r.discounts)),
          later: cents(Number(r.discounts_added_later)),
        },
      ]),
    );
    expect(actual).toEqual(expected);
    expect([...expected.values()].some((e) => e.later > 0)).toBe(true);
  });

  it("lists exactly the orders changed after their report was finalized", async () => {
    const rows = await stored().rows("SELECT order_id, minutes_after FROM v_changed_after_report");
    const expected = currentOrders()
      .filter(({ now }) => {
        const location = simulator.dataset.locations.find((l) => l.location.id === now.locationId)!;
        const report = simulator.dataset.report(location, now.reportId);
        return report !== undefined && Date.parse(now.updatedAt) > Date.parse(report.finalizedAt);
      })
      .map(({ id }) => id)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(rows)).toEqual(expected);
    for (const row of rows) expect(Number(row.minutes_after)).toBeGreaterThanOrEqual(0);
  });

  it("lists exactly the room transfers, the payment mismatches and the training orders with payments", async () => {
    const orders = currentOrders().map(({ now }) => now);
    const pick = (keep: (o: Order) => boolean) =>
      orders
        .filter(keep)
        .map((o) => o.id)
        .sort();
    const transfers = pick((o) => o.isTransferred);
    const mismatches = pick((o) => isSale(o) && Math.abs(cents(paid(o)) - cents(o.total)) >= 1);
    const training = pick((o) => o.isTraining === true && paid(o) > 0);
    for (const set of [transfers, mismatches, training]) expect(set.length).toBeGreaterThan(0);
    expect(ids(await stored().rows("SELECT order_id FROM v_room_transfers"))).toEqual(transfers);
    expect(ids(await stored().rows("SELECT order_id FROM v_payment_mismatches"))).toEqual(
      mismatches,
    );
    // Exactly the short payments the simulator planted (on orders that count as sales).
    const planted = simulator.dataset.locations
      .flatMap((l) => simulator.dataset.plantedAnomalies(l))
      .map((a) => a.orderId)
      .filter((id) => orders.some((o) => o.id === id && isSale(o)))
      .sort();
    expect(mismatches).toEqual(planted);
    expect(ids(await stored().rows("SELECT order_id FROM v_training_with_payments"))).toEqual(
      training,
    );
  });

  it("tells every change in plain language, with who made it and what it cost", async () => {
    const { env } = (stores.get(kind) as { into: TestDestination }).into;
    const reader = await openReadableDestination(loadConfig({ env, needsApi: false }));
    try {
      const report = await collectChanges(reader, { sinceDay: "2000-01-01" });
      // Versions whose typed rows did not change stay unsaid (none are planted here).
      const kept = Number(
        await stored().scalar(
          "SELECT COUNT(*) FROM order_versions WHERE ended_by = 'vanished' OR CAST(changed_fields AS TEXT) <> '[]'",
        ),
      );
      expect(kept).toBe(Number(await stored().scalar("SELECT COUNT(*) FROM order_versions")));
      expect(report.changes).toHaveLength(kept);
      const cancelled = report.changes.filter((c) => c.kinds.includes("cancelled"));
      expect(cancelled.length).toBeGreaterThan(0);
      for (const change of cancelled) {
        expect(describeChange(change)).toMatch(
          /^order \S+ at .+, (paid \d+\.\d\d|closed) .*cancelled(, [^,]+)* (on \d{4}-\d\d-\d\d )?at \d\d:\d\d by \S/,
        );
      }
    } finally {
      await reader.close();
    }
  });
});

/** A value as both destinations can be compared on: flags as 0/1, date-times as instants, JSON
 * text as what it encodes. */
function comparable(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value)) return Date.parse(value);
  if (typeof value === "string" && /^[[{]/.test(value)) return comparable(JSON.parse(value));
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, comparable(v)]));
  }
  return value;
}

/** Fractions within a cent: SQLite rounds binary doubles (an average of 32.275 can come out
 * 32.27), PostgreSQL exact decimals. Rows in an order that leaves fractions out, less the key
 * each database gives a row (orders.key): pages land in another order on each. */
function comparableRows(rows: Record<string, unknown>[], loosely = false) {
  const fraction = (v: unknown) => typeof v === "number" && !Number.isInteger(v);
  const loosen = (v: unknown) => (loosely && fraction(v) ? expect.closeTo(v as number, 1) : v);
  return rows
    .map(({ key: _key, ...row }) => comparable(row) as Record<string, unknown>)
    .map((row) => ({ row, order: JSON.stringify(Object.values(row).filter((v) => !fraction(v))) }))
    .sort((a, b) => a.order.localeCompare(b.order))
    .map(({ row }) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, loosen(v)])));
}

describe("every view", () => {
  it.each(VIEWS.map((view) => view.name))(
    "%s answers the same rows on both destinations",
    async (name) => {
      const [first, ...others] = await Promise.all(
        [...stores.values()].map(({ stored }) => stored.rows(`SELECT * FROM ${name}`)),
      );
      const expected = comparableRows(first ?? [], true);
      for (const rows of others) expect(comparableRows(rows)).toEqual(expected);
    },
  );
});
