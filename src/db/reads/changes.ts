/** What `changes` reads: the order changes pos-sync saw, each with the items of the version that
 * replaced it. */

import type { ReadSession } from "./session.js";

/** Which changes `changes` reads: those pos-sync saw from an instant on, of one location or all. */
export interface OrderChangeFilter {
  /** UTC, ISO 8601. */
  seenSince: string;
  locationId?: string;
}

/** An item of a version, as far as `changes` needs it. */
export interface StoredItem {
  position: number;
  item_catalog_id: string;
  description: string;
  total: number;
  is_canceled: number | boolean;
}

/** A row of v_order_changes, with the earlier version's content (history/versions.ts) and the
 * replacing version's items. As each destination returns them: flags 0/1 or booleans, JSON as
 * text or parsed. */
export interface OrderChangeRow {
  orderId: string;
  locationId: string;
  locationName: string | null;
  businessDate: string;
  orderNumber: string;
  fromVersion: number;
  /** repaired: replaced by a repair's read, a correction upstream that kept its updatedAt. */
  change: "changed" | "repaired" | "vanished";
  changedAt: string | null;
  changedBy: string | null;
  seenAt: string;
  closedAt: string;
  previousTotal: number;
  newTotal: number | null;
  previousPaid: number;
  wasCanceled: number | boolean;
  isCanceled: number | boolean | null;
  changedFields: string | string[] | null;
  content: string | Record<string, unknown>;
  /** From the next history row, or the current order's items; null when the order vanished. */
  nextItems: StoredItem[] | null;
}

/** A row as the query returns it, before the next version's items are added. */
type OrderChangeQueryRow = Omit<OrderChangeRow, "nextItems"> & {
  nextContent: unknown;
  nextIsCurrent: unknown;
};

type ItemOfOrder = StoredItem & { order_id: string };

export class ChangeReads {
  constructor(private readonly db: ReadSession) {}

  /** The order changes pos-sync saw (v_order_changes, its date-times as sent), oldest first, each with the items of the
   * version that replaced it: a later history row's content, or the current order's items. */
  async orderChanges(filter: OrderChangeFilter): Promise<OrderChangeRow[]> {
    const ofLocation =
      filter.locationId === undefined ? "" : ` AND c.location_id = ${this.db.p(2)}`;
    const rows = await this.db.all<OrderChangeQueryRow>(
      `SELECT c.order_id AS "orderId", c.location_id AS "locationId",
         c.location_name AS "locationName", c.business_date AS "businessDate",
         c.order_number AS "orderNumber", c.from_version AS "fromVersion", c.change,
         c.changed_at_sent AS "changedAt", c.changed_by AS "changedBy",
         c.seen_at_sent AS "seenAt", c.closed_at_sent AS "closedAt", c.previous_total AS "previousTotal", c.new_total AS "newTotal",
         c.previous_paid AS "previousPaid", c.was_canceled AS "wasCanceled",
         c.is_canceled AS "isCanceled", c.changed_fields AS "changedFields", h.content,
         n.content AS "nextContent", (c.change = 'changed' AND n.order_id IS NULL) AS "nextIsCurrent"
       FROM v_order_changes c
       JOIN order_versions h ON h.order_id = c.order_id AND h.version = c.from_version
       LEFT JOIN order_versions n ON n.order_id = c.order_id AND n.version = c.from_version + 1
       WHERE c.seen_at_sent >= ${this.db.p(1)}${ofLocation}
       ORDER BY c.seen_at_sent, c.location_id, c.order_number, c.from_version`,
      filter.locationId === undefined ? [filter.seenSince] : [filter.seenSince, filter.locationId],
    );
    const ids = [...new Set(rows.filter((r) => r.nextIsCurrent).map((r) => r.orderId))];
    const current = new Map<string, StoredItem[]>();
    const items =
      ids.length === 0
        ? []
        : await this.db.all<ItemOfOrder>(
            `SELECT order_id, position, item_catalog_id, description, total, is_canceled
             FROM order_items WHERE ${this.db.dialect.inList("order_id", 1)}
             ORDER BY order_id, position`,
            [ids],
          );
    for (const item of items) {
      const ofOrder = current.get(item.order_id);
      if (ofOrder) ofOrder.push(item);
      else current.set(item.order_id, [item]);
    }
    return rows.map(({ nextContent, nextIsCurrent, ...row }) => {
      if (row.change === "vanished") return { ...row, nextItems: null };
      if (nextIsCurrent) return { ...row, nextItems: current.get(row.orderId) ?? [] };
      const document = (
        typeof nextContent === "string" ? JSON.parse(nextContent) : nextContent
      ) as { order_items?: StoredItem[] } | null;
      return { ...row, nextItems: document?.order_items ?? [] };
    });
  }
}
