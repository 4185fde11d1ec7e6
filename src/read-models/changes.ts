/**
 * What `pos-sync changes` reports: the order changes pos-sync saw since a day or since the last
 * run began, each told apart (cancelled, items voided, discount added, vanished…) and dated on
 * the location's clock. Reads v_order_changes on either destination; no API call.
 */

import { type LocalMoment, localMoment } from "../clock/local-moment.js";
import type { OrderChangeRow, StoredItem } from "../db/reads/changes.js";
import { locationNamed } from "../db/reads/location-named.js";
import type { Reader } from "../db/reads/reader.js";

/** The stores of reads this module reads. */
export type ChangesReader = Pick<Reader, "changes" | "checkpoints" | "locations">;

export type ChangeKind =
  | "cancelled"
  | "items voided"
  | "discount added"
  | "total changed"
  | "changed"
  | "vanished";

export interface VoidedItem {
  description: string;
  amount: number;
}

export interface OrderChange {
  orderId: string;
  orderNumber: string;
  locationId: string;
  locationName: string | null;
  businessDate: string;
  kinds: ChangeKind[];
  /** The replacing version's updatedAt, as stored; null when the order vanished. */
  changedAt: string | null;
  changedAtLocal: LocalMoment | null;
  changedBy: string | null;
  /** When pos-sync saw the change (UTC). */
  seenAt: string;
  previousTotal: number;
  newTotal: number | null;
  paid: number;
  /** When the earlier version was closed, on the location's clock. */
  closedAtLocal: LocalMoment;
  voidedItems: VoidedItem[];
  changedFields: string[];
  /** A correction the API made without a new updatedAt, found when pos-sync proved the day again
   * (the audit, verify --repair): when it was made, and by whom, is not known. */
  foundByRepair: boolean;
}

export interface ChangesReport {
  /** UTC instant the report starts at. */
  since: string;
  /** How `since` was chosen. */
  sinceFrom: "date" | "instant" | "last run" | "everything";
  locationId: string | null;
  changes: OrderChange[];
}

export interface ChangesOptions {
  /** A day (YYYY-MM-DD, from its start in UTC); by default, the start of the last run. */
  sinceDay?: string;
  /** An instant (ISO 8601); wins over sinceDay. */
  sinceInstant?: string;
  /** A location's id or name (any case). */
  location?: string;
}

const flag = (value: number | boolean | null): boolean => value === true || value === 1;

function parsedFields(value: OrderChangeRow["changedFields"]): string[] {
  if (value === null) return [];
  return Array.isArray(value) ? value : (JSON.parse(value) as string[]);
}

type ItemRow = Partial<Record<keyof StoredItem, unknown>>;

const standing = (item: ItemRow) => item.is_canceled !== true && item.is_canceled !== 1;

/**
 * The lines of the earlier version that no longer stand in the next one (voided, or taken off),
 * matched by product: a line taken off moves the positions after it, so positions cannot match
 * lines across versions (the rule of v_items_voided_after_close).
 */
export function voidedItems(
  content: OrderChangeRow["content"],
  nextItems: readonly ItemRow[],
): VoidedItem[] {
  const document = typeof content === "string" ? JSON.parse(content) : content;
  const before = ((document.order_items ?? []) as ItemRow[]).filter(standing);
  const left = new Map<string, number>();
  for (const item of nextItems.filter(standing)) {
    const product = String(item.item_catalog_id);
    left.set(product, (left.get(product) ?? 0) + 1);
  }
  const voided: VoidedItem[] = [];
  for (const item of before) {
    const product = String(item.item_catalog_id);
    const count = left.get(product) ?? 0;
    if (count > 0) left.set(product, count - 1);
    else voided.push({ description: String(item.description), amount: Number(item.total) });
  }
  return voided;
}

/** What kind of change a row is; several at once when one version did several things. */
export function changeKinds(
  row: OrderChangeRow,
  fields: readonly string[],
  voided: readonly VoidedItem[],
): ChangeKind[] {
  if (row.change === "vanished") return ["vanished"];
  const kinds: ChangeKind[] = [];
  if (!flag(row.wasCanceled) && flag(row.isCanceled)) kinds.push("cancelled");
  if (voided.length > 0) kinds.push("items voided");
  if (fields.some((f) => /^order_item_discounts\[[\d.]+\] added$/.test(f)))
    kinds.push("discount added");
  if (kinds.length === 0)
    kinds.push(Number(row.newTotal) !== Number(row.previousTotal) ? "total changed" : "changed");
  return kinds;
}

async function sinceInstant(
  destination: ChangesReader,
  { sinceDay, sinceInstant }: ChangesOptions,
): Promise<Pick<ChangesReport, "since" | "sinceFrom">> {
  if (sinceInstant !== undefined)
    return { since: new Date(sinceInstant).toISOString(), sinceFrom: "instant" };
  if (sinceDay !== undefined) return { since: `${sinceDay}T00:00:00.000Z`, sinceFrom: "date" };
  const run = await destination.checkpoints.lastRun();
  if (run) return { since: new Date(run.startedAt).toISOString(), sinceFrom: "last run" };
  return { since: new Date(0).toISOString(), sinceFrom: "everything" };
}

export async function collectChanges(
  destination: ChangesReader,
  options: ChangesOptions = {},
): Promise<ChangesReport> {
  const { since, sinceFrom } = await sinceInstant(destination, options);
  const locationId =
    options.location === undefined ? null : await locationNamed(destination, options.location);
  const rows = await destination.changes.orderChanges({
    seenSince: since,
    ...(locationId === null ? {} : { locationId }),
  });
  // A location's offset at each moment (summer time moves it), its rule read once.
  const offsets = new Map<string, (at: Date) => number | undefined>();
  const clockAt = async (locationId: string, timestamp: string): Promise<LocalMoment> => {
    let offsetAt = offsets.get(locationId);
    if (!offsetAt) {
      offsetAt = await destination.locations.utcOffsets(locationId);
      offsets.set(locationId, offsetAt);
    }
    return localMoment(timestamp, offsetAt(new Date(timestamp)));
  };
  const changes: OrderChange[] = [];
  for (const row of rows) {
    const closedAt = await clockAt(row.locationId, row.closedAt);
    const changedAt = row.changedAt === null ? null : await clockAt(row.locationId, row.changedAt);
    changes.push(toChange(row, closedAt, changedAt));
  }
  return { since, sinceFrom, locationId, changes: changes.filter(isVisible) };
}

/** A change worth telling: one that vanished, or that changed something the tables show (a
 * version whose JSON changed but not its typed rows, a field pos-sync does not store or a new
 * updatedAt alone, stays in order history and v_order_changes, unsaid). */
function isVisible(change: OrderChange): boolean {
  return change.kinds.includes("vanished") || change.changedFields.length > 0;
}

function toChange(
  row: OrderChangeRow,
  closedAtLocal: LocalMoment,
  changedAtLocal: LocalMoment | null,
): OrderChange {
  const fields = parsedFields(row.changedFields);
  const voided = row.nextItems === null ? [] : voidedItems(row.content, row.nextItems);
  return {
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    locationId: row.locationId,
    locationName: row.locationName,
    businessDate: row.businessDate,
    kinds: changeKinds(row, fields, voided),
    changedAt: row.changedAt,
    changedAtLocal,
    changedBy: row.changedBy,
    seenAt: new Date(row.seenAt).toISOString(),
    previousTotal: Number(row.previousTotal),
    newTotal: row.newTotal === null ? null : Number(row.newTotal),
    paid: Number(row.previousPaid),
    closedAtLocal,
    voidedItems: voided,
    changedFields: fields,
    foundByRepair: row.change === "repaired",
  };
}
