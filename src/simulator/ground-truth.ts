/**
 * Everything the simulator serves, and the changes and anomalies it planted, read straight from
 * the sessions: what tests and tools compare a synced database against.
 */
import type { Order, Report } from "../api/schemas.js";
import type { SimLocation } from "./location.js";
import { toUnits } from "./money.js";
import type { OrderAnomalyKind, OrderChangeKind } from "./order-changes.js";
import type { SessionCache } from "./session-cache.js";

/** One after-the-fact change the simulator planned for an order. */
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

/** An order served wrong on purpose from its creation on. */
export interface PlantedAnomaly {
  locationIndex: number;
  orderId: string;
  day: string;
  kind: OrderAnomalyKind;
  /** How much the last payment falls short of the total, in currency units. */
  shortBy: number;
}

export function* allOrders(sessions: SessionCache, location: SimLocation): Generator<Order> {
  for (const session of sessions.sessionsOf(location)) yield* session.orders;
}

export function* allReports(sessions: SessionCache, location: SimLocation): Generator<Report> {
  for (const session of sessions.sessionsOf(location)) if (session.report) yield session.report;
}

/** Every after-the-fact change planned for the location's orders created by now, due or
 * not, by session then order then time; `visible` when it is due and no explicit late update
 * (applyLateUpdates, updateOrder) replaced the order, whose version then hides every plan. */
export function plannedChanges(sessions: SessionCache, location: SimLocation): PlannedChange[] {
  const nowMs = sessions.nowAt(location);
  const { orderOverrides } = sessions.overlays;
  const changes: PlannedChange[] = [];
  for (const session of sessions.sessionsOf(location)) {
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
          visible: step.atMs <= nowMs && !orderOverrides.has(plan.orderId),
        });
      }
    }
  }
  return changes;
}

/** Every order of the location served with a planted anomaly. */
export function plantedAnomalies(sessions: SessionCache, location: SimLocation): PlantedAnomaly[] {
  const anomalies: PlantedAnomaly[] = [];
  for (const session of sessions.sessionsOf(location)) {
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
