/**
 * Edits of a synced database made by hand, behind pos-sync's back, each of a kind that leaves the
 * records' content hashes as they were (rows of an order's arrays deleted, a report's order list
 * cut, prices, totals and descriptions changed), and every relation of the contract read back
 * whole, to hold a database against an untouched copy of itself.
 */
import { expect } from "vitest";
import { CHILD_RELATIONS } from "../../src/db/schema/relations.js";
import { VIEWS } from "../../src/db/sql/views.js";
import type { StoredData } from "./stored-data.js";

/** Every relation of the contract analysts read: the records' own, their arrays', the views. */
export const CONTRACT_RELATIONS: readonly string[] = [
  "orders",
  "reports",
  ...CHILD_RELATIONS.map((r) => r.name),
  ...VIEWS.map((v) => v.name).filter((name) => name.startsWith("v_")),
];

/** Each relation's rows, as sorted text: equal for equal contents whatever the rows' order. */
export async function contractContents(stored: StoredData): Promise<Record<string, string[]>> {
  const contents: Record<string, string[]> = {};
  for (const name of CONTRACT_RELATIONS)
    contents[name] = (await stored.rows(`SELECT * FROM ${name}`))
      .map((row) => JSON.stringify(row))
      .sort();
  return contents;
}

/** What was edited, by record. */
export interface HandEdits {
  /** The day whose records were edited. */
  day: string;
  /** The orders and reports whose stored rows no longer are what the API lists. */
  orders: string[];
  reports: string[];
}

/**
 * The latest stored day up to `latest` with what editByHand needs: a report listing orders, and
 * four orders with items and payments. Chosen from the data, not the calendar: a location has
 * days without a report (closed, or no session ended), and which they are moves with the date
 * the suite runs on.
 */
async function editableDay(stored: StoredData, latest: string): Promise<string> {
  const [found] = await stored.rows(
    `SELECT r.business_date AS day FROM reports r
     WHERE r.business_date <= ? AND r.deleted_at IS NULL
       AND (SELECT COUNT(*) FROM report_order_rows ro WHERE ro.report_key = r.key) > 1
       AND (SELECT COUNT(*) FROM order_rows o
            WHERE o.business_date = r.business_date AND o.deleted_at IS NULL
              AND EXISTS (SELECT 1 FROM order_item_rows i WHERE i.order_key = o.key)
              AND EXISTS (SELECT 1 FROM order_payment_rows p WHERE p.order_key = o.key)) >= 4
     ORDER BY r.business_date DESC LIMIT 1`,
    latest,
  );
  expect(found, `no stored day up to ${latest} has a report and four paid orders`).toBeDefined();
  return String(found?.day);
}

/**
 * Edits the orders and the report of a stored day by hand, a different kind of edit on each
 * record: the latest day up to `latest` that has them.
 */
export async function editByHand(stored: StoredData, latest: string): Promise<HandEdits> {
  const day = await editableDay(stored, latest);
  // Orders with items and payments, so that each edit has rows to change.
  const orders = (
    await stored.rows(
      `SELECT o.id, o.key FROM order_rows o
       WHERE o.business_date = ? AND o.deleted_at IS NULL
         AND EXISTS (SELECT 1 FROM order_item_rows i WHERE i.order_key = o.key)
         AND EXISTS (SELECT 1 FROM order_payment_rows p WHERE p.order_key = o.key)
       ORDER BY o.id LIMIT 4`,
      day,
    )
  ).map((row) => ({ id: String(row.id), key: Number(row.key) }));
  expect(orders).toHaveLength(4);
  const [itemsDeleted, paymentsDeleted, itemEdited, totalEdited] = orders as [
    (typeof orders)[0],
    (typeof orders)[0],
    (typeof orders)[0],
    (typeof orders)[0],
  ];
  await stored.execute("DELETE FROM order_item_rows WHERE order_key = ?", itemsDeleted.key);
  await stored.execute("DELETE FROM order_payment_rows WHERE order_key = ?", paymentsDeleted.key);
  await stored.execute(
    `UPDATE order_item_rows SET description = 'edited by hand', unit_price = unit_price + 1,
       total = total + 1
     WHERE order_key = ? AND position = 0`,
    itemEdited.key,
  );
  await stored.execute("UPDATE order_rows SET total = total + 10 WHERE key = ?", totalEdited.key);

  const [report] = await stored.rows(
    "SELECT id, key FROM reports WHERE business_date = ? AND deleted_at IS NULL ORDER BY id LIMIT 1",
    day,
  );
  expect(report).toBeDefined();
  const reportKey = Number(report?.key);
  const listed = Number(
    await stored.scalar("SELECT COUNT(*) FROM report_order_rows WHERE report_key = ?", reportKey),
  );
  expect(listed).toBeGreaterThan(1);
  await stored.execute(
    "DELETE FROM report_order_rows WHERE report_key = ? AND position >= ?",
    reportKey,
    Math.floor(listed / 2),
  );
  await stored.execute(
    "UPDATE report_rows SET total_sales = total_sales + 100 WHERE key = ?",
    reportKey,
  );
  return { day, orders: orders.map((o) => o.id), reports: [String(report?.id)] };
}
