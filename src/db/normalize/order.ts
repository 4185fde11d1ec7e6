/** One order → its row and the rows of its items, item modifiers, item discounts and payments. */
import type { Order } from "../../api/schemas.js";
import { contentHash } from "../../content-hash.js";
import type {
  orderItemDiscountRows,
  orderItemModifierRows,
  orderItemRows,
  orderPaymentRows,
  orderRows,
  RelationRow,
  ShownRow,
} from "../schema/index.js";
import { basisPointsFromFraction, bit, type DayRowContext, optional } from "./values.js";

/** An order's row as `orders` shows it, less its key: the database gives it. */
export type OrderRow = ShownRow<typeof orderRows, "key">;
type OfOrder<T extends { $inferSelect: object }> = RelationRow<T, "order_key", "order_id">;
export type OrderItemRow = OfOrder<typeof orderItemRows>;
export type OrderItemModifierRow = OfOrder<typeof orderItemModifierRows>;
export type OrderItemDiscountRow = OfOrder<typeof orderItemDiscountRows>;
export type OrderPaymentRow = OfOrder<typeof orderPaymentRows>;

export interface OrderRows {
  order: OrderRow;
  items: OrderItemRow[];
  modifiers: OrderItemModifierRow[];
  discounts: OrderItemDiscountRow[];
  payments: OrderPaymentRow[];
}

export function normalizeOrder(
  order: Order,
  raw: string,
  context: DayRowContext,
  hash = contentHash(raw),
): OrderRows {
  const { locationId } = context;
  const rows: OrderRows = {
    order: {
      id: order.id,
      location_id: locationId,
      business_date: context.businessDate,
      created_at: order.createdAt,
      updated_at: order.updatedAt,
      customer_id: order.customerId,
      device_id: order.deviceId,
      device_name: optional(order.deviceName),
      report_id: order.reportId,
      opened_at: order.openedAt,
      closed_at: order.closedAt,
      guests: order.guests,
      order_place: order.orderPlace,
      order_number: order.orderNumber,
      operator_id: order.operatorId,
      operator_name: order.operatorName,
      total: order.total,
      total_tax: order.totalTax,
      total_discount: order.totalDiscount,
      menus: JSON.stringify(order.menus),
      tips: order.tips === null ? null : JSON.stringify(order.tips),
      is_canceled: bit(order.isCanceled),
      is_transferred: bit(order.isTransferred),
      transfer_reason: order.transferReason,
      cancel_reason: order.cancelReason,
      channel: order.channel ?? "unknown",
      service_type: order.serviceType ?? "unknown",
      is_training: bit(order.isTraining ?? false),
      source: order.source,
      external_order_id: order.externalOrderId,
      external_location_id: order.externalLocationId,
      content_hash: hash,
      synced_at: context.syncedAt,
      deleted_at: null,
      // What the location's clock gives the row (rules/time-zone-change.ts, clockValues; a
      // test holds the two alike), written out: a spread costs a backfill a few percent.
      closed_hour: context.clock.hourOf(order.closedAt),
      created_at_offset: context.clock.offsetOf(order.createdAt),
      closed_at_offset: context.clock.offsetOf(order.closedAt),
      updated_at_offset: context.clock.offsetOf(order.updatedAt),
    },
    items: [],
    modifiers: [],
    discounts: [],
    payments: [],
  };

  // forEach, not `for … of entries()`: with the iterators, V8's optimizing compiler spent 88 ms
  // of a backfill on this function alone, 15 ms without (docs/benchmarks.md, part 14).
  order.items.forEach((item, itemPosition) => {
    rows.items.push({
      order_id: order.id,
      position: itemPosition,
      location_id: locationId,
      description: item.description,
      quantity: item.quantity,
      weight: item.weight,
      unit_price: item.unitPrice,
      total: item.total,
      category: item.category,
      sub_category: item.subCategory,
      is_canceled: bit(item.isCanceled),
      cancel_reason: item.cancelReason,
      tier: item.tier,
      is_transferred: bit(item.isTransferred),
      transfer_reason: item.transferReason,
      stock_impact_indicator: bit(item.stockImpactIndicator),
      tax_name: item.tax.taxName,
      tax_rate: item.tax.taxRate,
      tax_rate_bp: basisPointsFromFraction(item.tax.taxRate),
      tax_amount: item.tax.taxAmount,
      tax_catalog_id: item.tax.taxCatalogId,
      item_catalog_id: item.itemCatalogId,
      is_loss: bit(item.isLoss),
      loss_reason: optional(item.lossReason),
      combo_parent_id: optional(item.comboParentId),
    });
    item.modifiers.forEach((modifier, position) => {
      rows.modifiers.push({
        order_id: order.id,
        item_position: itemPosition,
        position,
        location_id: locationId,
        modifier_group_id: modifier.modifierGroupId,
        modifier_id: modifier.modifierId,
        name: modifier.name,
      });
    });
    item.discountsApplied.forEach((discount, position) => {
      rows.discounts.push({
        order_id: order.id,
        item_position: itemPosition,
        position,
        location_id: locationId,
        discount_name: discount.discountName,
        discount_value: discount.discountValue,
        discount_catalog_id: discount.discountCatalogId,
      });
    });
  });

  order.payments.forEach((payment, position) => {
    rows.payments.push({
      order_id: order.id,
      position,
      location_id: locationId,
      payment_amount: payment.paymentAmount,
      payment_name: payment.paymentName,
      payment_catalog_id: payment.paymentCatalogId,
    });
  });
  return rows;
}
