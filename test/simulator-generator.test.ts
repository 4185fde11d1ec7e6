/** Invariants of the generated data: it adds up, it is deterministic, and it covers the cases
 * the spec describes (cancelled, transferred and training orders, optional fields, midnight). */
import { describe, expect, it } from "vitest";
import type { Order, Report } from "../src/api/schemas.js";
import { addDays, toEpochDay } from "../src/clock/days.js";
import { today } from "../src/clock/today.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { Dataset } from "../src/simulator/dataset.js";
import { decodeRecordId, encodeRecordId } from "../src/simulator/ids.js";
import { VENUES } from "../src/simulator/templates.js";

const OPTIONS = {
  seed: 7,
  locations: 2,
  days: 30,
  today: "2026-06-30",
  ordersPerDay: [50, 200] as const,
};
const dataset = new Dataset(OPTIONS);
const orders: Order[] = dataset.locations.flatMap((l) => [...dataset.allOrders(l)]);
const reports: Report[] = dataset.locations.flatMap((l) => [...dataset.allReports(l)]);
const cents = (amount: number) => Math.round(amount * 100);
const sumCents = (amounts: number[]) => amounts.reduce((sum, a) => sum + cents(a), 0);
const counts = (o: Order) => !o.isCanceled && !o.isTransferred && o.isTraining !== true;
/** Cents each planted payment-short order's payments fall short of its total, by order id. */
const shortBy = new Map(
  dataset.locations.flatMap((l) =>
    dataset.plantedAnomalies(l).map((a) => [a.orderId, cents(a.shortBy)] as const),
  ),
);

describe("determinism", () => {
  it("gives the same data for the same seed", () => {
    const again = new Dataset(OPTIONS);
    for (const location of again.locations) {
      const original = dataset.locations[location.index]!;
      expect(location.apiKey).toBe(original.apiKey);
      expect(location.catalog).toEqual(original.catalog);
      expect([...again.allOrders(location)]).toEqual([...dataset.allOrders(original)]);
      expect([...again.allReports(location)]).toEqual([...dataset.allReports(original)]);
    }
  });

  it("gives different data for another seed", () => {
    const other = new Dataset({ ...OPTIONS, seed: 8 });
    expect(other.locations[0]?.apiKey).not.toBe(dataset.locations[0]?.apiKey);
    expect([...other.allOrders(other.locations[0]!)][0]?.id).not.toBe(orders[0]?.id);
  });

  it("regenerates an evicted session identically", () => {
    const tiny = new Dataset({ ...OPTIONS, cachedOrders: 1 });
    const location = tiny.locations[0]!;
    const day = toEpochDay("2026-06-10");
    const first = structuredClone(tiny.session(location, day));
    tiny.session(location, day + 1);
    expect(tiny.session(location, day)).toEqual(first);
  });
});

describe("orders add up", () => {
  it("has totals equal to the sums over items that are not cancelled", () => {
    for (const order of orders) {
      const live = order.items.filter((i) => !i.isCanceled);
      expect(cents(order.total)).toBe(sumCents(live.map((i) => i.total)));
      expect(cents(order.totalTax)).toBe(sumCents(live.map((i) => i.tax.taxAmount)));
      expect(cents(order.totalDiscount)).toBe(
        sumCents(live.flatMap((i) => i.discountsApplied.map((d) => d.discountValue))),
      );
    }
  });

  it("has payments that add up to the total for every paid order but the planted short ones", () => {
    const paid = orders.filter((o) => o.payments.length > 0);
    expect(paid.length).toBeGreaterThan(orders.length / 2);
    expect(shortBy.size).toBeGreaterThan(0);
    for (const order of paid)
      expect(sumCents(order.payments.map((p) => p.paymentAmount))).toBe(
        cents(order.total) - (shortBy.get(order.id) ?? 0),
      );
    for (const order of orders.filter(counts)) {
      if (order.total > 0) expect(order.payments.length).toBeGreaterThan(0);
    }
  });

  it("has item taxes included in the item total at the item's rate", () => {
    for (const item of orders.flatMap((o) => o.items)) {
      const rate = item.tax.taxRate;
      expect([0.055, 0.1, 0.2]).toContain(rate);
      const expected = (cents(item.total) * rate) / (1 + rate);
      expect(Math.abs(cents(item.tax.taxAmount) - expected)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });
});

describe("reports agree with their orders", () => {
  const ordersOf = (report: Report) => orders.filter((o) => o.reportId === report.id);

  it("lists exactly the orders that point to it", () => {
    for (const report of reports)
      expect([...report.orders].sort()).toEqual(
        ordersOf(report)
          .map((o) => o.id)
          .sort(),
      );
  });

  it("has totalSales excluding cancelled, transferred and training orders", () => {
    for (const report of reports) {
      expect(cents(report.totalSales)).toBe(
        sumCents(
          ordersOf(report)
            .filter(counts)
            .map((o) => o.total),
        ),
      );
    }
  });

  it("has payment, tax, product and discount lines that add up", () => {
    for (const report of reports) {
      const counted = ordersOf(report).filter(counts);
      const items = counted.flatMap((o) => o.items.filter((i) => !i.isCanceled));
      const short = counted.reduce((sum, o) => sum + (shortBy.get(o.id) ?? 0), 0);
      expect(sumCents(report.reportPayments.map((p) => p.paymentAmount))).toBe(
        cents(report.totalSales) - short,
      );
      expect(sumCents(report.reportProducts.map((p) => p.productSales))).toBe(
        cents(report.totalSales),
      );
      expect(sumCents(report.reportTaxes.map((t) => t.taxAmount))).toBe(
        sumCents(items.map((i) => i.tax.taxAmount)),
      );
      expect(sumCents(report.reportTaxes.map((t) => t.taxAmount + t.taxableAmount))).toBe(
        cents(report.totalSales),
      );
      expect(sumCents(report.reportDiscounts.map((d) => d.discountValue))).toBe(
        sumCents(items.flatMap((i) => i.discountsApplied.map((d) => d.discountValue))),
      );
      const quantity = report.reportProducts.reduce((sum, p) => sum + p.productQuantity, 0);
      expect(quantity).toBe(items.reduce((sum, i) => sum + i.quantity, 0));
      expect(report.guestsNumber).toBe(counted.reduce((sum, o) => sum + o.guests, 0));
      for (const tax of report.reportTaxes) expect([550, 1000, 2000]).toContain(tax.taxRate);
    }
  });

  it("still adds up after late updates", () => {
    const changed = new Dataset(OPTIONS);
    const updates = changed.applyLateUpdates(20, 5);
    expect(new Set(updates.map((u) => u.kind)).size).toBe(3);
    for (const update of updates) {
      const location = changed.locations[update.locationIndex]!;
      const order = changed.order(location, update.orderId)!;
      const report = changed.report(location, order.reportId)!;
      const counted = [...changed.allOrders(location)].filter(
        (o) => o.reportId === report.id && counts(o),
      );
      expect(cents(report.totalSales)).toBe(sumCents(counted.map((o) => o.total)));
      expect(sumCents(order.payments.map((p) => p.paymentAmount))).toBe(
        order.payments.length ? cents(order.total) : 0,
      );
    }
  });
});

describe("sessions and days", () => {
  it("has one report per closed session and none for today's open session", () => {
    for (const location of dataset.locations) {
      const sessions = [...dataset.sessionsOf(location)];
      expect(sessions).toHaveLength(OPTIONS.days);
      expect(sessions.filter((s) => s.report === null).map((s) => s.header.day)).toEqual([
        OPTIONS.today,
      ]);
    }
  });

  it("ends by default on a day every location's own clock has reached, whatever the hour", () => {
    const everyVenue = new Dataset({ ...OPTIONS, locations: VENUES.length });
    for (let hour = 0; hour < 24; hour++) {
      const now = new Date(Date.UTC(2026, 10, 24, hour, 30));
      const localTodays = everyVenue.locations.map((l) => today(now, l.offsetMinutes));
      const simulated = simulatorToday(now);
      expect(
        localTodays.filter((day) => day < simulated),
        `at ${hour}:30 UTC`,
      ).toEqual([]);
      expect(localTodays).toContain(simulated);
    }
  });

  it("keeps full days within the orders-per-day range", () => {
    for (const location of dataset.locations) {
      for (const session of dataset.sessionsOf(location)) {
        if (session.header.open) continue;
        expect(session.orders.length).toBeGreaterThanOrEqual(50);
        expect(session.orders.length).toBeLessThanOrEqual(200);
      }
    }
  });

  it("has orders created just after local midnight, bucketed on the next day", () => {
    const afterMidnight = orders.filter((o) => o.createdAt.slice(11, 13) === "00");
    expect(afterMidnight.length).toBeGreaterThan(0);
    for (const order of afterMidnight) {
      const location = dataset.locations.find((l) => l.location.id === order.locationId)!;
      const report = dataset.report(location, order.reportId)!;
      expect(report.startedAt.slice(0, 10)).toBe(addDays(order.createdAt.slice(0, 10), -1));
      const bucket = dataset.ordersCreatedOn(location, toEpochDay(order.createdAt.slice(0, 10)));
      expect(bucket.map((o) => o.id)).toContain(order.id);
    }
  });

  it("writes timestamps in ISO 8601 with the location's offset", () => {
    for (const order of orders.slice(0, 500)) {
      expect(order.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
      expect(Date.parse(order.closedAt)).toBeLessThan(Date.parse(order.createdAt));
      expect(Date.parse(order.openedAt)).toBeLessThan(Date.parse(order.closedAt));
      expect(Date.parse(order.updatedAt)).toBeGreaterThanOrEqual(Date.parse(order.createdAt));
    }
  });
});

describe("coverage of the spec's cases", () => {
  const share = (predicate: (o: Order) => boolean) => orders.filter(predicate).length;

  it("has cancelled, transferred and training orders", () => {
    expect(share((o) => o.isCanceled && o.cancelReason !== null)).toBeGreaterThan(0);
    expect(share((o) => o.isTransferred && o.transferReason !== null)).toBeGreaterThan(0);
    expect(share((o) => o.isTraining === true)).toBeGreaterThan(0);
  });

  it("has cancelled, lost, weighed, discounted and modified items", () => {
    const items = orders.flatMap((o) => o.items);
    expect(items.filter((i) => i.isCanceled).length).toBeGreaterThan(0);
    expect(items.filter((i) => i.isLoss === true && i.lossReason).length).toBeGreaterThan(0);
    expect(items.filter((i) => i.weight !== null).length).toBeGreaterThan(0);
    expect(items.filter((i) => i.discountsApplied.length > 0).length).toBeGreaterThan(0);
    expect(items.filter((i) => i.modifiers.length > 0).length).toBeGreaterThan(0);
  });

  it("leaves optional fields out and nullable fields null some of the time", () => {
    for (const field of ["deviceName", "channel", "serviceType", "isTraining"] as const) {
      expect(
        share((o) => !(field in o)),
        field,
      ).toBeGreaterThan(0);
      expect(
        share((o) => field in o),
        field,
      ).toBeGreaterThan(0);
    }
    for (const field of [
      "customerId",
      "deviceId",
      "externalOrderId",
      "externalLocationId",
      "tips",
    ] as const) {
      expect(
        share((o) => o[field] === null),
        field,
      ).toBeGreaterThan(0);
      expect(
        share((o) => o[field] !== null),
        field,
      ).toBeGreaterThan(0);
    }
    const items = orders.flatMap((o) => o.items);
    for (const field of [
      "stockImpactIndicator",
      "isLoss",
      "lossReason",
      "comboParentId",
    ] as const) {
      expect(items.filter((i) => !(field in i)).length, field).toBeGreaterThan(0);
    }
    expect(reports.filter((r) => r.clerkId === null).length).toBeGreaterThan(0);
    expect(reports.filter((r) => r.initialCashBalance === null).length).toBeGreaterThan(0);
  });

  it("has a catalog with archived products, tax rates 550/1000/2000 and a disabled payment method", () => {
    const { catalog } = dataset.locations[0]!;
    expect(catalog.products.some((p) => p.subCategories?.length === 0)).toBe(true);
    expect(catalog.taxes.map((t) => t.percentage).sort((a, b) => a - b)).toEqual([550, 1000, 2000]);
    const rates = new Set(catalog.products.flatMap((p) => p.priceList.map((e) => e.taxRate)));
    expect([...rates].sort((a, b) => a - b)).toEqual([550, 1000, 2000]);
    expect(catalog.paymentMethods.some((m) => !m.enabled)).toBe(true);
    expect(catalog.categories.map((c) => c.index)).toEqual(catalog.categories.map((_, i) => i));
  });
});

describe("record ids", () => {
  it("decode to where the record lives, and only for the seed that made them", () => {
    const address = {
      kind: "order",
      locationIndex: 3,
      sessionEpochDay: 20_500,
      sequence: 117,
    } as const;
    const id = encodeRecordId(7, address);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(decodeRecordId(7, id)).toEqual(address);
    expect(decodeRecordId(7, id.toUpperCase())).toEqual(address);
    expect(decodeRecordId(8, id)).toBeUndefined();
    expect(decodeRecordId(7, "0f8fad5b-d9cb-469f-a165-70867728950e")).toBeUndefined();
  });

  it("are unique across the dataset", () => {
    expect(new Set(orders.map((o) => o.id)).size).toBe(orders.length);
    expect(new Set(reports.map((r) => r.id)).size).toBe(reports.length);
  });
});
