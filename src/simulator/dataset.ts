/**
 * The simulator's data: N locations over D days ending on `today`. Sessions are generated on
 * demand from the seed and cached; mutations (late updates, live orders, catalog churn) are kept
 * as overlays on top, so the dataset can stand for millions of orders in little memory and still
 * answer every query consistently.
 */
import type {
  Category,
  Device,
  Modifier,
  Order,
  PaymentMethod,
  Product,
  Report,
  Tax,
} from "../api/schemas.js";
import { dayFromEpoch, epochDayOnOrAfter, epochDayOnOrBefore, toEpochDay } from "../dates.js";
import {
  formatTimestamp,
  localDayOf,
  localEpochDay,
  localMidnight,
  parseInstant,
} from "./clock.js";
import { makeHostile, withHostileNames } from "./hostile.js";
import { decodeRecordId } from "./ids.js";
import { buildLocation, type SimLocation } from "./location.js";
import { LruCache } from "./lru.js";
import { toUnits } from "./money.js";
import {
  applyPlan,
  type ChangeRates,
  latestDueChangeMs,
  type OrderAnomalyKind,
  type OrderChangeKind,
  type OrderChangePlan,
  planSessionChanges,
  scaledChangeRates,
} from "./order-changes.js";
import { repriceItem, resettle } from "./order-totals.js";
import { Random } from "./random.js";
import { buildReport } from "./report.js";
import {
  generateOrder,
  generateSessionOrders,
  type SessionHeader,
  type SessionPlan,
  sessionHeader,
  simulatedNowMs,
} from "./session.js";

export interface DatasetOptions {
  seed: number;
  locations: number;
  days: number;
  /** The last day of data (YYYY-MM-DD); its session is still open, so it has no report yet. */
  today: string;
  ordersPerDay: readonly [number, number];
  /** Serve hostile orders (see hostile.ts) among the ordinary ones. */
  hostile?: boolean;
  /** Name every location, operator and product with terminal controls (see hostile.ts). */
  hostileNames?: boolean;
  /** Items per order; by default they follow the guests (1 to 8). Benchmarks ask for more. */
  itemsPerOrder?: readonly [number, number];
  /** Wall clock for late updates; tests may pin it. */
  now?: () => number;
  /** Orders kept generated in memory, across cached sessions (the newest session always is). */
  cachedOrders?: number;
  /** Write every date-time in UTC (…Z), as some servers do, rather than in local offsets. */
  utcTimestamps?: boolean;
  /**
   * Multiplies the default rates of after-the-fact order changes and of planted anomalies
   * (DEFAULT_CHANGE_RATES in order-changes.ts), each capped at 1; 0 turns them off and serves
   * the orders as generated. Default 1.
   */
  changeRate?: number;
}

export interface Session {
  header: SessionHeader;
  /** Every order of the session, late updates and live orders included, by creation time. */
  orders: Order[];
  report: Report | null;
  /** Planned changes and anomalies of the session's orders created by now, by order id, due
   * or not. */
  changePlans: ReadonlyMap<string, OrderChangePlan>;
}

/** One after-the-fact change the simulator planned for an order: ground truth for tests. */
export interface PlannedChange {
  locationIndex: number;
  orderId: string;
  /** The order's business day: its session's day. */
  day: string;
  kind: OrderChangeKind;
  atMs: number;
  operatorId: string;
  operatorName: string;
  /** Due by the simulator's "now" at the location, hence served. */
  visible: boolean;
}

/** An order served wrong on purpose from its creation on: ground truth for tests. */
export interface PlantedAnomaly {
  locationIndex: number;
  orderId: string;
  day: string;
  kind: OrderAnomalyKind;
  /** How much the last payment falls short of the total, in currency units. */
  shortBy: number;
}

export interface DayRange {
  since?: string;
  until?: string;
}

export interface ListRequest extends DayRange {
  index: number;
  size: number;
  descending: boolean;
}

export interface ListResult<T> {
  records: T[];
  totalCount: number;
}

export type CatalogKind =
  | "products"
  | "categories"
  | "modifiers"
  | "paymentMethods"
  | "taxes"
  | "devices";

export const CATALOG_KINDS: readonly CatalogKind[] = [
  "products",
  "categories",
  "modifiers",
  "paymentMethods",
  "taxes",
  "devices",
];

export type LateUpdateKind = "cancel" | "requantify" | "drop-item";

/** How history drifts (Dataset.driftHistory): an order changed, removed or added long after its
 * day, its updatedAt untouched. */
export type DriftKind = "change" | "remove" | "add";
export const DRIFT_KINDS: readonly DriftKind[] = ["change", "remove", "add"];

export interface Drift {
  locationIndex: number;
  /** The day whose list shows the order (showed it, for one removed). */
  day: string;
  kind: DriftKind;
  orderId: string;
}

export interface LateUpdate {
  locationIndex: number;
  orderId: string;
  kind: LateUpdateKind;
}

/** Sorted by creation time, then id; each timestamp parsed once. */
function sortByCreatedAt<T extends { createdAt: string; id: string }>(records: readonly T[]): T[] {
  return records
    .map((record) => ({ record, at: parseInstant(record.createdAt) }))
    .sort(
      (a, b) => a.at - b.at || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0),
    )
    .map(({ record }) => record);
}

export class Dataset {
  readonly seed: number;
  readonly locations: readonly SimLocation[];
  readonly firstDay: string;
  private readonly plan: { -readonly [K in keyof SessionPlan]: SessionPlan[K] };
  private readonly now: () => number;
  private readonly hostile: boolean;
  private readonly changeRates: ChangeRates;
  private readonly sessions: LruCache<string, Session>;
  private readonly bucketCounts = new Map<string, number>();
  /** Each day's orders sorted by creation: the pages of a day are served from one sort. */
  private readonly orderBuckets = new LruCache<string, readonly Order[]>(
    40_000,
    (orders) => orders.length,
  );
  private readonly orderOverrides = new Map<string, Order>();
  private readonly liveOrders = new Map<string, Order[]>();
  private readonly reportUpdatedAt = new Map<string, number>();
  private readonly hidden = new Set<string>();
  /** Orders gone from every list, by "locationIndex:epochDay:id": voided ones are gone from
   * every read, unlisted ones are still served by id. */
  private readonly unlistedOrders = new Map<string, "voided" | "unlisted">();
  /** Orders taken out of history by drift (driftHistory): gone from their session and report. */
  private readonly droppedOrders = new Set<string>();
  private readonly locationByKey: Map<string, SimLocation>;
  private mutationCount = 0;

  constructor(options: DatasetOptions) {
    if (options.locations < 1) throw new RangeError("locations must be at least 1");
    if (options.days < 1) throw new RangeError("days must be at least 1");
    const [minOrders, maxOrders] = options.ordersPerDay;
    if (minOrders < 0 || maxOrders < minOrders || maxOrders > 60_000) {
      throw new RangeError("ordersPerDay must be [min, max] with 0 <= min <= max <= 60000");
    }
    const items = options.itemsPerOrder;
    if (items && (items[0] < 1 || items[1] < items[0] || items[1] > 200)) {
      throw new RangeError("itemsPerOrder must be [min, max] with 1 <= min <= max <= 200");
    }
    this.seed = options.seed;
    const todayEpochDay = toEpochDay(options.today);
    const firstEpochDay = todayEpochDay - options.days + 1;
    this.firstDay = dayFromEpoch(firstEpochDay);
    this.plan = {
      seed: options.seed,
      firstEpochDay,
      todayEpochDay,
      ordersPerDay: options.ordersPerDay,
      itemsPerOrder: options.itemsPerOrder,
    };
    this.now = options.now ?? Date.now;
    this.hostile = options.hostile ?? false;
    this.changeRates = scaledChangeRates(options.changeRate ?? 1);
    // About 40,000 orders: a few hundred MB at most, and every session a few concurrent day
    // windows need at once.
    this.sessions = new LruCache(
      options.cachedOrders ?? 40_000,
      (session) => session.orders.length,
    );
    const sendsUtc = options.utcTimestamps ?? false;
    this.locations = Array.from({ length: options.locations }, (_, i) => {
      const location = { ...buildLocation(options.seed, i), sendsUtc };
      return options.hostileNames ? withHostileNames(location) : location;
    });
    this.locationByKey = new Map(this.locations.map((l) => [l.apiKey, l]));
  }

  /** The last day of data; its session is open. */
  get today(): string {
    return dayFromEpoch(this.plan.todayEpochDay);
  }

  /**
   * Time passes: today's session closes (its report appears, its evening orders with it) and a
   * new day opens. Days already past keep their orders, but the planned changes that fall due
   * in those 24 hours show on them (every cached session and bucket is dropped for that).
   */
  advanceDay(): void {
    this.plan.todayEpochDay++;
    this.sessions.clear();
    this.orderBuckets.clear();
    this.bucketCounts.clear();
  }

  locationForKey(apiKey: string): SimLocation | undefined {
    return this.locationByKey.get(apiKey);
  }

  // --- sessions ---

  private hasSession(epochDay: number): boolean {
    return epochDay >= this.plan.firstEpochDay && epochDay <= this.plan.todayEpochDay;
  }

  private sessionKey(locationIndex: number, epochDay: number): string {
    return `${locationIndex}:${epochDay}`;
  }

  /** The simulator's "now" at a location: changes planned for later are not served yet. */
  nowAt(location: SimLocation): number {
    return simulatedNowMs(this.plan.todayEpochDay, location.offsetMinutes);
  }

  session(location: SimLocation, epochDay: number): Session | undefined {
    if (!this.hasSession(epochDay)) return undefined;
    const key = this.sessionKey(location.index, epochDay);
    const cached = this.sessions.get(key);
    if (cached) return cached;
    const header = sessionHeader(this.plan, location, epochDay);
    const nowMs = this.nowAt(location);
    const created = generateSessionOrders(this.seed, location, header).filter(
      (order) => parseInstant(order.createdAt) <= header.visibleUntilMs,
    );
    const changePlans = planSessionChanges(
      this.seed,
      location,
      epochDay,
      created,
      this.changeRates,
    );
    // Planned changes come before the explicit late updates (overrides), which win.
    const generated = created
      .map((order) => {
        const plan = changePlans.get(order.id);
        return plan ? applyPlan(order, plan, nowMs, location) : order;
      })
      .map((order) => (this.hostile ? makeHostile(order) : order));
    const orders = sortByCreatedAt(
      [...generated, ...(this.liveOrders.get(key) ?? [])]
        .filter((order) => !this.droppedOrders.has(order.id))
        .map((order) => this.orderOverrides.get(order.id) ?? order),
    );
    const report = header.open
      ? null
      : buildReport(location, header, orders, this.reportUpdatedAtMs(header, changePlans, nowMs));
    const session = { header, orders, report, changePlans };
    this.sessions.set(key, session);
    return session;
  }

  /** A report changes when one of its orders does: its updatedAt is at least the latest. */
  private reportUpdatedAtMs(
    header: SessionHeader,
    plans: ReadonlyMap<string, OrderChangePlan>,
    nowMs: number,
  ): number | undefined {
    let latest = this.reportUpdatedAt.get(header.reportId);
    for (const plan of plans.values()) {
      const changedAt = latestDueChangeMs(plan, nowMs);
      if (changedAt !== undefined) latest = Math.max(latest ?? changedAt, changedAt);
    }
    return latest;
  }

  private forgetSession(locationIndex: number, epochDay: number): void {
    this.sessions.delete(this.sessionKey(locationIndex, epochDay));
    for (const day of [epochDay, epochDay + 1]) {
      this.orderBuckets.delete(this.sessionKey(locationIndex, day));
      this.bucketCounts.delete(`${locationIndex}:orders:${day}`);
      this.bucketCounts.delete(`${locationIndex}:reports:${day}`);
    }
  }

  // --- day buckets: records whose createdAt falls on a local calendar day ---

  /** Orders created on a local day: that day's session and the previous one's late tail. */
  ordersCreatedOn(location: SimLocation, epochDay: number): readonly Order[] {
    const key = this.sessionKey(location.index, epochDay);
    const cached = this.orderBuckets.get(key);
    if (cached) return cached;
    const day = dayFromEpoch(epochDay);
    const orders: Order[] = [];
    for (const sessionDay of [epochDay - 1, epochDay]) {
      for (const order of this.session(location, sessionDay)?.orders ?? []) {
        if (localDayOf(order.createdAt, location) !== day) continue;
        if (!this.unlistedOrders.has(`${location.index}:${epochDay}:${order.id}`))
          orders.push(order);
      }
    }
    const sorted = sortByCreatedAt(orders);
    this.orderBuckets.set(key, sorted);
    return sorted;
  }

  reportsCreatedOn(location: SimLocation, epochDay: number): Report[] {
    const day = dayFromEpoch(epochDay);
    const reports: Report[] = [];
    for (const sessionDay of [epochDay - 1, epochDay]) {
      const report = this.session(location, sessionDay)?.report;
      if (report && localDayOf(report.createdAt, location) === day) reports.push(report);
    }
    return sortByCreatedAt(reports);
  }

  private reportCountOn(location: SimLocation, epochDay: number): number {
    // Report times are in the session header: no need to generate any order.
    let count = 0;
    for (const sessionDay of [epochDay - 1, epochDay]) {
      if (!this.hasSession(sessionDay)) continue;
      const header = sessionHeader(this.plan, location, sessionDay);
      const createdOn = localEpochDay(header.reportCreatedAtMs, location.offsetMinutes);
      if (!header.open && createdOn === epochDay) count++;
    }
    return count;
  }

  private bucketCount(
    location: SimLocation,
    stream: "orders" | "reports",
    epochDay: number,
  ): number {
    const key = `${location.index}:${stream}:${epochDay}`;
    let count = this.bucketCounts.get(key);
    if (count === undefined) {
      count =
        stream === "orders"
          ? this.ordersCreatedOn(location, epochDay).length
          : this.reportCountOn(location, epochDay);
      this.bucketCounts.set(key, count);
    }
    return count;
  }

  /** The epoch days a since/until range covers within the data, in the requested order. */
  private daysIn(range: DayRange, descending: boolean): number[] {
    const first = Math.max(
      this.plan.firstEpochDay,
      range.since ? epochDayOnOrAfter(range.since) : -Infinity,
    );
    const last = Math.min(
      this.plan.todayEpochDay,
      range.until ? epochDayOnOrBefore(range.until) : Infinity,
    );
    const days: number[] = [];
    for (let d = first; d <= last; d++) days.push(d);
    return descending ? days.reverse() : days;
  }

  /** One page across consecutive day buckets, generating only the buckets the page touches. */
  private pageAcrossDays<T>(
    request: ListRequest,
    count: (epochDay: number) => number,
    records: (epochDay: number) => readonly T[],
  ): ListResult<T> {
    const days = this.daysIn(request, request.descending);
    const counts = days.map(count);
    const totalCount = counts.reduce((sum, c) => sum + c, 0);
    const start = request.index * request.size;
    const end = start + request.size;
    const page: T[] = [];
    let position = 0;
    for (const [i, day] of days.entries()) {
      const bucketSize = counts[i] ?? 0;
      if (position + bucketSize > start && position < end) {
        const bucket = request.descending ? [...records(day)].reverse() : records(day);
        page.push(...bucket.slice(Math.max(0, start - position), end - position));
      }
      position += bucketSize;
      if (position >= end) break;
    }
    return { records: page, totalCount };
  }

  listOrders(
    location: SimLocation,
    request: ListRequest & { reportId?: string },
  ): ListResult<Order> {
    if (request.reportId !== undefined)
      return this.listOrdersOfReport(location, request, request.reportId);
    return this.pageAcrossDays(
      request,
      (day) => this.bucketCount(location, "orders", day),
      (day) => this.ordersCreatedOn(location, day),
    );
  }

  private listOrdersOfReport(
    location: SimLocation,
    request: ListRequest,
    reportId: string,
  ): ListResult<Order> {
    const address = decodeRecordId(this.seed, reportId);
    const session =
      address?.kind === "report" && address.locationIndex === location.index
        ? this.session(location, address.sessionEpochDay)
        : undefined;
    const inRange = (order: Order) => {
      const day = localDayOf(order.createdAt, location);
      return (!request.since || day >= request.since) && (!request.until || day <= request.until);
    };
    const matching = sortByCreatedAt((session?.orders ?? []).filter(inRange));
    if (request.descending) matching.reverse();
    const start = request.index * request.size;
    return { records: matching.slice(start, start + request.size), totalCount: matching.length };
  }

  listReports(location: SimLocation, request: ListRequest): ListResult<Report> {
    return this.pageAcrossDays(
      request,
      (day) => this.bucketCount(location, "reports", day),
      (day) => this.reportsCreatedOn(location, day),
    );
  }

  order(location: SimLocation, id: string): Order | undefined {
    const address = decodeRecordId(this.seed, id);
    if (address?.kind !== "order" || address.locationIndex !== location.index) return undefined;
    const order = this.session(location, address.sessionEpochDay)?.orders.find(
      (o) => o.id === id.toLowerCase(),
    );
    // A voided order is gone from every read, by id as well as from the lists.
    if (!order) return undefined;
    const createdOn = toEpochDay(localDayOf(order.createdAt, location));
    const state = this.unlistedOrders.get(`${location.index}:${createdOn}:${order.id}`);
    return state === "voided" ? undefined : order;
  }

  report(location: SimLocation, id: string): Report | undefined {
    const address = decodeRecordId(this.seed, id);
    if (address?.kind !== "report" || address.locationIndex !== location.index) return undefined;
    return this.session(location, address.sessionEpochDay)?.report ?? undefined;
  }

  // --- catalog, location and devices ---

  private visible<T extends { id: string }>(location: SimLocation, items: readonly T[]): T[] {
    return items.filter((item) => !this.hidden.has(`${location.index}:${item.id}`));
  }

  products(location: SimLocation): Product[] {
    return this.visible(location, location.catalog.products);
  }

  categories(location: SimLocation): Category[] {
    return this.visible(location, location.catalog.categories);
  }

  modifiers(location: SimLocation): Modifier[] {
    return this.visible(location, location.catalog.modifiers);
  }

  paymentMethods(location: SimLocation): PaymentMethod[] {
    return this.visible(location, location.catalog.paymentMethods);
  }

  taxes(location: SimLocation): Tax[] {
    return this.visible(location, location.catalog.taxes);
  }

  devices(location: SimLocation): Device[] {
    return this.visible(location, location.devices);
  }

  catalogItems(location: SimLocation, kind: CatalogKind): { id: string }[] {
    return kind === "devices" ? location.devices : location.catalog[kind];
  }

  // --- ground truth, for tests and tools ---

  *sessionsOf(location: SimLocation): Generator<Session> {
    for (let day = this.plan.firstEpochDay; day <= this.plan.todayEpochDay; day++) {
      const session = this.session(location, day);
      if (session) yield session;
    }
  }

  *allOrders(location: SimLocation): Generator<Order> {
    for (const session of this.sessionsOf(location)) yield* session.orders;
  }

  *allReports(location: SimLocation): Generator<Report> {
    for (const session of this.sessionsOf(location)) if (session.report) yield session.report;
  }

  /** Every after-the-fact change planned for the location's orders created by now, due or
   * not, by session then order then time; `visible` when it is due and no explicit late update
   * (applyLateUpdates, updateOrder) replaced the order, whose version then hides every plan. */
  plannedChanges(location: SimLocation): PlannedChange[] {
    const nowMs = this.nowAt(location);
    const changes: PlannedChange[] = [];
    for (const session of this.sessionsOf(location)) {
      for (const plan of session.changePlans.values()) {
        for (const step of plan.steps) {
          changes.push({
            locationIndex: location.index,
            orderId: plan.orderId,
            day: session.header.day,
            kind: step.kind,
            atMs: step.atMs,
            operatorId: step.operator.id,
            operatorName: step.operator.name,
            visible: step.atMs <= nowMs && !this.orderOverrides.has(plan.orderId),
          });
        }
      }
    }
    return changes;
  }

  /** Every order of the location served with a planted anomaly. */
  plantedAnomalies(location: SimLocation): PlantedAnomaly[] {
    const anomalies: PlantedAnomaly[] = [];
    for (const session of this.sessionsOf(location)) {
      for (const plan of session.changePlans.values()) {
        if (plan.paymentShortCents === 0) continue;
        anomalies.push({
          locationIndex: location.index,
          orderId: plan.orderId,
          day: session.header.day,
          kind: "payment-short",
          shortBy: toUnits(plan.paymentShortCents),
        });
      }
    }
    return anomalies;
  }

  // --- mutations ---

  private mutationRandom(): Random {
    this.mutationCount++;
    return new Random(this.seed, `mutation:${this.mutationCount}`);
  }

  /** Appends new orders to today's open session, created after every order it already has. */
  addLiveOrders(location: SimLocation, count: number): Order[] {
    return this.appendOrders(location, this.plan.todayEpochDay, count);
  }

  /** Appends orders to a session (an old one's report counts them too), created after every
   * order it already has and before the next local midnight. */
  private appendOrders(location: SimLocation, epochDay: number, count: number): Order[] {
    const session = this.session(location, epochDay);
    if (!session) return [];
    const key = this.sessionKey(location.index, epochDay);
    const live = this.liveOrders.get(key) ?? [];
    const endOfDay = localMidnight(epochDay + 1, location.offsetMinutes) - 1000;
    let lastCreated = Math.max(
      session.header.startedAtMs,
      ...session.orders.map((o) => parseInstant(o.createdAt)),
    );
    const random = this.mutationRandom();
    const added: Order[] = [];
    for (let i = 0; i < count; i++) {
      const createdAtMs = lastCreated + random.int(5, 60) * 1000;
      if (createdAtMs > endOfDay) break;
      // After every order the session will ever generate, so that ids never collide.
      const sequence = session.header.orderCount + live.length + added.length + 1;
      added.push(
        generateOrder(
          { seed: this.seed, location, header: session.header },
          random,
          sequence,
          createdAtMs,
        ),
      );
      lastCreated = createdAtMs;
    }
    this.liveOrders.set(key, [...live, ...added]);
    this.forgetSession(location.index, epochDay);
    return added;
  }

  /**
   * Changes `count` orders of closed sessions within the last `maxDaysBack` days, as a POS does
   * when a ticket is cancelled or corrected after the fact: new `updatedAt`, totals and payments
   * recomputed, and the session's report recomputed with them.
   */
  applyLateUpdates(count: number, maxDaysBack = 3): LateUpdate[] {
    const random = this.mutationRandom();
    const firstDay = Math.max(this.plan.firstEpochDay, this.plan.todayEpochDay - maxDaysBack);
    const lastDay = this.plan.todayEpochDay - 1;
    if (lastDay < firstDay) return [];
    const updates: LateUpdate[] = [];
    for (let i = 0; i < count; i++) {
      const location = random.pick(this.locations);
      const epochDay = random.int(firstDay, lastDay);
      const session = this.session(location, epochDay);
      const candidates = session?.orders.filter((o) => !o.isCanceled) ?? [];
      if (!session || candidates.length === 0) continue;
      const original = random.pick(candidates);
      const kind = random.pick<LateUpdateKind>(
        original.items.length > 1
          ? ["cancel", "requantify", "drop-item"]
          : ["cancel", "requantify"],
      );
      const updated = this.changeOrder(location, epochDay, original, kind, random);
      updates.push({ locationIndex: location.index, orderId: updated.id, kind });
    }
    return updates;
  }

  /**
   * Changes one order as the POS does after the fact: new `updatedAt` (now, or a minute after the
   * last one), figures recomputed, and its session's report recomputed with it.
   */
  private changeOrder(
    location: SimLocation,
    sessionDay: number,
    original: Order,
    kind: LateUpdateKind,
    random: Random,
  ): Order {
    const session = this.session(location, sessionDay);
    if (!session) throw new Error(`no session on day ${sessionDay}`);
    const updatedAtMs = Math.max(this.now(), parseInstant(original.updatedAt) + 60_000);
    const updated = applyLateUpdate(original, kind, random, formatTimestamp(updatedAtMs, location));
    this.orderOverrides.set(updated.id, updated);
    const reportUpdatedAt = Math.max(
      updatedAtMs,
      this.reportUpdatedAt.get(session.header.reportId) ?? 0,
    );
    this.reportUpdatedAt.set(session.header.reportId, reportUpdatedAt);
    this.forgetSession(location.index, sessionDay);
    return updated;
  }

  /** Changes one order, given by id, right now (a new quantity on one of its items). */
  updateOrder(location: SimLocation, orderId: string): Order | undefined {
    const address = decodeRecordId(this.seed, orderId);
    const original = this.order(location, orderId);
    if (!address || !original) return undefined;
    return this.changeOrder(
      location,
      address.sessionEpochDay,
      original,
      "requantify",
      this.mutationRandom(),
    );
  }

  /**
   * History drifting as a vendor's silent corrections make it: on about `share` of the days of
   * each location older than `olderThanDays`, one order changed, removed or added (the kinds in
   * turn, or `kinds`), with no updatedAt touched, its order's or its report's. Returns each
   * drift with the day whose list shows it.
   */
  driftHistory(share: number, olderThanDays: number, kinds = DRIFT_KINDS): Drift[] {
    const random = this.mutationRandom();
    const drifts: Drift[] = [];
    const lastDay = this.plan.todayEpochDay - olderThanDays - 1;
    for (const location of this.locations) {
      for (let epochDay = this.plan.firstEpochDay; epochDay <= lastDay; epochDay++) {
        if (random.next() >= share) continue;
        const kind = kinds[drifts.length % kinds.length] as DriftKind;
        const order = this.drift(location, epochDay, kind, random);
        if (order)
          drifts.push({
            locationIndex: location.index,
            day: localDayOf(order.createdAt, location),
            kind,
            orderId: order.id,
          });
      }
    }
    return drifts;
  }

  private drift(
    location: SimLocation,
    epochDay: number,
    kind: DriftKind,
    random: Random,
  ): Order | undefined {
    if (kind === "add") return this.appendOrders(location, epochDay, 1)[0];
    // A change needs an item whose quantity can move: then the content does change.
    const changeable = (o: Order) =>
      kind === "remove" || o.items.some((item) => item.weight === null && !item.isCanceled);
    const candidates =
      this.session(location, epochDay)?.orders.filter((o) => !o.isCanceled && changeable(o)) ?? [];
    if (candidates.length === 0) return undefined;
    const original = random.pick(candidates);
    if (kind === "remove") this.droppedOrders.add(original.id);
    else
      this.orderOverrides.set(
        original.id,
        applyLateUpdate(original, "requantify", random, original.updatedAt),
      );
    this.forgetSession(location.index, epochDay);
    return original;
  }

  /** Hides `count` items of each given kind from one location's lists, as a back office does
   * when it deletes them. */
  hideCatalogItems(location: SimLocation, kinds: readonly CatalogKind[], count = 1): string[] {
    const random = this.mutationRandom();
    const hiddenNow: string[] = [];
    for (const kind of kinds) {
      const candidates = this.visible(location, this.catalogItems(location, kind));
      for (const item of random.shuffle(candidates).slice(0, count)) {
        this.hidden.add(`${location.index}:${item.id}`);
        hiddenNow.push(item.id);
      }
    }
    return hiddenNow;
  }

  /** Voids `count` orders of one location's day upstream: no list shows them any more. */
  voidOrders(location: SimLocation, day: string, count: number): string[] {
    return this.unlistOrders(location, day, count, "voided");
  }

  /** Takes `count` orders of one location's day out of every list; with `unlisted`, they are
   * still served by id and their report lists them: what the reports cross-check is for. */
  unlistOrders(
    location: SimLocation,
    day: string,
    count: number,
    state: "voided" | "unlisted" = "unlisted",
  ): string[] {
    const epochDay = toEpochDay(day);
    const random = this.mutationRandom();
    const chosen = random.shuffle([...this.ordersCreatedOn(location, epochDay)]).slice(0, count);
    for (const order of chosen)
      this.unlistedOrders.set(`${location.index}:${epochDay}:${order.id}`, state);
    this.forgetBucket(location.index, epochDay);
    return chosen.map((order) => order.id);
  }

  /** Brings every voided or unlisted order back. */
  restoreVoidedOrders(): void {
    for (const entry of this.unlistedOrders.keys()) {
      const [locationIndex, epochDay] = entry.split(":").map(Number);
      this.forgetBucket(locationIndex ?? 0, epochDay ?? 0);
    }
    this.unlistedOrders.clear();
  }

  private forgetBucket(locationIndex: number, epochDay: number): void {
    this.orderBuckets.delete(this.sessionKey(locationIndex, epochDay));
    this.bucketCounts.delete(`${locationIndex}:orders:${epochDay}`);
  }

  /** Brings every hidden catalog item back. */
  restoreCatalogItems(): void {
    this.hidden.clear();
  }
}

function applyLateUpdate(
  original: Order,
  kind: LateUpdateKind,
  random: Random,
  updatedAt: string,
): Order {
  const order: Order = structuredClone(original);
  order.updatedAt = updatedAt;
  if (kind === "cancel") {
    order.isCanceled = true;
    order.cancelReason = "Cancelled after closing";
    return order;
  }
  if (kind === "drop-item") {
    order.items.splice(random.int(0, order.items.length - 1), 1);
  } else {
    const index = order.items.findIndex((item) => item.weight === null && !item.isCanceled);
    const item = order.items[index];
    if (item) order.items[index] = repriceItem({ ...item, quantity: item.quantity + 1 });
  }
  return resettle(order);
}
