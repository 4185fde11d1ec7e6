/** The pure normalizers: one API record in, rows out, no database involved. */
import { describe, expect, it } from "vitest";
import type { Order, Report } from "../src/api/schemas.js";
import { LocalClock } from "../src/clock/local-clock.js";
import { contentHash } from "../src/content-hash.js";
import {
  normalizeDevice,
  normalizeLocation,
  normalizeProduct,
  normalizeTax,
} from "../src/db/normalize/catalog.js";
import { normalizeOrder } from "../src/db/normalize/order.js";
import { normalizeReport } from "../src/db/normalize/report.js";
import { clockValues, sentTextOf } from "../src/db/rules/time-zone-change.js";
import { Dataset } from "../src/simulator/dataset.js";

const dataset = new Dataset({
  seed: 11,
  locations: 1,
  days: 10,
  today: "2026-05-20",
  ordersPerDay: [80, 120],
});
const location = dataset.locations[0]!;
const orders = [...dataset.allOrders(location)];
const context = {
  locationId: "loc-1",
  businessDate: "2026-05-18",
  clock: LocalClock.AS_SENT,
  syncedAt: "2026-05-20T10:00:00.000Z",
};

function orderWith(predicate: (o: Order) => boolean): Order {
  const found = orders.find(predicate);
  if (!found) throw new Error("the dataset lacks the case this test needs");
  return found;
}

describe("orders", () => {
  it("maps every field to its snake_case column", () => {
    const order = orderWith((o) => o.items.length > 1 && o.payments.length > 0);
    const { order: row } = normalizeOrder(order, "{}", context);
    expect(row).toMatchObject({
      id: order.id,
      location_id: "loc-1",
      business_date: "2026-05-18",
      created_at: order.createdAt,
      order_number: order.orderNumber,
      operator_name: order.operatorName,
      total: order.total,
      total_tax: order.totalTax,
      is_canceled: order.isCanceled ? 1 : 0,
      report_id: order.reportId,
      content_hash: contentHash("{}"),
      synced_at: context.syncedAt,
    });
  });

  it("stamps the hour the order was closed on the location's clock", () => {
    const order = { ...orderWith(() => true), closedAt: "2026-07-01T21:30:00.000Z" };
    expect(normalizeOrder(order, "{}", context).order.closed_hour).toBe(21);
    const paris = { ...context, clock: new LocalClock("Europe/Paris") };
    expect(normalizeOrder(order, "{}", paris).order.closed_hour).toBe(23);
    const local = { ...order, closedAt: "2026-07-01T21:30:00.000-05:00" };
    expect(normalizeOrder(local, "{}", paris).order.closed_hour).toBe(21);
  });

  it("stamps each date-time's offset on the location's clock, as a change of clock would", () => {
    const order = {
      ...orderWith(() => true),
      createdAt: "2026-03-29T00:40:00.000Z",
      closedAt: "2026-03-29T01:10:00.000Z",
      updatedAt: "2026-03-29T01:10:00.000+02:00",
    };
    const paris = { ...context, clock: new LocalClock("Europe/Paris") };
    for (const on of [context, paris]) {
      const { order: row } = normalizeOrder(order, "{}", on);
      const sent = {
        created_at: row.created_at,
        closed_at: row.closed_at,
        updated_at: row.updated_at,
      };
      expect(row).toMatchObject(clockValues("order_rows", sent, on.clock));
    }
    // Paris moves to summer time at 01:00 UTC that night: created before, closed after.
    expect(normalizeOrder(order, "{}", paris).order).toMatchObject({
      created_at_offset: 60,
      closed_at_offset: 120,
      updated_at_offset: 120,
      closed_hour: 3,
    });
    expect(normalizeOrder(order, "{}", context).order).toMatchObject({
      created_at_offset: 0,
      closed_at_offset: 0,
      closed_hour: 1,
    });
  });

  it("applies the spec's defaults to optional fields left out", () => {
    const order = orderWith(
      (o) => !("channel" in o) && !("serviceType" in o) && !("isTraining" in o),
    );
    const { order: row } = normalizeOrder(order, "{}", context);
    expect(row).toMatchObject({
      channel: "unknown",
      service_type: "unknown",
      is_training: 0,
      device_name: row.device_name,
    });
  });

  it("keeps menus and tips as JSON, tips null when the API says null", () => {
    const withNullTips = normalizeOrder(
      orderWith((o) => o.tips === null),
      "{}",
      context,
    ).order;
    expect(withNullTips.tips).toBeNull();
    const withTips = orderWith((o) => Array.isArray(o.tips) && o.tips.length > 0);
    expect(JSON.parse(normalizeOrder(withTips, "{}", context).order.tips ?? "null")).toEqual(
      withTips.tips,
    );
    expect(normalizeOrder(withTips, "{}", context).order.menus).toBe(
      JSON.stringify(withTips.menus),
    );
  });

  it("flattens item tax, turns its fraction into basis points, and keys children by position", () => {
    const order = orderWith((o) =>
      o.items.some((i) => i.modifiers.length > 0 && i.tax.taxRate === 0.055),
    );
    const rows = normalizeOrder(order, "{}", context);
    const index = order.items.findIndex((i) => i.modifiers.length > 0 && i.tax.taxRate === 0.055);
    const item = order.items[index]!;
    expect(rows.items[index]).toMatchObject({
      order_id: order.id,
      position: index,
      tax_name: item.tax.taxName,
      tax_rate: 0.055,
      tax_rate_bp: 550,
      tax_amount: item.tax.taxAmount,
      tax_catalog_id: item.tax.taxCatalogId,
      item_catalog_id: item.itemCatalogId,
    });
    const modifiers = rows.modifiers.filter((m) => m.item_position === index);
    expect(modifiers.map((m) => m.position)).toEqual(item.modifiers.map((_, i) => i));
    expect(modifiers[0]).toMatchObject({
      modifier_id: item.modifiers[0]!.modifierId,
      name: item.modifiers[0]!.name,
    });
    expect(rows.payments.map((p) => p.position)).toEqual(order.payments.map((_, i) => i));
  });

  it("stores absent item flags as null, not false", () => {
    const order = orderWith((o) =>
      o.items.some((i) => !("isLoss" in i) && !("stockImpactIndicator" in i)),
    );
    const index = order.items.findIndex((i) => !("isLoss" in i) && !("stockImpactIndicator" in i));
    expect(normalizeOrder(order, "{}", context).items[index]).toMatchObject({
      is_loss: null,
      loss_reason: null,
      stock_impact_indicator: null,
    });
  });

  it("turns an item discount into a row of its own", () => {
    const order = orderWith((o) => o.items.some((i) => i.discountsApplied.length > 0));
    const rows = normalizeOrder(order, "{}", context);
    const index = order.items.findIndex((i) => i.discountsApplied.length > 0);
    const discount = order.items[index]!.discountsApplied[0]!;
    expect(rows.discounts.find((d) => d.item_position === index)).toEqual({
      order_id: order.id,
      item_position: index,
      position: 0,
      location_id: "loc-1",
      discount_name: discount.discountName,
      discount_value: discount.discountValue,
      discount_catalog_id: discount.discountCatalogId,
    });
  });
});

describe("the text a stored date-time was sent as, where nothing kept it", () => {
  const paris = new LocalClock("Europe/Paris");
  it("is UTC when its offset is the one the clock then gave UTC text, which a new setting moves", () => {
    expect(sentTextOf("2026-07-01T21:30:00.000Z", 120, paris)).toBe("2026-07-01T21:30:00.000Z");
    expect(sentTextOf("2026-07-01T21:30:00.000Z", 0, LocalClock.AS_SENT)).toBe(
      "2026-07-01T21:30:00.000Z",
    );
  });

  it("keeps the API's own offset otherwise, which no setting moves", () => {
    const sent = sentTextOf("2026-07-01T21:30:00.000Z", -300, paris);
    expect(sent).toBe("2026-07-01T16:30:00.000-05:00");
    expect(new LocalClock("Asia/Tokyo").offsetOf(sent)).toBe(-300);
    expect(sentTextOf("2026-01-15T11:00:00.000Z", 60, LocalClock.AS_SENT)).toBe(
      "2026-01-15T12:00:00.000+01:00",
    );
  });
});

describe("reports", () => {
  const report = [...dataset.allReports(location)].find((r) => r.reportTaxes.length > 1) as Report;

  it("flattens the header and keeps rates as sent alongside basis points", () => {
    const rows = normalizeReport(report, "{}", context);
    expect(rows.report).toMatchObject({
      header_city: report.reportHeaderInfo.headerCity,
      header_siret: report.reportHeaderInfo.headerSiret,
      header_url: report.reportHeaderInfo.headerUrl ?? null,
      total_sales: report.totalSales,
      business_date: "2026-05-18",
    });
    expect(rows.taxes.map((t) => [t.tax_rate, t.tax_rate_bp])).toEqual(
      report.reportTaxes.map((t) => [t.taxRate, t.taxRate]),
    );
  });

  it("stores each clerk shift's id as clerk_id and each listed order as a row", () => {
    const rows = normalizeReport(report, "{}", context);
    expect(rows.clerkShifts[0]?.clerk_id).toBe(report.reportClerksShift[0]?.id);
    expect(rows.orders.map((o) => o.order_id)).toEqual(report.orders);
    expect(rows.orders.map((o) => o.position)).toEqual(report.orders.map((_, i) => i));
  });
});

describe("catalog and location", () => {
  it("marks a product without subcategories as archived", () => {
    const archived = location.catalog.products.find((p) => p.subCategories?.length === 0)!;
    const active = location.catalog.products.find((p) => (p.subCategories?.length ?? 0) > 0)!;
    expect(normalizeProduct(archived, "{}", context).product.is_archived).toBe(1);
    const rows = normalizeProduct(active, "{}", context);
    expect(rows.product.is_archived).toBe(0);
    expect(rows.prices.map((p) => p.tax_rate_bp)).toEqual(active.priceList.map((p) => p.taxRate));
    expect(rows.subCategories[0]).toMatchObject({
      product_id: active.id,
      sub_category_id: active.subCategories?.[0]?.id,
    });
  });

  it("gives taxes their rate in basis points", () => {
    const tax = location.catalog.taxes.find((t) => t.percentage === 550)!;
    expect(normalizeTax(tax, "{}", context)).toMatchObject({
      percentage: 550,
      tax_rate_bp: 550,
      deleted_at: null,
    });
  });

  it("maps the location with the key's fingerprint and each device with its own JSON", () => {
    const row = normalizeLocation(location.location, "{}", {
      syncedAt: context.syncedAt,
      apiKeyFingerprint: "key#abcd1234",
    });
    expect(row).toMatchObject({
      id: location.location.id,
      location_id: location.location.id,
      api_key_fingerprint: "key#abcd1234",
    });
    const device = location.devices[1]!;
    const deviceRow = normalizeDevice(device, JSON.stringify(device), 1, context);
    expect(deviceRow).toMatchObject({
      id: device.id,
      position: 1,
      name: device.name,
      model: device.model,
    });
    expect(deviceRow.content_hash).toBe(contentHash(JSON.stringify(device)));
  });
});
