/**
 * The summary tables on PostgreSQL, by the rules of ../rollups.ts (the rule of a sale and of a
 * line, the same columns in the same order): a write marks the days and reports it changed
 * (summary_pending); `settle` recomputes them, all of a location's marked days in one statement
 * per table. A window's end settles its own day and the location's reports, so that windows of
 * one location ending at once work side by side; each day is recomputed under an advisory lock of
 * its own (taken in order: no deadlock), so that two never recompute the same day at once. A
 * report's reconciliation is an upsert, which the server's row locks keep apart.
 */
import type { LocationDay } from "../rollups.js";
import type { PgClient } from "./connect.js";

/** An order that counts in sales: neither cancelled, nor training, nor transferred. */
const SALE = "NOT o.is_canceled AND NOT o.is_training AND NOT o.is_transferred";
const TRANSFERRED = "NOT o.is_canceled AND NOT o.is_training AND o.is_transferred";

/** The days to recompute ($1 locations, $2 days, pairwise) and their orders that stand. */
const DAYS = "unnest($1::text[], $2::date[]) AS d(location_id, business_date)";
const ORDERS_OF_DAYS = `${DAYS}
  JOIN orders o ON o.location_id = d.location_id AND o.business_date = d.business_date
    AND o.deleted_at IS NULL`;

const sum = (expression: string, filter?: string) =>
  `ROUND(COALESCE(SUM(${expression})${filter ? ` FILTER (WHERE ${filter})` : ""}, 0), 2)`;

export const HOURLY_SALES = "hourly_sales";

/** Each summary table and the SELECT that gives its rows for the days, in its column order. */
const ROLLUPS: readonly { table: string; select: string }[] = [
  {
    table: "daily_sales",
    select: `SELECT o.location_id, o.business_date,
      COUNT(*) FILTER (WHERE ${SALE}),
      COALESCE(SUM(o.guests) FILTER (WHERE ${SALE}), 0),
      ${sum("o.total", SALE)}, ${sum("o.total_tax", SALE)}, ${sum("o.total - o.total_tax", SALE)},
      ${sum("o.total_discount", SALE)},
      COUNT(*) FILTER (WHERE ${TRANSFERRED}), ${sum("o.total", TRANSFERRED)},
      COUNT(*) FILTER (WHERE o.is_canceled), ${sum("o.total", "o.is_canceled")},
      COUNT(*) FILTER (WHERE o.is_training)
    FROM ${ORDERS_OF_DAYS}
    GROUP BY o.location_id, o.business_date`,
  },
  {
    table: "daily_product_sales",
    select: `SELECT o.location_id, o.business_date, i.item_catalog_id,
      MAX(i.description), MAX(i.category), MAX(i.sub_category),
      COALESCE(SUM(i.quantity), 0), ${sum("i.total")}, ${sum("i.tax_amount")},
      ${sum("i.total - i.tax_amount")}, COUNT(DISTINCT i.order_id)
    FROM ${ORDERS_OF_DAYS} JOIN order_items i ON i.order_id = o.id
    WHERE ${SALE} AND NOT i.is_canceled
    GROUP BY o.location_id, o.business_date, i.item_catalog_id`,
  },
  {
    table: "daily_payment_sales",
    select: `SELECT o.location_id, o.business_date, p.payment_name,
      COUNT(*), ${sum("p.payment_amount")}
    FROM ${ORDERS_OF_DAYS} JOIN order_payments p ON p.order_id = o.id
    WHERE ${SALE}
    GROUP BY o.location_id, o.business_date, p.payment_name`,
  },
  {
    table: "daily_tax_sales",
    select: `SELECT o.location_id, o.business_date, i.tax_rate_bp, MAX(i.tax_name),
      ${sum("i.total")}, ${sum("i.tax_amount")}, ${sum("i.total - i.tax_amount")}
    FROM ${ORDERS_OF_DAYS} JOIN order_items i ON i.order_id = o.id
    WHERE ${SALE} AND NOT i.is_canceled
    GROUP BY o.location_id, o.business_date, i.tax_rate_bp`,
  },
  {
    table: HOURLY_SALES,
    // The hour on the location's clock, stored with the order (local-clock.ts).
    select: `SELECT o.location_id, o.business_date, o.closed_hour, COUNT(*), ${sum("o.total")}
    FROM ${ORDERS_OF_DAYS}
    WHERE ${SALE} AND o.closed_hour IS NOT NULL
    GROUP BY o.location_id, o.business_date, o.closed_hour`,
  },
  {
    table: "daily_operator_sales",
    select: `SELECT o.location_id, o.business_date, o.operator_id, MAX(o.operator_name),
      COUNT(*) FILTER (WHERE ${SALE}),
      ${sum("o.total", SALE)}, ${sum("o.total_discount", SALE)},
      COUNT(*) FILTER (WHERE o.is_canceled), ${sum("o.total", "o.is_canceled")},
      COALESCE(SUM(c.items) FILTER (WHERE NOT o.is_canceled), 0),
      ${sum("c.amount", "NOT o.is_canceled")}
    FROM ${ORDERS_OF_DAYS}
    CROSS JOIN LATERAL (
      SELECT COUNT(*) AS items, SUM(i.total) AS amount
      FROM order_items i WHERE i.order_id = o.id AND i.is_canceled
    ) c
    WHERE NOT o.is_training
    GROUP BY o.location_id, o.business_date, o.operator_id`,
  },
];

/** The reports the days' orders belong to, or are listed by. */
const REPORTS_OF_DAYS = `SELECT o.report_id FROM ${DAYS}
    JOIN orders o ON o.location_id = d.location_id AND o.business_date = d.business_date
  UNION
  SELECT ro.report_id FROM ${DAYS}
    JOIN orders o ON o.location_id = d.location_id AND o.business_date = d.business_date
    JOIN report_orders ro ON ro.order_id = o.id`;

/** Reports against their stored orders, recomputed whole ($1 report ids). */
const REPORT_SUMS = `INSERT INTO report_order_sums AS s
  SELECT r.id, r.location_id,
    (SELECT COUNT(*) FROM report_orders ro WHERE ro.report_id = r.id),
    (SELECT COUNT(*) FROM orders o WHERE o.report_id = r.id AND o.deleted_at IS NULL),
    (SELECT COUNT(*) FROM report_orders ro WHERE ro.report_id = r.id
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)),
    (SELECT ${sum("o.total")} FROM orders o
       WHERE o.report_id = r.id AND o.deleted_at IS NULL AND ${SALE})
  FROM reports r WHERE r.id = ANY($1::text[]) ORDER BY r.id
  ON CONFLICT (report_id) DO UPDATE SET location_id = excluded.location_id,
    orders_listed = excluded.orders_listed, orders_stored = excluded.orders_stored,
    orders_missing = excluded.orders_missing, stored_total_sales = excluded.stored_total_sales`;

function dayParameters(days: readonly LocationDay[]): [string[], string[]] {
  return [days.map((d) => d.locationId), days.map((d) => d.day)];
}

/** Marks days whose orders changed, for the next settle; inside the write's transaction. */
export async function markDays(client: PgClient, days: readonly LocationDay[]): Promise<void> {
  if (days.length === 0) return;
  await client.query(
    `INSERT INTO summary_pending (kind, location_id, key)
     SELECT DISTINCT 'day', l, k FROM unnest($1::text[], $2::text[]) AS m(l, k)
     ON CONFLICT DO NOTHING`,
    dayParameters(days),
  );
}

/** Marks reports that changed, for the next settle. */
export async function markReports(
  client: PgClient,
  locationId: string,
  reportIds: readonly string[],
): Promise<void> {
  if (reportIds.length === 0) return;
  await client.query(
    `INSERT INTO summary_pending (kind, location_id, key)
     SELECT DISTINCT 'report', $1, k FROM unnest($2::text[]) AS m(k)
     ON CONFLICT DO NOTHING`,
    [locationId, reportIds],
  );
}

/** Recomputes the summaries of these days; returns the reports whose reconciliation follows. */
export async function refreshDays(
  client: PgClient,
  days: readonly LocationDay[],
): Promise<string[]> {
  if (days.length === 0) return [];
  const parameters = dayParameters(days);
  for (const { table } of ROLLUPS) await refreshTable(client, table, days);
  const { rows } = await client.query<{ report_id: string }>(REPORTS_OF_DAYS, parameters);
  return rows.map((row) => row.report_id);
}

/** Recomputes one summary table for these days. */
export async function refreshTable(
  client: PgClient,
  table: string,
  days: readonly LocationDay[],
): Promise<void> {
  const rollup = ROLLUPS.find((r) => r.table === table);
  if (!rollup) throw new RangeError(`no summary table ${table}`);
  if (days.length === 0) return;
  const parameters = dayParameters(days);
  await client.query(
    `DELETE FROM ${table} t USING ${DAYS}
     WHERE t.location_id = d.location_id AND t.business_date = d.business_date`,
    parameters,
  );
  await client.query(`INSERT INTO ${table} ${rollup.select}`, parameters);
}

export async function refreshReports(
  client: PgClient,
  reportIds: readonly string[],
): Promise<void> {
  if (reportIds.length === 0) return;
  // In one order, so that two transactions never wait on each other's reports.
  await client.query(REPORT_SUMS, [[...reportIds].sort()]);
}

/**
 * Recomputes what is marked for a location — one day's marks and the reports', or (no day) all
 * of them — and clears the marks; returns how many days and reports it recomputed. Inside a
 * transaction.
 */
export async function settle(client: PgClient, locationId: string, day?: string): Promise<number> {
  // Marks another settle holds are skipped: it recomputes them.
  const { rows } = await client.query<{ kind: string; key: string }>(
    `DELETE FROM summary_pending WHERE ctid IN (
       SELECT ctid FROM summary_pending
       WHERE location_id = $1 AND ($2::text IS NULL OR kind = 'report' OR key = $2)
       FOR UPDATE SKIP LOCKED)
     RETURNING kind, key`,
    [locationId, day ?? null],
  );
  const days = rows
    .filter((m) => m.kind === "day")
    .map((m) => m.key)
    .sort()
    .map((key) => ({ locationId, day: key }));
  for (const { day: marked } of days) {
    await client.query(
      "SELECT pg_advisory_xact_lock(hashtextextended('pos-sync settle ' || $1 || ' ' || $2, 0))",
      [locationId, marked],
    );
  }
  // A report both marked and behind a marked day is recomputed once.
  const reports = new Set(await refreshDays(client, days));
  for (const m of rows) if (m.kind === "report") reports.add(m.key);
  await refreshReports(client, [...reports]);
  return rows.length;
}
