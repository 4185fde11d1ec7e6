/** Order arithmetic shared by the generator and by late updates: totals derive from the items
 * that are not cancelled, and payments always add up to the total. */
import type { Order, OrderItem, OrderPayment, PaymentMethod } from "../api/schemas.js";
import { includedTaxCents, toCents, toUnits } from "./money.js";

export interface OrderTotals {
  total: number;
  totalTax: number;
  totalDiscount: number;
}

export function orderTotals(items: readonly OrderItem[]): OrderTotals {
  let total = 0;
  let tax = 0;
  let discount = 0;
  for (const item of items) {
    if (item.isCanceled) continue;
    total += toCents(item.total);
    tax += toCents(item.tax.taxAmount);
    for (const applied of item.discountsApplied) discount += toCents(applied.discountValue);
  }
  return { total: toUnits(total), totalTax: toUnits(tax), totalDiscount: toUnits(discount) };
}

/** Gross amount of an item before discounts, in cents. */
export function itemGrossCents(item: Pick<OrderItem, "unitPrice" | "quantity" | "weight">): number {
  const amount =
    item.weight === null ? item.unitPrice * item.quantity : item.unitPrice * item.weight;
  return toCents(amount);
}

/** Recomputes an item's total and tax after its quantity or price changed. */
export function repriceItem(item: OrderItem): OrderItem {
  const discountCents = item.discountsApplied.reduce((sum, d) => sum + toCents(d.discountValue), 0);
  const totalCents = item.isLoss === true ? 0 : Math.max(0, itemGrossCents(item) - discountCents);
  const rateBp = Math.round(item.tax.taxRate * 10_000);
  return {
    ...item,
    total: toUnits(totalCents),
    tax: { ...item.tax, taxAmount: toUnits(includedTaxCents(totalCents, rateBp)) },
  };
}

/**
 * Splits a total over one or two payment methods, in cents so the parts add up exactly.
 * `split` in (0, 1) puts that share on the first method.
 */
export function settlePayments(
  total: number,
  methods: readonly PaymentMethod[],
  split?: number,
): OrderPayment[] {
  const totalCents = toCents(total);
  const [first, second] = methods;
  if (totalCents <= 0 || !first) return [];
  if (!second || split === undefined) {
    return [
      { paymentAmount: toUnits(totalCents), paymentName: first.name, paymentCatalogId: first.id },
    ];
  }
  const firstCents = Math.max(1, Math.min(totalCents - 1, Math.round(totalCents * split)));
  return [
    { paymentAmount: toUnits(firstCents), paymentName: first.name, paymentCatalogId: first.id },
    {
      paymentAmount: toUnits(totalCents - firstCents),
      paymentName: second.name,
      paymentCatalogId: second.id,
    },
  ];
}

/** Totals from the items again, and payments settled to the new total over the order's first
 * payment method, as a till re-settles a corrected ticket (an order without payments keeps
 * none). Changes the order in place. */
export function resettle(order: Order): Order {
  Object.assign(order, orderTotals(order.items));
  const first = order.payments[0];
  if (first) {
    const method = { id: first.paymentCatalogId, name: first.paymentName, enabled: true };
    order.payments = settlePayments(order.total, [method]);
  }
  return order;
}
