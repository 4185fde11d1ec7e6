/**
 * Order history: every version of an order that a later version replaced, or that the API
 * stopped listing. The current tables hold the latest version alone (what every view and query
 * reads); this table holds the ones before it, so that what changed after the fact, and who
 * changed it, can be asked. An order's first version, while it is current, has no row here. The
 * contract's `order_versions` is a view of it (views.ts), without the typed twins.
 */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { clockColumns, dayIndex, flag, locationId } from "./columns.js";

export const orderVersionRows = sqliteTable(
  "order_version_rows",
  {
    order_id: text("order_id").notNull(),
    /** 1 for the first version pos-sync stored; the current version is the next number. */
    version: integer("version").notNull(),
    location_id: locationId(),
    business_date: text("business_date").notNull(),
    order_number: text("order_number").notNull(),
    /** Who the API named on this version: on a changed version, often who changed it. */
    operator_id: text("operator_id").notNull(),
    operator_name: text("operator_name").notNull(),
    /** The API's updatedAt of this version: when the POS changed the order. */
    updated_at: text("updated_at").notNull(),
    closed_at: text("closed_at").notNull(),
    total: real("total").notNull(),
    is_canceled: flag("is_canceled").notNull(),
    /** What the order's payments added up to in this version. */
    paid: real("paid").notNull(),
    /** When pos-sync stored this version (its synced_at while it was current). */
    seen_at: text("seen_at").notNull(),
    /** When pos-sync saw this version end: replaced by a newer one, or gone from the API's list. */
    ended_at: text("ended_at").notNull(),
    /** changed (a newer version replaced it) or vanished (a complete read of its day no longer
     * listed the order; if it comes back, it does as the next version). */
    ended_by: text("ended_by").notNull(),
    /** The version that replaced it, as far as "who changed what when" needs it; null when it
     * vanished. Kept on this row so that the change stays told right whatever came after (a
     * version history did not keep while it was switched off). */
    next_total: real("next_total"),
    next_updated_at: text("next_updated_at"),
    next_operator_id: text("next_operator_id"),
    next_operator_name: text("next_operator_name"),
    next_is_canceled: flag("next_is_canceled"),
    /** JSON array of what the next version changed: columns of the order (`is_canceled`), of a
     * child row (`order_items[2].is_canceled`), or a child row added or removed
     * (`order_item_discounts[1.0] added`); null when it vanished. */
    changed_fields: text("changed_fields"),
    /** JSON object: this version's rows, `{"orders": {…}, "order_items": […], …}`, each table's
     * columns less the bookkeeping ones. */
    content: text("content").notNull(),
    ...clockColumns(["business_date"], ["closed_at", "ended_at", "next_updated_at"]),
  },
  (t) => [
    primaryKey({ columns: [t.order_id, t.version] }),
    index("order_versions_location_ended").on(t.location_id, t.ended_at),
    index("order_versions_ended").on(t.ended_at),
    dayIndex("order_version_rows", t.business_date_typed),
  ],
);
