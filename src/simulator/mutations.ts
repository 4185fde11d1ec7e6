/**
 * Changes to the data after it is generated: live orders and changes between pages for the
 * server, late updates and drift for tools, hidden catalog items and voided orders for tests.
 * Each call draws from its own random stream, numbered in call order, so a run repeats exactly.
 */
import type { Order } from "../api/schemas.js";
import { toEpochDay } from "../clock/days.js";
import type { CatalogKind, CatalogLists } from "./catalog-lists.js";
import { formatTimestamp, localDayOf, localMidnight, parseInstant } from "./clock.js";
import { decodeRecordId } from "./ids.js";
import type { Listings, UnlistedState } from "./listings.js";
import type { SimLocation } from "./location.js";
import { repriceItem, resettle } from "./order-totals.js";
import { Random } from "./random.js";
import { generateOrder } from "./session.js";
import { type SessionCache, sessionKey } from "./session-cache.js";

export type LateUpdateKind = "cancel" | "requantify" | "drop-item";

export interface LateUpdate {
  locationIndex: number;
  orderId: string;
  kind: LateUpdateKind;
}

/** How history drifts (Dataset.driftPastDays): an order changed, removed or added long after its
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

export class Mutations {
  private mutationCount = 0;

  constructor(
    private readonly locations: readonly SimLocation[],
    private readonly sessions: SessionCache,
    private readonly listings: Listings,
    private readonly catalog: CatalogLists,
    private readonly now: () => number,
  ) {}

  private mutationRandom(): Random {
    this.mutationCount++;
    return new Random(this.sessions.plan.seed, `mutation:${this.mutationCount}`);
  }

  private forgetSession(locationIndex: number, epochDay: number): void {
    this.sessions.forget(locationIndex, epochDay);
    this.listings.forgetSessionDays(locationIndex, epochDay);
  }

  /** Appends new orders to today's open session, created after every order it already has. */
  addLiveOrders(location: SimLocation, count: number): Order[] {
    return this.appendOrders(location, this.sessions.plan.todayEpochDay, count);
  }

  /** Appends orders to a session (an old one's report counts them too), created after every
   * order it already has and before the next local midnight. */
  private appendOrders(location: SimLocation, epochDay: number, count: number): Order[] {
    const session = this.sessions.session(location, epochDay);
    if (!session) return [];
    const { liveOrders } = this.sessions.overlays;
    const key = sessionKey(location.index, epochDay);
    const live = liveOrders.get(key) ?? [];
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
          { seed: this.sessions.plan.seed, location, header: session.header },
          random,
          sequence,
          createdAtMs,
        ),
      );
      lastCreated = createdAtMs;
    }
    liveOrders.set(key, [...live, ...added]);
    this.forgetSession(location.index, epochDay);
    return added;
  }

  /**
   * Changes `count` orders of closed sessions within the last `maxDaysBack` days, as a POS does
   * when a ticket is cancelled or corrected after the fact: new `updatedAt`, totals and payments
   * recomputed, and the session's report recomputed with them.
   */
  applyLateUpdates(count: number, maxDaysBack: number): LateUpdate[] {
    const random = this.mutationRandom();
    const { firstEpochDay, todayEpochDay } = this.sessions.plan;
    const firstDay = Math.max(firstEpochDay, todayEpochDay - maxDaysBack);
    const lastDay = todayEpochDay - 1;
    if (lastDay < firstDay) return [];
    const updates: LateUpdate[] = [];
    for (let i = 0; i < count; i++) {
      const location = random.pick(this.locations);
      const epochDay = random.int(firstDay, lastDay);
      const session = this.sessions.session(location, epochDay);
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
    const session = this.sessions.session(location, sessionDay);
    if (!session) throw new Error(`no session on day ${sessionDay}`);
    const { orderOverrides, reportUpdatedAt } = this.sessions.overlays;
    const updatedAtMs = Math.max(this.now(), parseInstant(original.updatedAt) + 60_000);
    const updated = applyLateUpdate(original, kind, random, formatTimestamp(updatedAtMs, location));
    orderOverrides.set(updated.id, updated);
    const reportChangedAt = Math.max(
      updatedAtMs,
      reportUpdatedAt.get(session.header.reportId) ?? 0,
    );
    reportUpdatedAt.set(session.header.reportId, reportChangedAt);
    this.forgetSession(location.index, sessionDay);
    return updated;
  }

  /** Changes one order, given by id, right now (a new quantity on one of its items). */
  updateOrder(location: SimLocation, orderId: string): Order | undefined {
    const address = decodeRecordId(this.sessions.plan.seed, orderId);
    const original = this.listings.order(location, orderId);
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
  driftPastDays(share: number, olderThanDays: number, kinds: readonly DriftKind[]): Drift[] {
    const random = this.mutationRandom();
    const drifts: Drift[] = [];
    const { firstEpochDay, todayEpochDay } = this.sessions.plan;
    const lastDay = todayEpochDay - olderThanDays - 1;
    for (const location of this.locations) {
      for (let epochDay = firstEpochDay; epochDay <= lastDay; epochDay++) {
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
      this.sessions
        .session(location, epochDay)
        ?.orders.filter((o) => !o.isCanceled && changeable(o)) ?? [];
    if (candidates.length === 0) return undefined;
    const original = random.pick(candidates);
    const { droppedOrders, orderOverrides } = this.sessions.overlays;
    if (kind === "remove") droppedOrders.add(original.id);
    else
      orderOverrides.set(
        original.id,
        applyLateUpdate(original, "requantify", random, original.updatedAt),
      );
    this.forgetSession(location.index, epochDay);
    return original;
  }

  hideCatalogItems(location: SimLocation, kinds: readonly CatalogKind[], count: number): string[] {
    return this.catalog.hide(location, kinds, count, this.mutationRandom());
  }

  /** Takes `count` orders of one location's day out of every list. */
  unlistOrders(location: SimLocation, day: string, count: number, state: UnlistedState): string[] {
    const epochDay = toEpochDay(day);
    const random = this.mutationRandom();
    const chosen = random
      .shuffle([...this.listings.ordersCreatedOn(location, epochDay)])
      .slice(0, count)
      .map((order) => order.id);
    this.listings.unlist(location.index, epochDay, chosen, state);
    return chosen;
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
