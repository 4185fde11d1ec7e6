/**
 * The simulator's data: N locations over D days ending on `today`, served by the handlers and
 * driven by tests and tools. Generation and its overlays (session-cache.ts), what the API lists
 * (listings.ts, catalog-lists.ts), the changes made after generation (mutations.ts) and the
 * ground truth (ground-truth.ts) each keep their own state; this class holds them together.
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
import { dayFromEpoch, toEpochDay } from "../clock/days.js";
import { type CatalogKind, CatalogLists } from "./catalog-lists.js";
import {
  allOrders,
  allReports,
  type PlannedChange,
  type PlantedAnomaly,
  plannedChanges,
  plantedAnomalies,
} from "./ground-truth.js";
import { withHostileNames } from "./hostile.js";
import { Listings, type ListRequest, type ListResult, type UnlistedState } from "./listings.js";
import { buildLocation, type SimLocation } from "./location.js";
import { DRIFT_KINDS, type Drift, type LateUpdate, Mutations } from "./mutations.js";
import { scaledChangeRates } from "./order-changes.js";
import { type Session, SessionCache } from "./session-cache.js";

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

export class Dataset {
  readonly seed: number;
  readonly locations: readonly SimLocation[];
  readonly firstDay: string;
  private readonly sessions: SessionCache;
  private readonly listings: Listings;
  private readonly catalog = new CatalogLists();
  private readonly mutations: Mutations;
  private readonly locationByKey: Map<string, SimLocation>;

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
    const plan = {
      seed: options.seed,
      firstEpochDay,
      todayEpochDay,
      ordersPerDay: options.ordersPerDay,
      itemsPerOrder: options.itemsPerOrder,
    };
    this.sessions = new SessionCache(plan, {
      hostile: options.hostile ?? false,
      changeRates: scaledChangeRates(options.changeRate ?? 1),
      // About 40,000 orders: a few hundred MB at most, and every session a few concurrent day
      // windows need at once.
      cachedOrders: options.cachedOrders ?? 40_000,
    });
    this.listings = new Listings(this.sessions);
    const sendsUtc = options.utcTimestamps ?? false;
    this.locations = Array.from({ length: options.locations }, (_, i) => {
      const location = { ...buildLocation(options.seed, i), sendsUtc };
      return options.hostileNames ? withHostileNames(location) : location;
    });
    this.locationByKey = new Map(this.locations.map((l) => [l.apiKey, l]));
    this.mutations = new Mutations(
      this.locations,
      this.sessions,
      this.listings,
      this.catalog,
      options.now ?? Date.now,
    );
  }

  /** The last day of data; its session is open. */
  get today(): string {
    return dayFromEpoch(this.sessions.plan.todayEpochDay);
  }

  /**
   * Time passes: today's session closes (its report appears, its evening orders with it) and a
   * new day opens. Days already past keep their orders, but the planned changes that fall due
   * in those 24 hours show on them (every cached session and bucket is dropped for that).
   */
  advanceDay(): void {
    this.sessions.advanceDay();
    this.listings.clear();
  }

  locationForKey(apiKey: string): SimLocation | undefined {
    return this.locationByKey.get(apiKey);
  }

  /** The simulator's "now" at a location: changes planned for later are not served yet. */
  nowAt(location: SimLocation): number {
    return this.sessions.nowAt(location);
  }

  session(location: SimLocation, epochDay: number): Session | undefined {
    return this.sessions.session(location, epochDay);
  }

  // --- what the API serves ---

  /** Orders created on a local day: that day's session and the previous one's late tail. */
  ordersCreatedOn(location: SimLocation, epochDay: number): readonly Order[] {
    return this.listings.ordersCreatedOn(location, epochDay);
  }

  reportsCreatedOn(location: SimLocation, epochDay: number): Report[] {
    return this.listings.reportsCreatedOn(location, epochDay);
  }

  listOrders(
    location: SimLocation,
    request: ListRequest & { reportId?: string },
  ): ListResult<Order> {
    return this.listings.listOrders(location, request);
  }

  listReports(location: SimLocation, request: ListRequest): ListResult<Report> {
    return this.listings.listReports(location, request);
  }

  order(location: SimLocation, id: string): Order | undefined {
    return this.listings.order(location, id);
  }

  report(location: SimLocation, id: string): Report | undefined {
    return this.listings.report(location, id);
  }

  products(location: SimLocation): Product[] {
    return this.catalog.products(location);
  }

  categories(location: SimLocation): Category[] {
    return this.catalog.categories(location);
  }

  modifiers(location: SimLocation): Modifier[] {
    return this.catalog.modifiers(location);
  }

  paymentMethods(location: SimLocation): PaymentMethod[] {
    return this.catalog.paymentMethods(location);
  }

  taxes(location: SimLocation): Tax[] {
    return this.catalog.taxes(location);
  }

  devices(location: SimLocation): Device[] {
    return this.catalog.devices(location);
  }

  catalogItems(location: SimLocation, kind: CatalogKind): { id: string }[] {
    return this.catalog.items(location, kind);
  }

  // --- ground truth, for tests and tools ---

  sessionsOf(location: SimLocation): Generator<Session> {
    return this.sessions.sessionsOf(location);
  }

  allOrders(location: SimLocation): Generator<Order> {
    return allOrders(this.sessions, location);
  }

  allReports(location: SimLocation): Generator<Report> {
    return allReports(this.sessions, location);
  }

  plannedChanges(location: SimLocation): PlannedChange[] {
    return plannedChanges(this.sessions, location);
  }

  plantedAnomalies(location: SimLocation): PlantedAnomaly[] {
    return plantedAnomalies(this.sessions, location);
  }

  // --- changes after generation ---

  addLiveOrders(location: SimLocation, count: number): Order[] {
    return this.mutations.addLiveOrders(location, count);
  }

  applyLateUpdates(count: number, maxDaysBack = 3): LateUpdate[] {
    return this.mutations.applyLateUpdates(count, maxDaysBack);
  }

  updateOrder(location: SimLocation, orderId: string): Order | undefined {
    return this.mutations.updateOrder(location, orderId);
  }

  driftPastDays(share: number, olderThanDays: number, kinds = DRIFT_KINDS): Drift[] {
    return this.mutations.driftPastDays(share, olderThanDays, kinds);
  }

  /** Hides `count` items of each given kind from one location's lists, as a back office does
   * when it deletes them. */
  hideCatalogItems(location: SimLocation, kinds: readonly CatalogKind[], count = 1): string[] {
    return this.mutations.hideCatalogItems(location, kinds, count);
  }

  /** Voids `count` orders of one location's day upstream: no list shows them any more. */
  voidOrders(location: SimLocation, day: string, count: number): string[] {
    return this.mutations.unlistOrders(location, day, count, "voided");
  }

  /** Takes `count` orders of one location's day out of every list; with `unlisted`, they are
   * still served by id and their report lists them: what the reports cross-check is for. */
  unlistOrders(
    location: SimLocation,
    day: string,
    count: number,
    state: UnlistedState = "unlisted",
  ): string[] {
    return this.mutations.unlistOrders(location, day, count, state);
  }

  /** Brings every voided or unlisted order back. */
  restoreVoidedOrders(): void {
    this.listings.relistAll();
  }

  /** Brings every hidden catalog item back. */
  restoreCatalogItems(): void {
    this.catalog.restore();
  }
}
