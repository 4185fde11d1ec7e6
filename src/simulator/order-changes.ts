/**
 * After-the-fact changes to orders, as a POS records them once a ticket is closed: a late
 * cancellation of a paid order, an item voided after closing, a discount added after closing.
 * Each session draws its plans from its own stream ("session:L:D:changes"), apart from the one
 * that generates its orders, so that an order without a plan is exactly what it was before
 * changes existed. A plan's steps carry their time, and only the steps already due by the
 * simulator's "now" are served, so time passing reveals them.
 *
 * Also a planted anomaly, not a change: a last payment a little short of the total, there from
 * the order's creation, for the loss-prevention views to find.
 */
import type { Order, OrderItem } from "../api/schemas.js";
import { formatTimestamp, parseInstant, type TimestampStyle } from "./clock.js";
import type { DiscountDefinition, SimLocation, StaffMember } from "./location.js";
import { toCents, toUnits } from "./money.js";
import { itemGrossCents, repriceItem, resettle } from "./order-totals.js";
import { Random } from "./random.js";
import { LATE_CANCEL_REASONS, LATE_VOID_REASON } from "./templates.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type OrderChangeKind = "cancel-after-payment" | "void-item" | "add-discount";
export type OrderAnomalyKind = "payment-short";

export const ORDER_CHANGE_KINDS: readonly OrderChangeKind[] = [
  "cancel-after-payment",
  "void-item",
  "add-discount",
];

export type ChangeRates = Readonly<Record<OrderChangeKind | OrderAnomalyKind, number>>;

/** Chance per order, among the orders each kind can happen to. */
export const DEFAULT_CHANGE_RATES: ChangeRates = {
  "cancel-after-payment": 0.005,
  "void-item": 0.01,
  "add-discount": 0.007,
  "payment-short": 0.002,
};

/** Share of changed orders changed once more, in another way. */
export const SECOND_CHANGE_SHARE = 0.15;

/** A change comes this long after the order closed, at the earliest and at the latest. */
export const CHANGE_DELAY_MS: readonly [number, number] = [20 * MINUTE, 28 * HOUR];

/** `multiplier` times the default rates, each at most 1; 0 turns every kind off. */
export function scaledChangeRates(multiplier: number): ChangeRates {
  if (!(Number.isFinite(multiplier) && multiplier >= 0))
    throw new RangeError("changeRate must be a number >= 0");
  const scale = (rate: number) => Math.min(1, rate * multiplier);
  return {
    "cancel-after-payment": scale(DEFAULT_CHANGE_RATES["cancel-after-payment"]),
    "void-item": scale(DEFAULT_CHANGE_RATES["void-item"]),
    "add-discount": scale(DEFAULT_CHANGE_RATES["add-discount"]),
    "payment-short": scale(DEFAULT_CHANGE_RATES["payment-short"]),
  };
}

interface StepBase {
  atMs: number;
  /** Who made the change: the order's operator from then on. */
  operator: StaffMember;
}

export type ChangeStep =
  | (StepBase & { kind: "cancel-after-payment"; reason: string })
  | (StepBase & { kind: "void-item"; itemIndex: number })
  | (StepBase & { kind: "add-discount"; itemIndex: number; discount: DiscountDefinition });

export interface OrderChangePlan {
  orderId: string;
  /** Oldest first, each strictly after the one before. */
  steps: readonly ChangeStep[];
  /** Cents the last payment falls short of the total (the payment-short anomaly); 0 if none. */
  paymentShortCents: number;
}

// --- who each kind can happen to ---

const isPaid = (order: Order) => order.payments.length > 0;
const isTraining = (order: Order) => order.isTraining === true;
const liveItem = (item: OrderItem) => !item.isCanceled;
const discountableItem = (item: OrderItem) =>
  !item.isCanceled &&
  item.isLoss !== true &&
  item.discountsApplied.length === 0 &&
  itemGrossCents(item) > 0;

const CAN_CHANGE: Readonly<Record<OrderChangeKind, (order: Order) => boolean>> = {
  "cancel-after-payment": (o) => isPaid(o) && !o.isCanceled && !o.isTransferred && !isTraining(o),
  "void-item": (o) => !o.isCanceled && !isTraining(o) && o.items.some(liveItem),
  "add-discount": (o) => !o.isCanceled && !isTraining(o) && o.items.some(discountableItem),
};

/** Below this, shorting the last payment could take it to zero or less. */
const MIN_SHORT_CENTS = 50;
const MAX_SHORT_CENTS = 500;

function canShortPayment(order: Order): boolean {
  const last = order.payments.at(-1);
  return (
    last !== undefined &&
    !order.isCanceled &&
    !order.isTransferred &&
    toCents(last.paymentAmount) > MIN_SHORT_CENTS
  );
}

// --- planning ---

/**
 * The plans of a session's orders, by order id; orders without one are left out. Every order
 * draws the same number of values from the session's stream, whatever it gets, so one order's
 * plan never shifts another's; details come from a stream of the order's own.
 */
export function planSessionChanges(
  seed: number,
  location: SimLocation,
  epochDay: number,
  orders: readonly Order[],
  rates: ChangeRates,
): Map<string, OrderChangePlan> {
  const plans = new Map<string, OrderChangePlan>();
  if (Object.values(rates).every((rate) => rate === 0)) return plans;
  const label = `session:${location.index}:${epochDay}:changes`;
  const random = new Random(seed, label);
  for (const order of orders) {
    const rolls: Rolls = {
      anomaly: random.next(),
      kinds: ORDER_CHANGE_KINDS.map(() => random.next()),
    };
    const details = () => new Random(seed, `${label}:${order.id}`);
    const plan = planOrder(order, rolls, rates, location, details);
    if (plan) plans.set(order.id, plan);
  }
  return plans;
}

interface Rolls {
  anomaly: number;
  /** One per ORDER_CHANGE_KINDS entry. */
  kinds: number[];
}

function planOrder(
  order: Order,
  rolls: Rolls,
  rates: ChangeRates,
  location: SimLocation,
  details: () => Random,
): OrderChangePlan | undefined {
  // An anomaly order is not changed too: re-settling its payments would hide the anomaly.
  if (rolls.anomaly < rates["payment-short"] && canShortPayment(order))
    return { orderId: order.id, steps: [], paymentShortCents: shortCents(order, details()) };
  const hits = ORDER_CHANGE_KINDS.filter(
    (kind, i) => (rolls.kinds[i] ?? 1) < rates[kind] && CAN_CHANGE[kind](order),
  );
  if (hits.length === 0) return undefined;
  const random = details();
  const kinds = withSecondChange(order, hits, random);
  const steps = drawSteps(order, kinds, location, random);
  return steps.length === 0 ? undefined : { orderId: order.id, steps, paymentShortCents: 0 };
}

function shortCents(order: Order, random: Random): number {
  const lastCents = toCents(order.payments.at(-1)?.paymentAmount ?? 0);
  return Math.min(random.int(MIN_SHORT_CENTS, MAX_SHORT_CENTS), lastCents - 1);
}

/** The kinds in the order they happen: a cancellation ends an order's life, so it comes last. */
function withSecondChange(
  order: Order,
  hits: readonly OrderChangeKind[],
  random: Random,
): OrderChangeKind[] {
  const kinds = [...hits];
  const first = hits[0];
  if (hits.length === 1 && random.chance(SECOND_CHANGE_SHARE)) {
    const others = ORDER_CHANGE_KINDS.filter((k) => k !== first && CAN_CHANGE[k](order));
    if (others.length > 0) kinds.push(random.pick(others));
  }
  const rank = (kind: OrderChangeKind) => (kind === "cancel-after-payment" ? 1 : 0);
  return kinds.sort((a, b) => rank(a) - rank(b));
}

/** Steps for the kinds, each drawn against the order as the steps before left it; a kind
 * those steps made impossible (nothing left to void) is dropped. */
function drawSteps(
  order: Order,
  kinds: readonly OrderChangeKind[],
  location: SimLocation,
  random: Random,
): ChangeStep[] {
  const times = changeTimes(order, kinds.length, random);
  const steps: ChangeStep[] = [];
  let current = order;
  for (const [i, kind] of kinds.entries()) {
    if (!CAN_CHANGE[kind](current)) continue;
    const base = { atMs: times[i] ?? 0, operator: changeOperator(order, location, random) };
    const step = drawStep(kind, current, base, location, random);
    steps.push(step);
    current = applyStep(current, step, location);
  }
  return steps;
}

function drawStep(
  kind: OrderChangeKind,
  order: Order,
  base: StepBase,
  location: SimLocation,
  random: Random,
): ChangeStep {
  const indexes = (keep: (item: OrderItem) => boolean) =>
    order.items.flatMap((item, i) => (keep(item) ? [i] : []));
  switch (kind) {
    case "cancel-after-payment":
      return { ...base, kind, reason: random.pick(LATE_CANCEL_REASONS) };
    case "void-item":
      return { ...base, kind, itemIndex: random.pick(indexes(liveItem)) };
    case "add-discount":
      return {
        ...base,
        kind,
        itemIndex: random.pick(indexes(discountableItem)),
        discount: random.pick(location.discounts),
      };
  }
}

/**
 * When the changes happen, oldest first: mostly within hours of closing, now and then the next
 * day. Never before the order's own last update, and each a minute at least after the one
 * before, which the upper bound leaves room for.
 */
function changeTimes(order: Order, count: number, random: Random): number[] {
  const [minDelay, maxDelay] = CHANGE_DELAY_MS;
  const span = maxDelay - (count + 1) * MINUTE - minDelay;
  const delays = Array.from(
    { length: count },
    () => minDelay + Math.floor(random.next() ** 2 * span),
  ).sort((a, b) => a - b);
  const closedAtMs = parseInstant(order.closedAt);
  let previous = parseInstant(order.updatedAt);
  return delays.map((delay) => {
    previous = Math.max(closedAtMs + delay, previous + MINUTE);
    return previous;
  });
}

/** Half the time whoever served the order, else a colleague. */
function changeOperator(order: Order, location: SimLocation, random: Random): StaffMember {
  const server = location.staff.find((s) => s.id === order.operatorId);
  const others = location.staff.filter((s) => s.id !== order.operatorId);
  if (server && (others.length === 0 || random.chance(0.5))) return server;
  return random.pick(others.length > 0 ? others : location.staff);
}

// --- applying ---

/** The order as served at `nowMs`: its anomaly, and the steps of its plan due by then. */
export function applyPlan(
  order: Order,
  plan: OrderChangePlan,
  nowMs: number,
  style: TimestampStyle,
): Order {
  let served = plan.paymentShortCents > 0 ? shortLastPayment(order, plan.paymentShortCents) : order;
  for (const step of plan.steps) if (step.atMs <= nowMs) served = applyStep(served, step, style);
  return served;
}

/** The time of the plan's latest step due by `nowMs`, if any. */
export function latestDueChangeMs(plan: OrderChangePlan, nowMs: number): number | undefined {
  const due = plan.steps.filter((step) => step.atMs <= nowMs);
  return due.at(-1)?.atMs;
}

function shortLastPayment(order: Order, cents: number): Order {
  const payments = order.payments.map((payment, i) =>
    i === order.payments.length - 1
      ? { ...payment, paymentAmount: toUnits(toCents(payment.paymentAmount) - cents) }
      : payment,
  );
  return { ...order, payments };
}

function applyStep(order: Order, step: ChangeStep, style: TimestampStyle): Order {
  const changed: Order = {
    ...structuredClone(order),
    updatedAt: formatTimestamp(step.atMs, style),
    operatorId: step.operator.id,
    operatorName: step.operator.name,
  };
  if (step.kind === "cancel-after-payment") {
    // The money was taken: payments and totals stay, the refund happens outside the order.
    changed.isCanceled = true;
    changed.cancelReason = step.reason;
    return changed;
  }
  const item = changed.items[step.itemIndex];
  if (!item) throw new Error(`order ${order.id} has no item ${step.itemIndex}`);
  changed.items[step.itemIndex] =
    step.kind === "void-item"
      ? { ...item, isCanceled: true, cancelReason: LATE_VOID_REASON }
      : withDiscount(item, step.discount);
  return resettle(changed);
}

/** A discount on the item's gross, in cents as the generator computes it. */
function withDiscount(item: OrderItem, discount: DiscountDefinition): OrderItem {
  const discountCents = Math.round((itemGrossCents(item) * discount.percent) / 100);
  return repriceItem({
    ...item,
    discountsApplied: [
      {
        discountName: discount.name,
        discountValue: toUnits(discountCents),
        discountCatalogId: discount.id,
      },
    ],
  });
}
