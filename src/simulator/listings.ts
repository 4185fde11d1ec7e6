/**
 * What the API lists and reads: records filed under the local day of their creation, paged
 * across days, and single records by id. A page generates only the days it touches, and each
 * day's orders are sorted once for all of its pages.
 */

import type { Order, Report } from "../api/schemas.js";
import { dayFromEpoch, epochDayOnOrAfter, epochDayOnOrBefore, toEpochDay } from "../clock/days.js";
import type { DayRange } from "../vocabulary.js";
import { localDayOf, localEpochDay } from "./clock.js";
import { sortByCreatedAt } from "./creation-order.js";
import { decodeRecordId } from "./ids.js";
import type { SimLocation } from "./location.js";
import { LruCache } from "./lru.js";
import { type SessionCache, sessionKey } from "./session-cache.js";

export interface ListRequest extends Partial<DayRange> {
  index: number;
  size: number;
  descending: boolean;
}

export interface ListResult<T> {
  records: T[];
  totalCount: number;
}

/** Voided orders are gone from every read; unlisted ones are still served by id. */
export type UnlistedState = "voided" | "unlisted";

export class Listings {
  private readonly bucketCounts = new Map<string, number>();
  /** Each day's orders sorted by creation: the pages of a day are served from one sort. */
  private readonly orderBuckets = new LruCache<string, readonly Order[]>(
    40_000,
    (orders) => orders.length,
  );
  /** Orders gone from every list, by "locationIndex:epochDay:id". */
  private readonly unlistedOrders = new Map<string, UnlistedState>();

  constructor(private readonly sessions: SessionCache) {}

  /** A new day changes what every past day shows (changes fall due). */
  clear(): void {
    this.orderBuckets.clear();
    this.bucketCounts.clear();
  }

  /** A session's records are created on its day or, its late tail and report, on the next. */
  forgetSessionDays(locationIndex: number, sessionEpochDay: number): void {
    for (const day of [sessionEpochDay, sessionEpochDay + 1]) {
      this.orderBuckets.delete(sessionKey(locationIndex, day));
      this.bucketCounts.delete(`${locationIndex}:orders:${day}`);
      this.bucketCounts.delete(`${locationIndex}:reports:${day}`);
    }
  }

  unlist(
    locationIndex: number,
    epochDay: number,
    orderIds: readonly string[],
    state: UnlistedState,
  ): void {
    for (const id of orderIds) this.unlistedOrders.set(`${locationIndex}:${epochDay}:${id}`, state);
    this.forgetBucket(locationIndex, epochDay);
  }

  relistAll(): void {
    for (const entry of this.unlistedOrders.keys()) {
      const [locationIndex, epochDay] = entry.split(":").map(Number);
      this.forgetBucket(locationIndex ?? 0, epochDay ?? 0);
    }
    this.unlistedOrders.clear();
  }

  private forgetBucket(locationIndex: number, epochDay: number): void {
    this.orderBuckets.delete(sessionKey(locationIndex, epochDay));
    this.bucketCounts.delete(`${locationIndex}:orders:${epochDay}`);
  }

  /** Orders created on a local day: that day's session and the previous one's late tail. */
  ordersCreatedOn(location: SimLocation, epochDay: number): readonly Order[] {
    const key = sessionKey(location.index, epochDay);
    const cached = this.orderBuckets.get(key);
    if (cached) return cached;
    const day = dayFromEpoch(epochDay);
    const orders: Order[] = [];
    for (const sessionDay of [epochDay - 1, epochDay]) {
      for (const order of this.sessions.session(location, sessionDay)?.orders ?? []) {
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
      const report = this.sessions.session(location, sessionDay)?.report;
      if (report && localDayOf(report.createdAt, location) === day) reports.push(report);
    }
    return sortByCreatedAt(reports);
  }

  private reportCountOn(location: SimLocation, epochDay: number): number {
    // Report times are in the session header: no need to generate any order.
    let count = 0;
    for (const sessionDay of [epochDay - 1, epochDay]) {
      if (!this.sessions.hasSession(sessionDay)) continue;
      const header = this.sessions.header(location, sessionDay);
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
  private daysIn(range: Partial<DayRange>, descending: boolean): number[] {
    const { firstEpochDay, todayEpochDay } = this.sessions.plan;
    const first = Math.max(firstEpochDay, range.since ? epochDayOnOrAfter(range.since) : -Infinity);
    const last = Math.min(todayEpochDay, range.until ? epochDayOnOrBefore(range.until) : Infinity);
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
    const address = decodeRecordId(this.sessions.plan.seed, reportId);
    const session =
      address?.kind === "report" && address.locationIndex === location.index
        ? this.sessions.session(location, address.sessionEpochDay)
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
    const address = decodeRecordId(this.sessions.plan.seed, id);
    if (address?.kind !== "order" || address.locationIndex !== location.index) return undefined;
    const order = this.sessions
      .session(location, address.sessionEpochDay)
      ?.orders.find((o) => o.id === id.toLowerCase());
    // A voided order is gone from every read, by id as well as from the lists.
    if (!order) return undefined;
    const createdOn = toEpochDay(localDayOf(order.createdAt, location));
    const state = this.unlistedOrders.get(`${location.index}:${createdOn}:${order.id}`);
    return state === "voided" ? undefined : order;
  }

  report(location: SimLocation, id: string): Report | undefined {
    const address = decodeRecordId(this.sessions.plan.seed, id);
    if (address?.kind !== "report" || address.locationIndex !== location.index) return undefined;
    return this.sessions.session(location, address.sessionEpochDay)?.report ?? undefined;
  }
}
