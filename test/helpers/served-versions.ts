/**
 * The ground truth of order history: every version of every order the simulator served, as seen
 * just before each sync read it, and how a destination's order_versions must then look. An
 * order's versions are its distinct contents in the order they were served; all but the last
 * belong in history, the last in the current tables.
 */
import type { Order } from "../../src/api/schemas.js";
import { dayFromEpoch, toEpochDay } from "../../src/clock/days.js";
import type { Dataset } from "../../src/simulator/dataset.js";
import type { StoredData, StoredRow } from "./stored-data.js";

export class ServedVersions {
  private readonly versions = new Map<string, Order[]>();
  /** Each order's location and business day (the day the API lists it under). */
  readonly placeOf = new Map<string, { locationId: string; day: string }>();
  /** Orders served by the latest observation: listed now. */
  private listed = new Set<string>();

  /** Records what the API serves now for these days; call it right before a sync reads them. */
  observe(dataset: Dataset, days: { since: string; until: string }): void {
    this.listed = new Set();
    for (const location of dataset.locations) {
      for (let day = toEpochDay(days.since); day <= toEpochDay(days.until); day++) {
        for (const order of dataset.ordersCreatedOn(location, day)) {
          this.add(order);
          this.listed.add(order.id);
          this.placeOf.set(order.id, { locationId: location.location.id, day: dayFromEpoch(day) });
        }
      }
    }
  }

  /** Every order listed at the last observation, with all its versions (the last is current). */
  current(): [string, Order[]][] {
    return [...this.versions].filter(([id]) => this.listed.has(id));
  }

  private add(order: Order): void {
    const seen = this.versions.get(order.id) ?? [];
    const last = seen.at(-1);
    if (!last || JSON.stringify(last) !== JSON.stringify(order))
      this.versions.set(order.id, [...seen, structuredClone(order)]);
  }

  /** Orders served in more than one version. */
  changed(): [string, Order[]][] {
    return [...this.versions].filter(([, versions]) => versions.length > 1);
  }
}

export function paid(order: Order): number {
  return order.payments.reduce((cents, p) => cents + Math.round(p.paymentAmount * 100), 0) / 100;
}

/** Each order's history rows against the versions served; returns the differences. */
export async function compareHistory(
  stored: StoredData,
  served: ServedVersions,
): Promise<string[]> {
  const rows = await stored.rows(
    "SELECT order_id, version, total, next_total, is_canceled, paid, updated_at, ended_by, changed_fields, next_updated_at, next_operator_name, next_is_canceled FROM order_versions ORDER BY order_id, version",
  );
  const byOrder = new Map<string, StoredRow[]>();
  for (const row of rows)
    byOrder.set(String(row.order_id), [...(byOrder.get(String(row.order_id)) ?? []), row]);
  const problems: string[] = [];
  for (const [id, versions] of served.changed()) {
    const kept = byOrder.get(id) ?? [];
    byOrder.delete(id);
    if (kept.length !== versions.length - 1) {
      problems.push(
        `${id}: ${kept.length} versions kept, ${versions.length - 1} served before the current one`,
      );
      continue;
    }
    for (const [i, row] of kept.entries()) {
      const version = versions[i] as Order;
      const next = versions[i + 1] as Order;
      const fields = parseFields(row.changed_fields);
      const checks: [string, boolean][] = [
        ["version", Number(row.version) === i + 1],
        ["total", Number(row.total) === version.total],
        ["next_total", Number(row.next_total) === next.total],
        ["is_canceled", stored.same(row.is_canceled, version.isCanceled)],
        ["updated_at", stored.same(row.updated_at, version.updatedAt)],
        ["paid", Number(row.paid) === paid(version)],
        ["ended_by", row.ended_by === "changed"],
        ["next_updated_at", stored.same(row.next_updated_at, next.updatedAt)],
        ["next_operator_name", row.next_operator_name === next.operatorName],
        ["next_is_canceled", stored.same(row.next_is_canceled, next.isCanceled)],
        [
          "is_canceled listed",
          fields.includes("is_canceled") === (version.isCanceled !== next.isCanceled),
        ],
        ["total listed", fields.includes("total") === (version.total !== next.total)],
      ];
      for (const [what, ok] of checks)
        if (!ok) problems.push(`${id} v${i + 1}: ${what} (${JSON.stringify(row)})`);
    }
  }
  for (const id of byOrder.keys()) problems.push(`${id}: history kept, but one version served`);
  return problems;
}

function parseFields(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === "string" ? (JSON.parse(value) as string[]) : [];
}
