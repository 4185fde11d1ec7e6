/**
 * The end-of-session report, computed from the session's orders with the spec's rules: only
 * orders that are neither cancelled, transferred nor training count in its figures, and only
 * their items that are not cancelled count per product.
 */
import type { Order, OrderItem, Report } from "../api/schemas.js";
import { formatTimestamp, type TimestampStyle } from "./clock.js";
import type { SimLocation } from "./location.js";
import { toCents, toUnits } from "./money.js";
import type { SessionHeader } from "./session.js";

export function countsInSales(order: Order): boolean {
  return !order.isCanceled && !order.isTransferred && order.isTraining !== true;
}

/** Sums cents per key, keeping the first-seen order of keys. */
class Tally<V> {
  readonly entries = new Map<string, { value: V; cents: number; extra: number }>();

  add(key: string, value: V, cents: number, extra = 0): void {
    const entry = this.entries.get(key);
    if (entry) {
      entry.cents += cents;
      entry.extra += extra;
    } else {
      this.entries.set(key, { value, cents, extra });
    }
  }

  map<T>(build: (value: V, cents: number, extra: number) => T): T[] {
    return [...this.entries.values()].map((e) => build(e.value, e.cents, e.extra));
  }
}

function countedItems(orders: readonly Order[]): OrderItem[] {
  return orders
    .filter(countsInSales)
    .flatMap((order) => order.items.filter((item) => !item.isCanceled));
}

function productLines(items: readonly OrderItem[]): Report["reportProducts"] {
  const tally = new Tally<OrderItem>();
  for (const item of items) tally.add(item.itemCatalogId, item, toCents(item.total), item.quantity);
  return tally.map((item, cents, quantity) => ({
    productName: item.description,
    productSales: toUnits(cents),
    category: item.category,
    subCategory: item.subCategory,
    productQuantity: Math.round(quantity),
    productCatalogId: item.itemCatalogId,
  }));
}

function discountLines(items: readonly OrderItem[]): Report["reportDiscounts"] {
  const tally = new Tally<{ name: string; id: string }>();
  for (const item of items) {
    for (const d of item.discountsApplied) {
      tally.add(
        d.discountCatalogId,
        { name: d.discountName, id: d.discountCatalogId },
        toCents(d.discountValue),
      );
    }
  }
  return tally.map((d, cents) => ({
    discountName: d.name,
    discountValue: toUnits(cents),
    discountCatalogId: d.id,
  }));
}

function taxLines(items: readonly OrderItem[]): Report["reportTaxes"] {
  const tally = new Tally<{ name: string; rateBp: number }>();
  for (const item of items) {
    const rateBp = Math.round(item.tax.taxRate * 10_000);
    const taxCents = toCents(item.tax.taxAmount);
    tally.add(
      String(rateBp),
      { name: item.tax.taxName, rateBp },
      taxCents,
      toCents(item.total) - taxCents,
    );
  }
  return tally.map((t, taxCents, taxableCents) => ({
    taxName: t.name,
    taxRate: t.rateBp,
    taxAmount: toUnits(taxCents),
    taxableAmount: toUnits(taxableCents),
  }));
}

function paymentLines(orders: readonly Order[]): Report["reportPayments"] {
  const tally = new Tally<string>();
  for (const order of orders.filter(countsInSales)) {
    for (const p of order.payments)
      tally.add(p.paymentName, p.paymentName, toCents(p.paymentAmount));
  }
  return tally.map((name, cents) => ({ paymentName: name, paymentAmount: toUnits(cents) }));
}

function clerkShifts(
  orders: readonly Order[],
  header: SessionHeader,
  style: TimestampStyle,
): Report["reportClerksShift"] {
  const seen = new Map<string, string>();
  for (const order of orders) seen.set(order.operatorId, order.operatorName);
  return [...seen].map(([id, name]) => ({
    name,
    id,
    clockInDate: formatTimestamp(header.startedAtMs - 15 * 60_000, style),
    clockOutDate: formatTimestamp(header.closesAtMs + 10 * 60_000, style),
  }));
}

export function buildReport(
  location: SimLocation,
  header: SessionHeader,
  orders: readonly Order[],
  updatedAtMs = header.reportCreatedAtMs,
): Report {
  const info = location.location;
  const counted = orders.filter(countsInSales);
  const items = countedItems(orders);
  const totalSalesCents = counted.reduce((sum, o) => sum + toCents(o.total), 0);
  const cashCents = counted
    .flatMap((o) => o.payments)
    .filter((p) => p.paymentName === "Cash")
    .reduce((sum, p) => sum + toCents(p.paymentAmount), 0);
  const device = location.devices[header.deviceIndex];
  const clerk = location.staff[header.clerkIndex];
  const initialCash = header.epochDay % 10 === 3 ? null : 20_000;
  const headerUrl = info.url === null ? {} : { headerUrl: info.url };

  return {
    id: header.reportId,
    createdAt: formatTimestamp(header.reportCreatedAtMs, location),
    updatedAt: formatTimestamp(Math.max(updatedAtMs, header.reportCreatedAtMs), location),
    locationId: info.id,
    startedAt: formatTimestamp(header.startedAtMs, location),
    finalizedAt: formatTimestamp(header.closesAtMs, location),
    deviceName: device?.name ?? "Till",
    deviceIdentifier: header.epochDay % 7 === 0 ? null : (device?.id ?? null),
    reportNumber: header.reportNumber,
    guestsNumber: counted.reduce((sum, o) => sum + Math.round(o.guests), 0),
    totalSales: toUnits(totalSalesCents),
    reportHeaderInfo: {
      headerAddress: info.address ?? "",
      headerCity: info.city ?? "",
      headerCountry: info.country ?? "",
      headerName: info.name ?? "",
      headerPhone: info.phone ?? "",
      headerNaf: info.naf ?? "",
      headerSiret: info.siret ?? "",
      headerText: info.text ?? "",
      headerTva: info.tva ?? "",
      headerZip: info.zip ?? "",
      ...headerUrl,
    },
    reportProducts: productLines(items),
    reportClerksShift: clerkShifts(orders, header, location),
    clerkName: clerk && header.epochDay % 9 !== 4 ? clerk.name : null,
    clerkId: clerk && header.epochDay % 9 !== 4 ? clerk.id : null,
    reportDiscounts: discountLines(items),
    reportTaxes: taxLines(items),
    reportPayments: paymentLines(orders),
    reportEntries: [
      { entryName: "Sales", entryAmount: toUnits(totalSalesCents), entryType: "sales" },
      { entryName: "Cash deposit to bank", entryAmount: -toUnits(cashCents), entryType: "" },
    ],
    initialCashBalance: initialCash,
    finalCashBalance: initialCash === null ? null : initialCash,
    orders: orders.map((o) => o.id),
  };
}
