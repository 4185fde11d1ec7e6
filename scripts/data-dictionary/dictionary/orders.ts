/** Orders and their arrays (src/db/schema/orders.ts). */
import {
  api,
  businessDate,
  CLOSED_HOUR,
  clockOffset,
  contentHash,
  dayRecordDeletedAt,
  derived,
  flag,
  locationId,
  position,
  sentAt,
  syncedAt,
  utc,
} from "./columns.js";
import type { TableDoc } from "./types.js";

const orderId = () => api("id", "The order (orders.id).");
const itemPosition = () =>
  derived("The item's index in the order's `items[]` (order_items.position).");

export const ORDER_TABLES: Record<string, TableDoc> = {
  api_ids: {
    record: null,
    rowsFrom: "one row per distinct id that orders and the rows of their arrays keep by key.",
    meaning:
      "Ids of the API that rows name again and again, each stored once: an order's location, report, operator and device, and the catalog entries that rows of its arrays name (a product, a tax, a modifier and its group, a discount, a payment method). The tables behind orders, order_items, order_item_modifiers, order_item_discounts and order_payments keep an id's key (`location_ref`, `item_catalog_ref` …), and those relations show the id. Ids are never removed, so a key always stands for the same id.",
    columns: {
      key: derived(
        "The id's key, given by the database (order_rows.location_ref, order_item_rows.item_catalog_ref …).",
      ),
      id: derived(
        "The id, as an order sent it (`locationId`, `reportId`, `items[].itemCatalogId`, `payments[].paymentCatalogId` …: locations.id, reports.id, products.id …).",
      ),
    },
  },
  orders: {
    record: "order",
    meaning:
      "One row per order, in every state: filter out cancelled, training and transferred orders for sales figures (or use the views).",
    columns: {
      key: derived(
        "The row's key, given by the database and never reused: what the tables behind the order's arrays refer to it by (order_item_rows.order_key …). The order's identity is id.",
      ),
      id: api("id", "Order identifier (UUID)."),
      location_id: locationId(),
      business_date: businessDate("order"),
      created_at: sentAt("createdAt", "When the server first recorded the order"),
      updated_at: sentAt(
        "updatedAt",
        "When the order last changed",
        "a newer version replaces the row",
      ),
      customer_id: api(
        "customerId",
        "Customer identifier (not necessarily a UUID); null when the order has no customer.",
      ),
      device_id: api(
        "deviceId",
        "Identifier of the device that took the order; null when the API sends none.",
      ),
      device_name: api(
        "deviceName",
        "Name of that device; null when the API sends null or leaves it out.",
      ),
      report_id: api(
        "reportId",
        "The till session (reports.id) the order belongs to; that report may not be stored yet.",
      ),
      opened_at: sentAt("openedAt", "When the order was opened"),
      closed_at: sentAt("closedAt", "When the order was closed"),
      closed_hour: derived(CLOSED_HOUR),
      created_at_offset: clockOffset("created_at"),
      closed_at_offset: clockOffset("closed_at"),
      updated_at_offset: clockOffset("updated_at"),
      guests: api("guests", "Number of guests, as sent (the API sends a number, so REAL)."),
      order_place: api("orderPlace", "Selling place, as sent."),
      order_number: api("orderNumber", "Order number as shown at the till (text)."),
      operator_id: api("operatorId", "The staff member who handled the order (UUID)."),
      operator_name: api("operatorName", "That staff member's name."),
      total: api("total", "Order total, discounts and taxes included."),
      total_tax: api("totalTax", "Tax included in the total."),
      total_discount: api("totalDiscount", "Discounts granted on the order."),
      menus: api(
        "menus",
        "The order's menus as a JSON array (the API does not document their fields).",
      ),
      tips: api(
        "tips",
        "The order's tips as a JSON array, or null when the API sends null (fields not documented).",
      ),
      is_canceled: flag(
        "isCanceled",
        "when the order was cancelled (before or after payment)",
        "A cancelled order counts in no sales total.",
      ),
      is_transferred: flag(
        "isTransferred",
        "when the order was transferred to a hotel property-management system, to be charged to a guest's room account",
        "A report's total_sales excludes it.",
      ),
      transfer_reason: api(
        "transferReason",
        "Why the order was transferred; null when it was not or no reason was given.",
      ),
      cancel_reason: api(
        "cancelReason",
        "Why the order was cancelled; null when it was not or no reason was given.",
      ),
      channel: api(
        "channel",
        "Sales channel as sent (values not documented); `unknown` when the API leaves it out.",
      ),
      service_type: api(
        "serviceType",
        "takeout, eatin, delivery or unknown (also when the API leaves it out).",
      ),
      is_training: api(
        "isTraining",
        "1 for an order made in training mode, which counts in no sales figure; 0 otherwise, also when the API leaves it out.",
      ),
      source: api("source", "Where the order was placed, as sent (values not documented)."),
      external_order_id: api(
        "externalOrderId",
        "The order's identifier in an external service; null when none.",
      ),
      external_location_id: api(
        "externalLocationId",
        "The location's identifier in an external service; null when none.",
      ),
      content_hash: contentHash("order"),
      synced_at: syncedAt(),
      deleted_at: dayRecordDeletedAt("order"),
    },
  },
  order_items: {
    record: "order",
    elements: "items[]",
    meaning:
      "One row per line of an order, cancelled lines included; the item's tax object is flattened into tax_* columns.",
    columns: {
      order_id: orderId(),
      position: position("items[]"),
      location_id: locationId(),
      description: api("items[].description", "Item name as it appears on the order."),
      quantity: api("items[].quantity", "Quantity sold, as sent."),
      weight: api("items[].weight", "Weight of a weighed item, as sent; null for other items."),
      unit_price: api("items[].unitPrice", "Price of one unit."),
      total: api("items[].total", "Line total after discounts, tax included."),
      category: api("items[].category", "Category name at the time of sale."),
      sub_category: api("items[].subCategory", "Subcategory name at the time of sale."),
      is_canceled: flag(
        "items[].isCanceled",
        "when the line was cancelled",
        "A cancelled line counts in no product, tax or quantity figure.",
      ),
      cancel_reason: api(
        "items[].cancelReason",
        "Why the line was cancelled; null when it was not or no reason was given.",
      ),
      tier: api(
        "items[].tier",
        "Name of the price type used (matches product_prices.price_type_name).",
      ),
      is_transferred: flag(
        "items[].isTransferred",
        "when the line was transferred to a hotel room account",
      ),
      transfer_reason: api(
        "items[].transferReason",
        "Why the line was transferred; null when it was not or no reason was given.",
      ),
      stock_impact_indicator: api(
        "items[].stockImpactIndicator",
        "1 when the line affects stock, 0 when not; null when the API leaves the field out.",
      ),
      tax_name: api("items[].tax.taxName", "Name of the tax applied."),
      tax_rate: api("items[].tax.taxRate", "Tax rate as sent: a fraction (0.1 = 10 %)."),
      tax_rate_bp: derived(
        "tax_rate × 10 000, rounded: hundredths of a percent (1000 = 10 %), the unit catalog and report rates share.",
      ),
      tax_amount: api("items[].tax.taxAmount", "Tax included in the line total."),
      tax_catalog_id: api("items[].tax.taxCatalogId", "The tax in the catalog (taxes.id)."),
      item_catalog_id: api("items[].itemCatalogId", "The product in the catalog (products.id)."),
      is_loss: api(
        "items[].isLoss",
        "1 when the line was recorded as a loss, 0 when not; null when the API leaves it out.",
      ),
      loss_reason: api(
        "items[].lossReason",
        "Why the line was a loss; null when it was not or the API leaves it out.",
      ),
      combo_parent_id: api(
        "items[].comboParentId",
        "Identifier of the combo this line belongs to, as sent; null when none or left out.",
      ),
    },
  },
  order_item_modifiers: {
    record: "order",
    elements: "items[].modifiers[]",
    meaning: "One row per modifier chosen on an order line (e.g. a side or a cooking option).",
    columns: {
      order_id: orderId(),
      item_position: itemPosition(),
      position: position("modifiers[]"),
      location_id: locationId(),
      modifier_group_id: api(
        "items[].modifiers[].modifierGroupId",
        "The modifier group in the catalog (modifiers.id).",
      ),
      modifier_id: api(
        "items[].modifiers[].modifierId",
        "The option chosen in that group (modifier_options.id).",
      ),
      name: api("items[].modifiers[].name", "Name of the option chosen."),
    },
  },
  order_item_discounts: {
    record: "order",
    elements: "items[].discountsApplied[]",
    meaning: "One row per discount applied to an order line.",
    columns: {
      order_id: orderId(),
      item_position: itemPosition(),
      position: position("discountsApplied[]"),
      location_id: locationId(),
      discount_name: api("items[].discountsApplied[].discountName", "Name of the discount."),
      discount_value: api(
        "items[].discountsApplied[].discountValue",
        "Amount taken off the line, as sent.",
      ),
      discount_catalog_id: api(
        "items[].discountsApplied[].discountCatalogId",
        "The discount in the POS catalog (pos-sync has no discounts table).",
      ),
    },
  },
  order_payments: {
    record: "order",
    elements: "payments[]",
    meaning: "One row per payment of an order.",
    columns: {
      order_id: orderId(),
      position: position("payments[]"),
      location_id: locationId(),
      payment_amount: api("payments[].paymentAmount", "Amount paid."),
      payment_name: api("payments[].paymentName", "Name of the payment method."),
      payment_catalog_id: api(
        "payments[].paymentCatalogId",
        "The payment method in the catalog (payment_methods.id).",
      ),
    },
  },
  order_versions: {
    record: "order",
    meaning:
      "Order history: one row per earlier version of an order, kept when a sync stored a newer version (its content changed) or when a complete re-read of its day stopped listing it. The current version stays in orders and its child tables alone (so every query and view reads as before); an order pos-sync has seen once has no row here. Versions are numbered in the order pos-sync kept them; the order's row in orders is the one after the highest here (or, for an order marked vanished, the vanished row's own). Off with POS_ORDER_HISTORY=false (or sync --no-history).",
    columns: {
      order_id: orderId(),
      version: derived(
        "1 for the first version pos-sync stored, then 2, 3…; (order_id, version) is the key.",
      ),
      location_id: locationId(),
      business_date: businessDate("order"),
      order_number: api("orderNumber", "Order number of this version."),
      operator_id: api(
        "operatorId",
        "Staff member named on this version (on a version that changed the order, usually who changed it).",
      ),
      operator_name: api("operatorName", "That staff member's name."),
      updated_at: sentAt("updatedAt", "When the POS last changed this version"),
      closed_at: sentAt("closedAt", "When this version says the order was closed"),
      total: api("total", "Order total of this version."),
      is_canceled: flag("isCanceled", "when this version was cancelled"),
      paid: derived("What this version's payments added up to (sum of payments[].paymentAmount)."),
      seen_at: utc(
        "When pos-sync stored this version",
        "the synced_at the order's row had while it was current",
      ),
      ended_at: utc("When pos-sync saw this version end: replaced, or gone from its day's list"),
      ended_by: derived(
        "changed (a newer version replaced it), repaired (a version the API corrected without a new updatedAt replaced it, found when pos-sync proved the day again: the audit or verify --repair) or vanished (a complete re-read of its day no longer listed the order; should it come back, it does as the next version).",
      ),
      next_total: derived("Total of the version that replaced it; null when it vanished."),
      next_updated_at: api(
        "updatedAt",
        "The replacing version's updatedAt, as sent: when the POS made the change; null when it vanished.",
      ),
      next_operator_id: api(
        "operatorId",
        "The staff member the replacing version names (usually who made the change); null when it vanished.",
      ),
      next_operator_name: api("operatorName", "That staff member's name."),
      next_is_canceled: api(
        "isCanceled",
        "1 when the replacing version is cancelled, 0 otherwise; null when it vanished.",
      ),
      changed_fields: derived(
        "JSON array of what the next version changed: a column of the order (`is_canceled`), a column of a child row named by table and position (`order_items[2].is_canceled`, `order_item_discounts[1.0]` for item 1, discount 0), or a child row `added` or `removed`. updated_at and what the location's clock derives (closed_hour, the offsets) are left out. Null when it vanished.",
      ),
      closed_at_offset: derived(
        "Minutes the location's clock was ahead of UTC at closed_at, as the order's row had it (orders.closed_at_offset).",
      ),
      next_updated_at_offset: derived(
        "The same for next_updated_at, as the replacing version's row had it; null when it vanished.",
      ),
      ended_at_offset: derived(
        "The offset the views show ended_at with: the location's clock as the API last wrote it for the order (next_updated_at_offset, or when it vanished the offset of this version's updatedAt). A version keeps the clock it was stored with when the location's time zone setting changes.",
      ),
      content: derived(
        'This version as JSON: `{"orders": {…}, "order_items": […], "order_item_modifiers": […], "order_item_discounts": […], "order_payments": […]}`, each with its table\'s columns less location_id, the order id and bookkeeping (synced_at, content_hash, deleted_at), menus and tips as JSON. Values as the destination stores them: flags 0/1 and date-times as sent on SQLite, booleans and UTC instants on PostgreSQL. Query it with json_extract/json_each (SQLite) or ->/jsonb_array_elements (PostgreSQL).',
      ),
    },
  },
};
