/** The loss-prevention views (drizzle/0011_loss_prevention_views.sql, drizzle/pg/0004): the
 * questions asked after "how much did we sell". Each names the location and the operator; the
 * ones that compare versions read order_versions. */
import type { ViewDoc } from "./types.js";

const orderId = "The order (orders.id).";
const locationId = "The location (locations.id).";
const locationName = "The location's name (locations.name); null until the location is read.";
const businessDate = "The order's business_date (YYYY-MM-DD).";
const orderNumber = "The order's number as the POS shows it.";
const operatorId = "The operator named on the order's current version.";
const operatorName = "That operator's name.";

/** The columns every per-order loss-prevention view starts with. */
const orderColumns = {
  order_id: orderId,
  location_id: locationId,
  location_name: locationName,
  business_date: businessDate,
  order_number: orderNumber,
  operator_id: operatorId,
  operator_name: operatorName,
};

export const LOSS_PREVENTION_VIEWS: Record<string, ViewDoc> = {
  v_order_changes: {
    meaning:
      "Which orders changed after pos-sync first stored them, when, by whom and what it cost: one row per version that ended (order_versions), with what replaced it or the day it vanished. `pos-sync changes` reads it (and leaves out the versions whose typed rows did not change: changed_fields empty).",
    columns: {
      order_id: orderId,
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
      order_number: orderNumber,
      from_version: "The version that ended (order_versions.version); the next one replaced it.",
      change:
        "changed (a newer version replaced it), repaired (a correction the API made without a new updatedAt, found when pos-sync proved the day again: changed_at and changed_by then say nothing of when or who) or vanished (the API stopped listing the order).",
      changed_at:
        "The replacing version's updatedAt, on the location's wall clock: when the POS made the change; null when it vanished.",
      changed_by_id: "The operator named on the replacing version; null when it vanished.",
      changed_by: "That operator's name.",
      seen_at:
        "When pos-sync saw the change, on the location's clock as the API last wrote it for the order (order_versions.ended_at_offset).",
      seen_at_sent: "When pos-sync saw the change (UTC, ISO 8601).",
      closed_at:
        "When the earlier version says the order was closed (paid), on the location's wall clock.",
      previous_operator_name: "The operator named on the earlier version.",
      previous_total: "The earlier version's total.",
      new_total: "The replacing version's total; null when it vanished.",
      total_change: "new_total minus previous_total (minus previous_total when it vanished).",
      previous_paid: "What the earlier version's payments added up to.",
      was_canceled: "1 when the earlier version was cancelled.",
      is_canceled: "1 when the replacing version is cancelled; null when it vanished.",
      changed_fields:
        "JSON array of what changed (order_versions.changed_fields); null when it vanished.",
    },
  },
  v_cancelled_after_payment: {
    meaning:
      "Which paid orders were cancelled, by whom, and how much money they had taken: orders cancelled now (training ones left out) that pos-sync saw paid and not cancelled before (seen_paid = 1), or that are cancelled while still carrying their payments.",
    columns: {
      ...orderColumns,
      operator_id:
        "The operator named on the version after the last paid one (usually who cancelled it); the current one's when pos-sync saw no paid version.",
      operator_name: "That operator's name.",
      served_by: "The operator named on the last paid version (who took the payment).",
      total: "The order's total.",
      paid: "What the order's payments added up to when it was paid.",
      paid_at: "When the paid version says the order was closed, on the location's wall clock.",
      cancelled_at:
        "The updatedAt of the version after the last paid one (usually the cancellation), on the location's wall clock.",
      cancel_reason: "The reason the API gives.",
      seen_paid:
        "1 when pos-sync stored a paid, not cancelled version first (history); 0 when it first saw the order already cancelled with its payments.",
    },
  },
  v_items_voided_after_close: {
    meaning:
      "Which items were voided or taken off after the order was closed: lines that stood in the first version pos-sync stored and no longer stand (cancelled, or gone) in the current one, matched by product because a line taken off moves the positions after it.",
    columns: {
      ...orderColumns,
      operator_id: "The operator named on the order's current version (the last change).",
      first_position: "The item's position in the first version (order_items.position then).",
      item_catalog_id: "The product (products.id).",
      description: "The item's description.",
      quantity: "Its quantity in the first version.",
      amount: "Its total in the first version: what the void took off.",
      closed_at: "When the first version says the order was closed, on the location's wall clock.",
      changed_at:
        "The current version's updatedAt, on the location's wall clock: the order's last change.",
    },
  },
  v_discounts_by_operator: {
    meaning:
      "How much each operator gave away in discounts per day, and what share of their sales: over the orders that count as sales, with the discounts added after pos-sync first stored the orders.",
    columns: {
      location_id: locationId,
      location_name: locationName,
      business_date: businessDate,
      operator_id: "The operator named on the orders.",
      operator_name: "That operator's name.",
      orders: "Sales orders.",
      discounted_orders: "Those with a discount.",
      sales: "Their total, discounts taken off, tax included.",
      discounts: "Their discounts (orders.total_discount).",
      discount_share:
        "discounts / (sales + discounts): the share of the sales before discounts given away (0.0523 = 5.23 %).",
      discounts_added_later:
        "Discounts added after pos-sync first stored the orders (current total_discount above the first version's).",
    },
  },
  v_changed_after_report: {
    meaning:
      "Which orders changed after their till session's report was finalized, so that the report no longer tells what they say: the order's updatedAt later than the report's finalizedAt.",
    columns: {
      ...orderColumns,
      report_id: "The order's report (reports.id).",
      report_finalized_at: "When the report was finalized, on the location's wall clock.",
      changed_at: "The order's updatedAt, on the location's wall clock.",
      minutes_after: "Minutes between the two.",
      total: "The order's total now.",
      is_canceled: "1 when the order is cancelled now.",
      earlier_versions: "Versions of it in order_versions (0 when pos-sync saw one version).",
    },
  },
  v_room_transfers: {
    meaning:
      "Which orders were charged to a hotel guest's room account (isTransferred), by whom, for how much.",
    columns: {
      ...orderColumns,
      transfer_reason: "The reason the API gives (often the room).",
      total: "The order's total.",
      closed_at: "When the order was closed, on the location's wall clock.",
      is_canceled: "1 when the order is cancelled.",
    },
  },
  v_payment_mismatches: {
    meaning:
      "Which orders that count as sales have payments that do not add up to their total (to the cent): short or over-paid tickets.",
    columns: {
      ...orderColumns,
      total: "The order's total.",
      paid: "What its payments add up to.",
      difference: "paid minus total (negative: short).",
      payments: "Number of payments.",
    },
  },
  v_training_with_payments: {
    meaning:
      "Which training-mode orders (they count in no sale) carry payments: money taken on a ticket the sales figures leave out.",
    columns: {
      ...orderColumns,
      total: "The order's total.",
      paid: "What its payments add up to.",
      payments: "Number of payments.",
    },
  },
};
