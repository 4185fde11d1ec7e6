/**
 * The summary tables on PostgreSQL, in the SQL both destinations share (../sql/rollups.ts): a
 * write marks the days and reports it changed (summary_pending); `settle` recomputes them, all
 * of a location's marked days in one statement per table. A window's end settles its own day
 * (DaysToSettle) and the location's reports, so that windows of one location ending at once work
 * side by side; each day is recomputed under an advisory lock of its own (taken in order: no
 * deadlock), so that two never recompute the same day at once. A report's reconciliation is an
 * upsert, which the server's row locks keep apart.
 */

import type { LocationDay } from "../../vocabulary.js";
import { POSTGRES_DIALECT as PG } from "../sql/dialect.js";
import { type DaysToRecompute, ROLLUPS, reportSums, reportsOfDays } from "../sql/rollups.js";
import {
  keysByLocation,
  markSql,
  type SummaryMark,
  takeMarksParams,
  takeMarksSql,
} from "../sql/summary-marks.js";
import type { PgClient } from "./connect.js";

/** The days to recompute ($1 locations, $2 days, pairwise). */
const DAYS: DaysToRecompute = {
  from: "unnest($1::text[], $2::date[]) AS d(location_id, business_date)",
  groupedBy: (relation) => `${relation}.location_id, ${relation}.business_date, `,
  cancelledItems: `CROSS JOIN LATERAL (
      SELECT COUNT(*) AS items, SUM(i.total) AS amount
      FROM order_item_rows i WHERE i.order_key = o.key AND i.is_canceled
    ) c`,
  ordersCounted: "first lines",
};

/** Reports against their stored orders, recomputed whole ($1 report ids). */
const REPORT_SUMS = `INSERT INTO report_order_sums AS s
  ${reportSums("r.id = ANY($1::text[])")} ORDER BY r.id
  ON CONFLICT (report_id) DO UPDATE SET location_id = excluded.location_id,
    orders_listed = excluded.orders_listed, orders_stored = excluded.orders_stored,
    orders_missing = excluded.orders_missing, stored_total_sales = excluded.stored_total_sales`;

function dayParameters(days: readonly LocationDay[]): [string[], string[]] {
  return [days.map((d) => d.locationId), days.map((d) => d.day)];
}

/** Marks days whose orders changed, for the next settle; inside the write's transaction. */
export async function markDays(client: PgClient, days: readonly LocationDay[]): Promise<void> {
  for (const [locationId, keys] of keysByLocation(days)) {
    await client.query(markSql(PG, "day"), [locationId, PG.list(keys)]);
  }
}

/** Marks reports that changed, for the next settle. */
export async function markReports(
  client: PgClient,
  locationId: string,
  reportIds: readonly string[],
): Promise<void> {
  if (reportIds.length === 0) return;
  await client.query(markSql(PG, "report"), [locationId, PG.list([...new Set(reportIds)])]);
}

/** Recomputes the summaries of these days, inside the caller's transaction; returns the reports
 * whose reconciliation follows. */
export async function refreshDays(
  client: PgClient,
  days: readonly LocationDay[],
): Promise<string[]> {
  if (days.length === 0) return [];
  const parameters = dayParameters(days);
  // Tables filled a moment ago have no statistics until autovacuum's next look (a minute): the
  // plans then expect hundreds of lines an order and join each order to its lines by a bitmap
  // scan, which took a day of 100,000 orders from 5.4 s to 9.0 s (docs/benchmarks.md, part 12).
  // With statistics the planner chooses index scans itself. Off for the rest of the settle's
  // transaction, whose other statements read by key.
  await client.query("SET LOCAL enable_bitmapscan = off");
  for (const { table } of ROLLUPS) await refreshTable(client, table, days);
  const { rows } = await client.query<{ report_id: string }>(reportsOfDays(DAYS), parameters);
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
    `DELETE FROM ${table} t USING ${DAYS.from}
     WHERE t.location_id = d.location_id AND t.business_date = d.business_date`,
    parameters,
  );
  await client.query(`INSERT INTO ${table} ${rollup.select(DAYS)}`, parameters);
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
 * Recomputes what is marked for a location — all of it, or (with `day`) its reports and that
 * day's marks alone, none for null (DaysToSettle) — and clears the marks; returns how many days
 * and reports it recomputed. Inside a transaction.
 */
export async function settle(
  client: PgClient,
  locationId: string,
  day?: string | null,
): Promise<number> {
  const { rows } = await client.query<SummaryMark>(
    takeMarksSql(PG),
    takeMarksParams(locationId, day),
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
