/**
 * The summary tables' rows as SQL both destinations run (schema/rollups.ts): each table's rows
 * for a set of days, each report's reconciliation with its stored orders, and the reports a set
 * of days touches. The rule of a sale and of a line lives here, once. The days come as
 * DaysToRecompute, which each destination writes its own way: SQLite one day at a time
 * (rollups.ts), PostgreSQL a location's marked days at once (pg/rollups.ts). A write marks what
 * it leaves to recompute (summariesToMark).
 */
import type { LocationDay } from "../../vocabulary.js";
import type { DayStreamTables } from "../normalize/stream-tables.js";

/** What a page that inserted or replaced records leaves to recompute: the days its records are
 * listed under now and were before (orders), or the records themselves (reports). */
export function summariesToMark(
  stream: DayStreamTables,
  page: { locationId: string; day: string },
  changed: { ids: readonly string[]; earlierDays: readonly string[] },
): { days: LocationDay[]; reports: readonly string[] } {
  if (stream.summarized === "days") {
    const days = [page.day, ...changed.earlierDays];
    return { days: days.map((day) => ({ locationId: page.locationId, day })), reports: [] };
  }
  return { days: [], reports: stream.summarized === "reports" ? changed.ids : [] };
}

/**
 * The day a window's end recomputes, besides the location's marked reports: its own, when its
 * stream's pages mark days; none for a stream whose pages mark reports, whose window would
 * otherwise recompute a day its orders' window is still writing beside it, and again once that
 * ends. Days other than its own that a window's pages marked are recomputed by their own
 * windows, or the end of the run.
 */
export class DaysToSettle {
  /** The streams whose writes marked days in this process. */
  private readonly marking = new Set<string>();

  /** Notes the days a stream's write marked. */
  marked(stream: { name: string }, days: readonly LocationDay[]): void {
    if (days.length > 0) this.marking.add(stream.name);
  }

  /** The window's day, or null when its stream marks no days. */
  of(window: { stream: string; day: string }): string | null {
    return this.marking.has(window.stream) ? window.day : null;
  }
}

/** An order that counts in sales: neither cancelled, nor training, nor transferred. */
export const SALE = "NOT o.is_canceled AND NOT o.is_training AND NOT o.is_transferred";
const TRANSFERRED = "NOT o.is_canceled AND NOT o.is_training AND o.is_transferred";

/** The summary table that groups by the hour on the location's clock. */
export const HOURLY_SALES = "hourly_sales";

/** A sum rounded to the cent, 0 over no rows. */
const sum = (expression: string, filter?: string) =>
  `ROUND(COALESCE(SUM(${expression})${filter ? ` FILTER (WHERE ${filter})` : ""}, 0), 2)`;

/** The days a statement recomputes, as a destination writes them. */
export interface DaysToRecompute {
  /** A relation `d(location_id, business_date)` of the days. */
  from: string;
  /** What GROUP BY puts before a table's own keys, for rows of `relation`: the day, where there
   * are several. (SQLite recomputes one day, and grouping by it again cost a fifth more on a day
   * of 20,000 orders.) */
  groupedBy(relation: string): string;
  /** The cancelled items of each order `o` of the days, joined as `c(items, amount)`. (A join
   * PostgreSQL plans well took it 150 times longer than a lateral one, which SQLite lacks.) */
  cancelledItems: string;
  /** How the products' summary counts the orders a product was sold in: each order once among
   * its lines (COUNT DISTINCT, which PostgreSQL computes by sorting every line of the days), or
   * the lines that are their order's first of the product (a window over each order's lines,
   * which SQLite computes by sorting them all). Measured on a day of 20,000 orders: PostgreSQL
   * 466-488 ms against 284, SQLite 148-154 ms against 259-265 (docs/benchmarks.md, part 12). */
  ordersCounted: "distinct" | "first lines";
}

/** The orders that stand (not deleted upstream) of the days `d`. */
const ordersOf = (days: DaysToRecompute) => `${days.from}
  JOIN orders o ON o.location_id = d.location_id AND o.business_date = d.business_date
    AND o.deleted_at IS NULL`;

/** The lines sold on the days, as `l`: the items (not cancelled) of the orders that count in
 * sales, with their order's location and day, and for "first lines" (ordersCounted) whether each
 * is its order's first line of the product. The orders come in key order, so that each order's
 * lines arrive together and the window sorts only within an order. */
function saleLines(days: DaysToRecompute): string {
  const columns = `o.location_id, o.business_date, i.order_key, i.item_catalog_ref, i.description,
      i.category, i.sub_category, i.quantity, i.total, i.tax_amount`;
  if (days.ordersCounted === "distinct") {
    return `(SELECT ${columns} FROM ${ordersOf(days)} JOIN order_item_rows i ON i.order_key = o.key
      WHERE ${SALE} AND NOT i.is_canceled) l`;
  }
  return `(SELECT ${columns}, ROW_NUMBER() OVER (
        PARTITION BY i.order_key, i.item_catalog_ref ORDER BY i.position) = 1 AS first_line
      FROM (SELECT o.location_id, o.business_date, o.key FROM ${ordersOf(days)}
        WHERE ${SALE} ORDER BY o.key) o
      JOIN order_item_rows i ON i.order_key = o.key WHERE NOT i.is_canceled) l`;
}

/** Each summary table and the SELECT that gives its rows for the days, in its column order. */
export const ROLLUPS: readonly { table: string; select(days: DaysToRecompute): string }[] = [
  {
    table: "daily_sales",
    select: (days) => `SELECT o.location_id, o.business_date,
      COUNT(*) FILTER (WHERE ${SALE}),
      COALESCE(SUM(o.guests) FILTER (WHERE ${SALE}), 0),
      ${sum("o.total", SALE)}, ${sum("o.total_tax", SALE)}, ${sum("o.total - o.total_tax", SALE)},
      ${sum("o.total_discount", SALE)},
      COUNT(*) FILTER (WHERE ${TRANSFERRED}), ${sum("o.total", TRANSFERRED)},
      COUNT(*) FILTER (WHERE o.is_canceled), ${sum("o.total", "o.is_canceled")},
      COUNT(*) FILTER (WHERE o.is_training)
    FROM ${ordersOf(days)}
    GROUP BY o.location_id, o.business_date`,
  },
  {
    table: "daily_product_sales",
    select: (days) => `SELECT l.location_id, l.business_date, k.id,
      MAX(l.description), MAX(l.category), MAX(l.sub_category),
      COALESCE(SUM(l.quantity), 0), ${sum("l.total")}, ${sum("l.tax_amount")},
      ${sum("l.total - l.tax_amount")},
      ${days.ordersCounted === "distinct" ? "COUNT(DISTINCT l.order_key)" : "COUNT(*) FILTER (WHERE l.first_line)"}
    FROM ${saleLines(days)} JOIN api_ids k ON k.key = l.item_catalog_ref
    GROUP BY ${days.groupedBy("l")}k.key`,
  },
  {
    table: "daily_payment_sales",
    select: (days) => `SELECT o.location_id, o.business_date, p.payment_name,
      COUNT(*), ${sum("p.payment_amount")}
    FROM ${ordersOf(days)} JOIN order_payment_rows p ON p.order_key = o.key
    WHERE ${SALE}
    GROUP BY ${days.groupedBy("o")}p.payment_name`,
  },
  {
    table: "daily_tax_sales",
    select: (days) => `SELECT o.location_id, o.business_date, i.tax_rate_bp, MAX(i.tax_name),
      ${sum("i.total")}, ${sum("i.tax_amount")}, ${sum("i.total - i.tax_amount")}
    FROM ${ordersOf(days)} JOIN order_item_rows i ON i.order_key = o.key
    WHERE ${SALE} AND NOT i.is_canceled
    GROUP BY ${days.groupedBy("o")}i.tax_rate_bp`,
  },
  {
    table: HOURLY_SALES,
    // The hour on the location's clock, stored with the order (clock/local-clock.ts).
    select: (days) => `SELECT o.location_id, o.business_date, o.closed_hour, COUNT(*),
      ${sum("o.total")}
    FROM ${ordersOf(days)}
    WHERE ${SALE} AND o.closed_hour IS NOT NULL
    GROUP BY ${days.groupedBy("o")}o.closed_hour`,
  },
  {
    table: "daily_operator_sales",
    select: (days) => `SELECT o.location_id, o.business_date, o.operator_id, MAX(o.operator_name),
      COUNT(*) FILTER (WHERE ${SALE}),
      ${sum("o.total", SALE)}, ${sum("o.total_discount", SALE)},
      COUNT(*) FILTER (WHERE o.is_canceled), ${sum("o.total", "o.is_canceled")},
      COALESCE(SUM(c.items) FILTER (WHERE NOT o.is_canceled), 0),
      ${sum("c.amount", "NOT o.is_canceled")}
    FROM ${ordersOf(days)} ${days.cancelledItems}
    WHERE NOT o.is_training
    GROUP BY ${days.groupedBy("o")}o.operator_id`,
  },
];

/** The reports the days' orders belong to, or are listed by. */
export const reportsOfDays = (days: DaysToRecompute) => `SELECT o.report_id FROM ${days.from}
    JOIN orders o ON o.location_id = d.location_id AND o.business_date = d.business_date
  UNION
  SELECT r.id FROM ${days.from}
    JOIN orders o ON o.location_id = d.location_id AND o.business_date = d.business_date
    JOIN report_order_rows ro ON ro.order_id = o.id
    JOIN reports r ON r.key = ro.report_key`;

/** Reports `r` (those `where` picks) against their stored orders, in report_order_sums' column
 * order: the orders each lists, those stored for it, those it lists that are not stored, and
 * the total of its sales orders. */
export const reportSums = (where: string) => `SELECT r.id, r.location_id,
    (SELECT COUNT(*) FROM report_order_rows ro WHERE ro.report_key = r.key),
    (SELECT COUNT(*) FROM orders o WHERE o.report_id = r.id AND o.deleted_at IS NULL),
    (SELECT COUNT(*) FROM report_order_rows ro WHERE ro.report_key = r.key
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)),
    (SELECT ${sum("o.total")} FROM orders o
       WHERE o.report_id = r.id AND o.deleted_at IS NULL AND ${SALE})
  FROM reports r WHERE ${where}`;
