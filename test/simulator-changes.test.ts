/** After-the-fact order changes and planted anomalies of the simulator: planned from the seed at
 * realistic rates, served once the simulated clock has passed them, and consistent with the
 * reports. */
import { describe, expect, it } from "vitest";
import type { Order, Report } from "../src/api/schemas.js";
import { toEpochDay } from "../src/clock/days.js";
import { formatTimestamp } from "../src/simulator/clock.js";
import { Dataset, type DatasetOptions } from "../src/simulator/dataset.js";
import type { PlannedChange } from "../src/simulator/ground-truth.js";
import {
  CHANGE_DELAY_MS,
  DEFAULT_CHANGE_RATES,
  type OrderChangeKind,
} from "../src/simulator/order-changes.js";
import { startSimulator } from "../src/simulator/server.js";
import { LATE_CANCEL_REASONS, LATE_VOID_REASON } from "../src/simulator/templates.js";

const OPTIONS: DatasetOptions = {
  seed: 11,
  locations: 2,
  days: 20,
  today: "2026-06-30",
  ordersPerDay: [300, 300],
};
const cents = (amount: number) => Math.round(amount * 100);
const sumCents = (amounts: number[]) => amounts.reduce((sum, a) => sum + cents(a), 0);
const paidCents = (order: Order) => sumCents(order.payments.map((p) => p.paymentAmount));
const counts = (o: Order) => !o.isCanceled && !o.isTransferred && o.isTraining !== true;

const withChanges = new Dataset(OPTIONS);
const withoutChanges = new Dataset({ ...OPTIONS, changeRate: 0 });
const ordersOf = (dataset: Dataset) =>
  new Map(dataset.locations.flatMap((l) => [...dataset.allOrders(l)].map((o) => [o.id, o])));
const changes = withChanges.locations.flatMap((l) => withChanges.plannedChanges(l));
const anomalies = withChanges.locations.flatMap((l) => withChanges.plantedAnomalies(l));
const served = ordersOf(withChanges);
const asGenerated = ordersOf(withoutChanges);

/** The orders each kind can happen to, as the POS would judge them before any change. */
const ELIGIBLE: Record<OrderChangeKind | "payment-short", (o: Order) => boolean> = {
  "cancel-after-payment": (o) =>
    o.payments.length > 0 && !o.isCanceled && !o.isTransferred && o.isTraining !== true,
  "void-item": (o) => !o.isCanceled && o.isTraining !== true && o.items.some((i) => !i.isCanceled),
  "add-discount": (o) =>
    !o.isCanceled &&
    o.isTraining !== true &&
    o.items.some((i) => !i.isCanceled && i.isLoss !== true && i.discountsApplied.length === 0),
  "payment-short": (o) => o.payments.length > 0 && !o.isCanceled && !o.isTransferred,
};

/** Changes grouped by order, each order's oldest first. */
function byOrder(list: readonly PlannedChange[]): PlannedChange[][] {
  const groups = new Map<string, PlannedChange[]>();
  for (const change of list)
    groups.set(change.orderId, [...(groups.get(change.orderId) ?? []), change]);
  return [...groups.values()];
}

function reportOf(dataset: Dataset, order: Order): Report | undefined {
  const location = dataset.locations.find((l) => l.location.id === order.locationId);
  return location && dataset.report(location, order.reportId);
}

describe("planning", () => {
  it("plans the same changes and anomalies for the same seed, and others for another", () => {
    const again = new Dataset(OPTIONS);
    const other = new Dataset({ ...OPTIONS, seed: 12 });
    for (const location of withChanges.locations) {
      expect(again.plannedChanges(location)).toEqual(withChanges.plannedChanges(location));
      expect(again.plantedAnomalies(location)).toEqual(withChanges.plantedAnomalies(location));
    }
    const ids = (list: { orderId: string }[]) => list.map((c) => c.orderId);
    expect(ids(other.plannedChanges(other.locations[0]!))).not.toEqual(
      ids(withChanges.plannedChanges(withChanges.locations[0]!)),
    );
  });

  it("changes about the default share of the orders each kind can happen to", () => {
    const generated = [...asGenerated.values()];
    expect(generated.length).toBeGreaterThan(11_000);
    for (const kind of Object.keys(ELIGIBLE) as (keyof typeof ELIGIBLE)[]) {
      const eligible = generated.filter(ELIGIBLE[kind]).length;
      const planned =
        kind === "payment-short" ? anomalies.length : changes.filter((c) => c.kind === kind).length;
      const rate = planned / eligible;
      // Second changes add a little on top of each kind's own rate.
      expect(rate, kind).toBeGreaterThan(DEFAULT_CHANGE_RATES[kind] * 0.5);
      expect(rate, kind).toBeLessThan(DEFAULT_CHANGE_RATES[kind] * 2);
    }
  });

  it("changes about one changed order in seven a second time, in another way", () => {
    const changed = byOrder(changes);
    const twice = changed.filter((steps) => steps.length === 2);
    expect(changed.every((steps) => steps.length <= 2)).toBe(true);
    expect(twice.length / changed.length).toBeGreaterThan(0.07);
    expect(twice.length / changed.length).toBeLessThan(0.25);
    for (const [first, second] of twice) expect(first?.kind).not.toBe(second?.kind);
  });

  it("times each change 20 minutes to 28 hours after closing, later ones after earlier ones", () => {
    const [minDelay, maxDelay] = CHANGE_DELAY_MS;
    for (const steps of byOrder(changes)) {
      const order = asGenerated.get(steps[0]?.orderId ?? "")!;
      let previous = Date.parse(order.updatedAt);
      for (const step of steps) {
        const delay = step.atMs - Date.parse(order.closedAt);
        expect(delay).toBeGreaterThanOrEqual(minDelay);
        expect(delay).toBeLessThanOrEqual(maxDelay);
        expect(step.atMs).toBeGreaterThan(previous);
        previous = step.atMs;
      }
    }
  });

  it("has about half the changes made by whoever served the order, the rest by colleagues", () => {
    const staff = new Map(
      withChanges.locations.flatMap((l) => l.staff.map((s) => [s.id, s.name] as const)),
    );
    let byServer = 0;
    for (const change of changes) {
      expect(staff.get(change.operatorId)).toBe(change.operatorName);
      if (asGenerated.get(change.orderId)?.operatorId === change.operatorId) byServer++;
    }
    expect(byServer / changes.length).toBeGreaterThan(0.3);
    expect(byServer / changes.length).toBeLessThan(0.7);
  });

  it("plans nothing with changeRate 0, and rejects a negative one", () => {
    for (const location of withoutChanges.locations) {
      expect(withoutChanges.plannedChanges(location)).toEqual([]);
      expect(withoutChanges.plantedAnomalies(location)).toEqual([]);
    }
    expect(() => new Dataset({ ...OPTIONS, changeRate: -1 })).toThrow(RangeError);
  });

  it("scales every rate with changeRate", () => {
    const busy = new Dataset({ ...OPTIONS, days: 5, changeRate: 10 });
    const location = busy.locations[0]!;
    const plain = changes.filter((c) => c.locationIndex === 0 && c.day >= busy.firstDay);
    expect(busy.plannedChanges(location).length).toBeGreaterThan(plain.length * 5);
  });
});

describe("serving", () => {
  it("serves orders without a plan exactly as generated with changes off", () => {
    const planned = new Set([...changes, ...anomalies].map((c) => c.orderId));
    expect(served.size).toBe(asGenerated.size);
    let unplanned = 0;
    for (const [id, order] of asGenerated) {
      if (planned.has(id)) continue;
      expect(JSON.stringify(served.get(id))).toBe(JSON.stringify(order));
      unplanned++;
    }
    expect(unplanned).toBeGreaterThan(asGenerated.size * 0.95);
  });

  it("serves orders whose changes are not due yet as generated", () => {
    const pending = changes.filter((c) => !c.visible);
    expect(pending.length).toBeGreaterThan(0);
    const due = new Set(changes.filter((c) => c.visible).map((c) => c.orderId));
    for (const change of pending.filter((c) => !due.has(c.orderId)))
      expect(served.get(change.orderId)).toEqual(asGenerated.get(change.orderId));
  });

  it("serves a payment-short order with its last payment short of the total", () => {
    expect(anomalies.length).toBeGreaterThan(0);
    for (const anomaly of anomalies) {
      const order = served.get(anomaly.orderId)!;
      const original = asGenerated.get(anomaly.orderId)!;
      expect(anomaly.kind).toBe("payment-short");
      expect(anomaly.shortBy).toBeGreaterThan(0);
      expect(anomaly.shortBy).toBeLessThanOrEqual(5);
      expect(paidCents(order)).toBe(cents(order.total) - cents(anomaly.shortBy));
      expect(order.payments.at(-1)!.paymentAmount).toBeGreaterThan(0);
      expect(order.updatedAt).toBe(original.updatedAt);
      expect({ ...order, payments: [] }).toEqual({ ...original, payments: [] });
    }
  });

  it("keeps every report in agreement with the orders it serves", () => {
    const shortBy = new Map(anomalies.map((a) => [a.orderId, cents(a.shortBy)]));
    const changedAt = new Map<string, number>();
    for (const change of changes.filter((c) => c.visible))
      changedAt.set(change.orderId, Math.max(change.atMs, changedAt.get(change.orderId) ?? 0));
    for (const location of withChanges.locations) {
      for (const report of withChanges.allReports(location)) {
        const orders = report.orders.map((id) => served.get(id)!);
        const counted = orders.filter(counts);
        const short = counted.reduce((sum, o) => sum + (shortBy.get(o.id) ?? 0), 0);
        expect(cents(report.totalSales)).toBe(sumCents(counted.map((o) => o.total)));
        expect(sumCents(report.reportPayments.map((p) => p.paymentAmount))).toBe(
          cents(report.totalSales) - short,
        );
        expect(sumCents(report.reportProducts.map((p) => p.productSales))).toBe(
          cents(report.totalSales),
        );
        expect(sumCents(report.reportDiscounts.map((d) => d.discountValue))).toBe(
          sumCents(counted.map((o) => o.totalDiscount)),
        );
        for (const order of orders) {
          const at = changedAt.get(order.id);
          if (at !== undefined) expect(Date.parse(report.updatedAt)).toBeGreaterThanOrEqual(at);
        }
      }
    }
  });
});

describe("time passing", () => {
  /** A busy dataset, so that every kind has a change due within the next day. */
  const BUSY: DatasetOptions = { ...OPTIONS, days: 6, ordersPerDay: [100, 100], changeRate: 10 };

  /** The first changes of orders still served unchanged that fall due before the same time
   * tomorrow, their orders' next changes (if any) after it: advanceDay reveals exactly them. */
  function dueTomorrow(dataset: Dataset): PlannedChange[] {
    const all = dataset.locations.flatMap((l) => dataset.plannedChanges(l));
    return byOrder(all).flatMap(([first, second]) => {
      if (!first || first.visible) return [];
      const tomorrowMs = dataset.nowAt(dataset.locations[first.locationIndex]!) + 86_400_000;
      const alone = second === undefined || second.atMs > tomorrowMs;
      return first.atMs <= tomorrowMs && alone ? [first] : [];
    });
  }

  it("serves a change only once the simulated clock has passed it, with its figures", () => {
    const dataset = new Dataset(BUSY);
    const reference = new Dataset({ ...BUSY, changeRate: 0 });
    const pending = dueTomorrow(dataset);
    expect(pending.length).toBeGreaterThan(5);
    const before = new Map(pending.map((c) => [c.orderId, orderById(dataset, c)]));
    for (const change of pending)
      expect(before.get(change.orderId)).toEqual(orderById(reference, change));

    dataset.advanceDay();
    expect(new Set(pending.map((c) => c.kind))).toEqual(
      new Set(["cancel-after-payment", "void-item", "add-discount"]),
    );
    for (const change of pending) {
      const original = before.get(change.orderId)!;
      const location = dataset.locations[change.locationIndex]!;
      const order = orderById(dataset, change);
      expect(order.updatedAt).toBe(formatTimestamp(change.atMs, location));
      expect(order.operatorId).toBe(change.operatorId);
      expect(order.operatorName).toBe(change.operatorName);
      expectChanged(change.kind, original, order);
      const listed = dataset
        .ordersCreatedOn(location, toEpochDay(order.createdAt.slice(0, 10)))
        .find((o) => o.id === order.id);
      expect(listed).toEqual(order);
      const report = reportOf(dataset, order);
      if (!report) continue;
      expect(Date.parse(report.updatedAt)).toBeGreaterThanOrEqual(change.atMs);
      const counted = report.orders.map((id) => orderById(dataset, { ...change, orderId: id }));
      expect(cents(report.totalSales)).toBe(sumCents(counted.filter(counts).map((o) => o.total)));
    }
  });

  it("lets an explicit late update win over a planned change", () => {
    const dataset = new Dataset(BUSY);
    const change = dueTomorrow(dataset)[0]!;
    const location = dataset.locations[change.locationIndex]!;
    const updated = dataset.updateOrder(location, change.orderId)!;
    dataset.advanceDay();
    expect(orderById(dataset, change)).toEqual(updated);
  });

  function orderById(dataset: Dataset, change: Pick<PlannedChange, "locationIndex" | "orderId">) {
    const order = dataset.order(dataset.locations[change.locationIndex]!, change.orderId);
    if (!order) throw new Error(`no order ${change.orderId}`);
    return order;
  }

  function expectChanged(kind: OrderChangeKind, original: Order, order: Order): void {
    const liveItems = order.items.filter((i) => !i.isCanceled);
    expect(cents(order.total)).toBe(sumCents(liveItems.map((i) => i.total)));
    expect(cents(order.totalTax)).toBe(sumCents(liveItems.map((i) => i.tax.taxAmount)));
    expect(cents(order.totalDiscount)).toBe(
      sumCents(liveItems.flatMap((i) => i.discountsApplied.map((d) => d.discountValue))),
    );
    if (kind === "cancel-after-payment") {
      expect(original.isCanceled).toBe(false);
      expect(order.isCanceled).toBe(true);
      expect(LATE_CANCEL_REASONS).toContain(order.cancelReason);
      expect(order.payments).toEqual(original.payments);
      expect(order.total).toBe(original.total);
      return;
    }
    expect(order.isCanceled).toBe(false);
    expect(paidCents(order)).toBe(original.payments.length > 0 ? cents(order.total) : 0);
    expect(order.payments.length).toBeLessThanOrEqual(1);
    if (kind === "void-item") {
      const voided = order.items.filter(
        (item, i) => item.isCanceled && !original.items[i]?.isCanceled,
      );
      expect(voided).toHaveLength(1);
      expect(voided[0]?.cancelReason).toBe(LATE_VOID_REASON);
      expect(cents(order.total)).toBe(cents(original.total) - cents(voided[0]!.total));
    } else {
      const discounted = order.items.filter(
        (item, i) =>
          item.discountsApplied.length > (original.items[i]?.discountsApplied.length ?? 0),
      );
      expect(discounted).toHaveLength(1);
      expect(order.totalDiscount).toBeGreaterThan(original.totalDiscount);
      expect(cents(order.total)).toBe(
        cents(original.total) - cents(discounted[0]!.discountsApplied[0]!.discountValue),
      );
    }
  }
});

describe("the simulator server", () => {
  it("takes changeRate among its options", async () => {
    const simulator = await startSimulator({ ...OPTIONS, days: 3, port: 0, changeRate: 0 });
    try {
      const { dataset } = simulator;
      expect(dataset.locations.flatMap((l) => dataset.plannedChanges(l))).toEqual([]);
    } finally {
      await simulator.close();
    }
  });
});
