/**
 * A till session: one day of trading at one location, from opening to the end-of-session
 * report. The header (times, report id, size) is drawn before any order so that reports can be
 * listed without generating their orders. Some sessions run past local midnight, so their last
 * orders (and their report) fall on the next calendar day, as they do in real restaurants.
 */
import type { Order, OrderItem } from "../api/schemas.js";
import { dayFromEpoch } from "../clock/days.js";
import { formatTimestamp, localMidnight } from "./clock.js";
import { encodeRecordId } from "./ids.js";
import type { SimLocation } from "./location.js";
import { PRICE_TIERS } from "./location.js";
import { includedTaxCents, toUnits } from "./money.js";
import { orderTotals, settlePayments } from "./order-totals.js";
import { Random } from "./random.js";
import { CANCEL_REASONS, LOSS_REASONS, PAYMENT_METHODS } from "./templates.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface SessionHeader {
  locationIndex: number;
  epochDay: number;
  day: string;
  reportId: string;
  reportNumber: number;
  /** The session still trading (today's): orders up to `visibleUntilMs`, no report yet. */
  open: boolean;
  startedAtMs: number;
  /** When the till closes; drawn the same whether or not the session is open. */
  closesAtMs: number;
  /** The open session's "now": its orders created later do not exist yet. */
  visibleUntilMs: number;
  reportCreatedAtMs: number;
  /** Orders of the whole session, open or not: today shows the first ones. */
  orderCount: number;
  deviceIndex: number;
  clerkIndex: number;
  /** Items per order when fixed by the plan; else they follow the guests. */
  itemsPerOrder: readonly [number, number] | undefined;
}

export interface SessionPlan {
  seed: number;
  firstEpochDay: number;
  todayEpochDay: number;
  ordersPerDay: readonly [number, number];
  itemsPerOrder?: readonly [number, number] | undefined;
}

/** How far into the day the open session has got. */
const OPEN_SESSION_HOUR = 18;

/** The simulator's "now" at a location: today's open session has got this far, so nothing
 * later (orders, after-the-fact changes) has happened yet. */
export function simulatedNowMs(todayEpochDay: number, offsetMinutes: number): number {
  return localMidnight(todayEpochDay, offsetMinutes) + OPEN_SESSION_HOUR * HOUR;
}

/**
 * A session's shape, drawn before its orders and independently of whether it is open, so that
 * when a day ends the orders it showed while open are still there, with more after them.
 */
export function sessionHeader(
  plan: SessionPlan,
  location: SimLocation,
  epochDay: number,
): SessionHeader {
  const random = new Random(plan.seed, `session:${location.index}:${epochDay}:header`);
  const midnight = localMidnight(epochDay, location.offsetMinutes);
  const open = epochDay === plan.todayEpochDay;
  const startedAtMs = midnight + 10.5 * HOUR + random.int(0, 60) * MINUTE;
  const runsPastMidnight = random.chance(0.2);
  const closesAtMs = runsPastMidnight
    ? midnight + 24 * HOUR + random.int(15, 45) * MINUTE
    : midnight + 22.75 * HOUR + random.int(0, 65) * MINUTE;
  const [minOrders, maxOrders] = plan.ordersPerDay;
  const orderCount = random.int(minOrders, maxOrders);
  return {
    locationIndex: location.index,
    epochDay,
    day: dayFromEpoch(epochDay),
    reportId: encodeRecordId(plan.seed, {
      kind: "report",
      locationIndex: location.index,
      sessionEpochDay: epochDay,
      sequence: 0,
    }),
    reportNumber: epochDay - plan.firstEpochDay + 1,
    open,
    startedAtMs,
    closesAtMs,
    visibleUntilMs: open
      ? simulatedNowMs(epochDay, location.offsetMinutes)
      : Number.POSITIVE_INFINITY,
    reportCreatedAtMs: closesAtMs + random.int(60, 300) * 1000,
    orderCount,
    deviceIndex: random.int(0, location.devices.length - 1),
    clerkIndex: random.int(0, location.staff.length - 1),
    itemsPerOrder: plan.itemsPerOrder,
  };
}

/** Order creation times: a lunch rush, a dinner rush, and a trickle in between. */
function orderTimes(random: Random, header: SessionHeader, offsetMinutes: number): number[] {
  const midnight = localMidnight(header.epochDay, offsetMinutes);
  const first = header.startedAtMs + 10 * MINUTE;
  const last = header.closesAtMs - 3 * MINUTE;
  const windows: [number, number, number][] = [
    [midnight + 12 * HOUR, midnight + 14.5 * HOUR, 45],
    [midnight + 19 * HOUR, last, 45],
    [first, last, 10],
  ];
  const usable = windows.filter(([start, end]) => start >= first && end > start && end <= last);
  const times: number[] = [];
  for (let i = 0; i < header.orderCount; i++) {
    const [start, end] = random.weighted(usable.map((w) => [w, w[2]] as const));
    times.push(start + Math.floor(random.next() * (end - start)));
  }
  return times.sort((a, b) => a - b);
}

type ServiceType = "eatin" | "takeout" | "delivery" | "unknown";

function generateItem(
  random: Random,
  location: SimLocation,
  tierName: string,
  isTransferred: boolean,
  transferReason: string | null,
): OrderItem {
  const sellable = random.pick(location.sellable);
  const price = sellable.prices.get(tierName);
  if (!price) throw new Error(`product ${sellable.product.id} has no price for ${tierName}`);
  const modifiers = sellable.modifiers.flatMap((group) => {
    if (!random.chance(0.7)) return [];
    const option = random.pick(group.options);
    return [
      {
        modifierGroupId: group.id,
        modifierId: option.id,
        name: option.name,
        priceCents: Math.round(option.price * 100),
      },
    ];
  });
  const unitCents = price.cents + modifiers.reduce((sum, m) => sum + m.priceCents, 0);
  const weight = sellable.soldByWeight ? random.int(250, 800) / 1000 : null;
  const quantity =
    weight === null
      ? random.weighted([
          [1, 75],
          [2, 20],
          [3, 5],
        ] as const)
      : 1;
  const grossCents = weight === null ? unitCents * quantity : Math.round(unitCents * weight);
  const discount = random.chance(0.06) ? random.pick(location.discounts) : undefined;
  const discountCents = discount ? Math.round((grossCents * discount.percent) / 100) : 0;
  const lossFieldsPresent = random.chance(0.7);
  const isLoss = lossFieldsPresent && random.chance(0.015);
  const totalCents = isLoss ? 0 : grossCents - discountCents;
  const tax = location.taxByRate.get(price.rateBp);
  if (!tax) throw new Error(`no tax for rate ${price.rateBp}`);
  const isCanceled = random.chance(0.02);

  const item: OrderItem = {
    description: sellable.product.name,
    quantity,
    weight,
    unitPrice: toUnits(unitCents),
    total: toUnits(totalCents),
    category: sellable.categoryName,
    subCategory: sellable.subCategoryName,
    isCanceled,
    cancelReason: isCanceled ? random.pick(CANCEL_REASONS) : null,
    tier: tierName,
    isTransferred,
    transferReason,
    discountsApplied:
      discount && !isLoss
        ? [
            {
              discountName: discount.name,
              discountValue: toUnits(discountCents),
              discountCatalogId: discount.id,
            },
          ]
        : [],
    modifiers: modifiers.map(({ modifierGroupId, modifierId, name }) => ({
      modifierGroupId,
      modifierId,
      name,
    })),
    tax: {
      taxName: tax.name,
      taxRate: price.rateBp / 10_000,
      taxAmount: toUnits(includedTaxCents(totalCents, price.rateBp)),
      taxCatalogId: tax.id,
    },
    itemCatalogId: sellable.product.id,
  };
  if (random.chance(0.7)) item.stockImpactIndicator = random.chance(0.95);
  if (lossFieldsPresent) {
    item.isLoss = isLoss;
    item.lossReason = isLoss ? random.pick(LOSS_REASONS) : null;
  }
  if (random.chance(0.5)) item.comboParentId = null;
  return item;
}

function optionalFields(
  random: Random,
  serviceType: ServiceType,
  deviceName: string,
): Partial<Order> {
  const fields: Partial<Order> = {};
  const deviceRoll = random.next();
  if (deviceRoll < 0.6) fields.deviceName = deviceName;
  else if (deviceRoll < 0.7) fields.deviceName = null;
  if (random.chance(0.6)) fields.channel = random.pick(["pos", "kiosk", "online"]);
  if (random.chance(0.95)) fields.serviceType = serviceType;
  const trainingRoll = random.next();
  if (trainingRoll < 0.02) fields.isTraining = true;
  else if (trainingRoll < 0.5) fields.isTraining = false;
  return fields;
}

function tips(random: Random): Order["tips"] {
  const roll = random.next();
  if (roll < 0.4) return null;
  if (roll < 0.85) return [];
  return [{ amount: random.int(1, 10) / 2, method: "Card" }];
}

function pickPaymentMethods(random: Random, location: SimLocation) {
  const enabled = PAYMENT_METHODS.filter((m) => m.enabled);
  const byName = (name: string) => location.catalog.paymentMethods.find((m) => m.name === name);
  const firstName = random.weighted(enabled.map((m) => [m.name, m.weight] as const));
  const first = byName(firstName);
  if (!first) return [];
  if (!random.chance(0.15)) return [first];
  const second = byName(random.pick(enabled.filter((m) => m.name !== firstName)).name);
  return second ? [first, second] : [first];
}

export interface OrderContext {
  seed: number;
  location: SimLocation;
  header: SessionHeader;
}

/** One order of a session, created at `createdAtMs`; `sequence` starts at 1. */
export function generateOrder(
  context: OrderContext,
  random: Random,
  sequence: number,
  createdAtMs: number,
): Order {
  const { location, header, seed } = context;
  const serviceType = random.weighted<ServiceType>([
    ["eatin", 65],
    ["takeout", 20],
    ["delivery", 10],
    ["unknown", 5],
  ]);
  const tier =
    serviceType === "takeout" || serviceType === "delivery"
      ? PRICE_TIERS.takeaway
      : PRICE_TIERS.eatIn;
  const device = random.chance(0.95) ? location.devices[header.deviceIndex] : undefined;
  const operator = random.pick(location.staff);
  const isCanceled = random.chance(0.03);
  const isTransferred = !isCanceled && serviceType === "eatin" && random.chance(0.02);
  const transferReason = isTransferred ? `Room ${random.int(101, 420)}` : null;
  const guests = serviceType === "eatin" ? random.int(1, 6) : random.int(0, 1);
  const fixedItems = header.itemsPerOrder;
  const itemCount = fixedItems
    ? random.int(fixedItems[0], fixedItems[1])
    : Math.min(8, random.int(1, 3) + (serviceType === "eatin" ? Math.ceil(guests / 2) : 0));
  const items = Array.from({ length: itemCount }, () =>
    generateItem(random, location, tier.name, isTransferred, transferReason),
  );
  const totals = orderTotals(items);
  const paidBeforeCancel = isCanceled && random.chance(0.5);
  const methods = pickPaymentMethods(random, location);
  const payments =
    isTransferred || (isCanceled && !paidBeforeCancel)
      ? []
      : settlePayments(
          totals.total,
          methods,
          methods.length > 1 ? 0.3 + random.next() * 0.4 : undefined,
        );
  const closedAtMs = createdAtMs - random.int(1, 30) * 1000;
  const minutesOpen = serviceType === "eatin" ? random.int(15, 95) : random.int(2, 12);
  const updatedAtMs = random.chance(0.15) ? createdAtMs + random.int(1, 120) * MINUTE : createdAtMs;
  const isDelivery = serviceType === "delivery";

  return {
    id: encodeRecordId(seed, {
      kind: "order",
      locationIndex: location.index,
      sessionEpochDay: header.epochDay,
      sequence,
    }),
    createdAt: formatTimestamp(createdAtMs, location),
    updatedAt: formatTimestamp(updatedAtMs, location),
    customerId: random.chance(0.25) ? `C${random.int(100000, 999999)}` : null,
    deviceId: device?.id ?? null,
    locationId: location.location.id,
    reportId: header.reportId,
    openedAt: formatTimestamp(closedAtMs - minutesOpen * MINUTE, location),
    closedAt: formatTimestamp(closedAtMs, location),
    guests,
    orderPlace:
      serviceType === "eatin" ? `Table ${random.int(1, 30)}` : isDelivery ? "Delivery" : "Counter",
    orderNumber: `${header.reportNumber}-${String(sequence).padStart(3, "0")}`,
    operatorId: operator.id,
    operatorName: operator.name,
    ...totals,
    items,
    menus: random.chance(0.1) ? [{ id: random.uuid(), name: "Lunch set", price: 19.5 }] : [],
    payments,
    tips: tips(random),
    isCanceled,
    isTransferred,
    transferReason,
    cancelReason: isCanceled ? random.pick(CANCEL_REASONS) : null,
    source: isDelivery ? "delivery-platform" : random.pick(["pos", "pos", "kiosk"]),
    externalOrderId: isDelivery ? `UE-${random.int(1_000_000, 9_999_999)}` : null,
    externalLocationId: isDelivery ? `ue-store-${location.index + 1}` : null,
    ...optionalFields(random, serviceType, device?.name ?? "Till"),
  };
}

/** All orders of a session as generated from the seed, in creation order. */
export function generateSessionOrders(
  seed: number,
  location: SimLocation,
  header: SessionHeader,
): Order[] {
  const random = new Random(seed, `session:${location.index}:${header.epochDay}:orders`);
  const context: OrderContext = { seed, location, header };
  return orderTimes(random, header, location.offsetMinutes).map((createdAtMs, i) =>
    generateOrder(context, random, i + 1, createdAtMs),
  );
}
