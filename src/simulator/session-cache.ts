/**
 * Sessions are generated from the seed on first read and kept in an LRU cache. What mutations
 * change is kept beside the seed as overlays, applied each time a session is generated, so a
 * session dropped from the cache loses nothing and the data can stand for millions of orders in
 * little memory.
 */
import type { Order, Report } from "../api/schemas.js";
import { parseInstant } from "./clock.js";
import { sortByCreatedAt } from "./creation-order.js";
import { makeHostile } from "./hostile.js";
import type { SimLocation } from "./location.js";
import { LruCache } from "./lru.js";
import {
  applyPlan,
  type ChangeRates,
  latestDueChangeMs,
  type OrderChangePlan,
  planSessionChanges,
} from "./order-changes.js";
import { buildReport } from "./report.js";
import {
  generateSessionOrders,
  type SessionHeader,
  type SessionPlan,
  sessionHeader,
  simulatedNowMs,
} from "./session.js";

export interface Session {
  header: SessionHeader;
  /** Every order of the session, late updates and live orders included, by creation time. */
  orders: Order[];
  report: Report | null;
  /** Planned changes and anomalies of the session's orders created by now, by order id, due
   * or not. */
  changePlans: ReadonlyMap<string, OrderChangePlan>;
}

/** What mutations left on top of the generated data. */
export interface Overlays {
  /** Explicit later versions of orders, by id: they win over planned changes. */
  readonly orderOverrides: Map<string, Order>;
  /** Orders appended to a session, by session key. */
  readonly liveOrders: Map<string, Order[]>;
  /** When a late update last changed one of a report's orders, by report id. */
  readonly reportUpdatedAt: Map<string, number>;
  /** Orders taken out of history by drift: gone from their session and report. */
  readonly droppedOrders: Set<string>;
}

export interface GenerationOptions {
  hostile: boolean;
  changeRates: ChangeRates;
  /** Orders kept generated in memory, across cached sessions (the newest session always is). */
  cachedOrders: number;
}

export function sessionKey(locationIndex: number, epochDay: number): string {
  return `${locationIndex}:${epochDay}`;
}

export class SessionCache {
  readonly overlays: Overlays = {
    orderOverrides: new Map(),
    liveOrders: new Map(),
    reportUpdatedAt: new Map(),
    droppedOrders: new Set(),
  };
  private readonly sessions: LruCache<string, Session>;

  constructor(
    private readonly days: SessionPlan,
    private readonly options: GenerationOptions,
  ) {
    this.sessions = new LruCache(options.cachedOrders, (session) => session.orders.length);
  }

  get plan(): Readonly<SessionPlan> {
    return this.days;
  }

  /** Past days keep their orders, but the changes due by the new "now" must show on them. */
  advanceDay(): void {
    this.days.todayEpochDay++;
    this.sessions.clear();
  }

  hasSession(epochDay: number): boolean {
    return epochDay >= this.days.firstEpochDay && epochDay <= this.days.todayEpochDay;
  }

  /** A session's header needs no order generated. */
  header(location: SimLocation, epochDay: number): SessionHeader {
    return sessionHeader(this.days, location, epochDay);
  }

  /** The simulator's "now" at a location: changes planned for later are not served yet. */
  nowAt(location: SimLocation): number {
    return simulatedNowMs(this.days.todayEpochDay, location.offsetMinutes);
  }

  session(location: SimLocation, epochDay: number): Session | undefined {
    if (!this.hasSession(epochDay)) return undefined;
    const key = sessionKey(location.index, epochDay);
    const cached = this.sessions.get(key);
    if (cached) return cached;
    const { seed } = this.days;
    const { orderOverrides, liveOrders, droppedOrders } = this.overlays;
    const header = this.header(location, epochDay);
    const nowMs = this.nowAt(location);
    const created = generateSessionOrders(seed, location, header).filter(
      (order) => parseInstant(order.createdAt) <= header.visibleUntilMs,
    );
    const changePlans = planSessionChanges(
      seed,
      location,
      epochDay,
      created,
      this.options.changeRates,
    );
    // Planned changes come before the explicit late updates (overrides), which win.
    const generated = created
      .map((order) => {
        const plan = changePlans.get(order.id);
        return plan ? applyPlan(order, plan, nowMs, location) : order;
      })
      .map((order) => (this.options.hostile ? makeHostile(order) : order));
    const orders = sortByCreatedAt(
      [...generated, ...(liveOrders.get(key) ?? [])]
        .filter((order) => !droppedOrders.has(order.id))
        .map((order) => orderOverrides.get(order.id) ?? order),
    );
    const report = header.open
      ? null
      : buildReport(location, header, orders, this.reportUpdatedAtMs(header, changePlans, nowMs));
    const session = { header, orders, report, changePlans };
    this.sessions.set(key, session);
    return session;
  }

  *sessionsOf(location: SimLocation): Generator<Session> {
    for (let day = this.days.firstEpochDay; day <= this.days.todayEpochDay; day++) {
      const session = this.session(location, day);
      if (session) yield session;
    }
  }

  forget(locationIndex: number, epochDay: number): void {
    this.sessions.delete(sessionKey(locationIndex, epochDay));
  }

  /** A report changes when one of its orders does: its updatedAt is at least the latest. */
  private reportUpdatedAtMs(
    header: SessionHeader,
    plans: ReadonlyMap<string, OrderChangePlan>,
    nowMs: number,
  ): number | undefined {
    let latest = this.overlays.reportUpdatedAt.get(header.reportId);
    for (const plan of plans.values()) {
      const changedAt = latestDueChangeMs(plan, nowMs);
      if (changedAt !== undefined) latest = Math.max(latest ?? changedAt, changedAt);
    }
    return latest;
  }
}
