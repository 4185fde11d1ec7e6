/** What a synced database holds, in a few lines: rows per table, the days each location covers,
 * and whether the reports add up with the stored orders. */
import type { Db } from "../db/open.js";
import { formatTable } from "../text-table.js";

/** The tables a newcomer recognizes; the child tables of orders and reports follow them. */
const SUMMARY_TABLES = [
  "locations",
  "devices",
  "categories",
  "products",
  "modifiers",
  "payment_methods",
  "taxes",
  "orders",
  "order_items",
  "order_payments",
  "reports",
  "report_orders",
  "rejected_records",
] as const;

export interface DaysCovered {
  locationId: string;
  name: string;
  firstDay: string | null;
  lastDay: string | null;
  /** Order windows proven complete (past days) or read up to now (today's open window). */
  complete: number;
  days: number;
}

export interface Reconciliation {
  reports: number;
  ok: number;
}

export interface DatabaseSummary {
  rows: { table: string; rows: number }[];
  days: DaysCovered[];
  reconciliation: Reconciliation;
}

function count(db: Db, sql: string, ...params: unknown[]): number {
  return db.sqlite
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}

function daysCovered(db: Db): DaysCovered[] {
  return db.sqlite
    .prepare(
      `SELECT l.id AS locationId, COALESCE(l.name, l.id) AS name,
              MIN(w.day) AS firstDay, MAX(w.day) AS lastDay,
              COUNT(w.day) FILTER (WHERE w.status IN ('complete', 'open')) AS complete,
              COUNT(w.day) AS days
       FROM locations l
       LEFT JOIN sync_windows w ON w.location_id = l.id AND w.stream = 'orders'
       GROUP BY l.id ORDER BY name`,
    )
    .all() as DaysCovered[];
}

export function summarizeDatabase(db: Db): DatabaseSummary {
  return {
    rows: SUMMARY_TABLES.map((table) => ({
      table,
      rows: count(db, `SELECT COUNT(*) FROM "${table}"`),
    })),
    days: daysCovered(db),
    reconciliation: {
      reports: count(db, "SELECT COUNT(*) FROM v_report_reconciliation"),
      ok: count(db, "SELECT COUNT(*) FROM v_report_reconciliation WHERE status = 'ok'"),
    },
  };
}

const number = new Intl.NumberFormat("en-US");

export function formatDatabaseSummary(summary: DatabaseSummary, dbPath: string): string {
  const lines = [`What ${dbPath} holds now`, ""];
  const rows = [["  table", "rows"]];
  for (const { table, rows: n } of summary.rows) rows.push([`  ${table}`, number.format(n)]);
  lines.push(...formatTable(rows), "", "Days covered (orders)");
  for (const d of summary.days) {
    const range = d.firstDay === null ? "no days yet" : `${d.firstDay} to ${d.lastDay}`;
    lines.push(`  ${d.name}: ${range}, ${d.complete} of ${d.days} days complete`);
  }
  const { reports, ok } = summary.reconciliation;
  lines.push(
    "",
    ok === reports
      ? `Reconciliation: all ${number.format(reports)} reports add up with their stored orders (v_report_reconciliation).`
      : `Reconciliation: ${number.format(reports - ok)} of ${number.format(reports)} reports do not add up: ` +
          "SELECT * FROM v_report_reconciliation WHERE status <> 'ok'",
  );
  return `${lines.join("\n")}\n`;
}
