/** Orders: read day by day; each order fills `orders` and the tables of its items, their
 * modifiers and discounts, and its payments, and the daily summary tables sum them. */
import { SHOWN_PATHS } from "../api/paths.js";
import { type Order, orderSchema } from "../api/schemas.js";
import { normalizeOrder } from "../db/normalize/order.js";
import {
  orderItemDiscountRows,
  orderItemModifierRows,
  orderItemRows,
  orderPaymentRows,
  orderRows,
  orderVersionRows,
} from "../db/schema/index.js";
import type { DayStreamDescription } from "./description.js";

export const ORDERS: DayStreamDescription<Order> = {
  name: "orders",
  listing: { operation: "listOrders", path: SHOWN_PATHS.orders },
  schema: orderSchema,
  vouchedByReports: true,
  summarized: "days",
  table: orderRows,
  childTables: [orderItemRows, orderItemModifierRows, orderItemDiscountRows, orderPaymentRows],
  history: { table: orderVersionRows, paidFrom: orderPaymentRows },
  toRows(order, raw, context, hash) {
    const rows = normalizeOrder(order, raw, context, hash);
    return {
      parent: rows.order,
      children: [rows.items, rows.modifiers, rows.discounts, rows.payments],
    };
  },
};
