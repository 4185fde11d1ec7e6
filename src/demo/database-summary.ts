/** What a synced database holds, in a few lines: rows per table, the days each location covers,
 * and whether the reports add up with the stored orders. */
import type { Reader } from "../db/reads/reader.js";
import { visible } from "../terminal-text.js";
import { number } from "../ui/text.js";
import { formatTable } from "../ui/text-table.js";

/** The stores of reads this module reads. */
type QueryReader = Pick<Reader, "queries">;

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

/** Per location, the days the orders' windows cover. */
export interface DaysCovered {
  locationId: string;
  name: string;
  firstDay: string | null;
  lastDay: string | null;
  /** Windows proven complete: past days. */
  complete: number;
  /** Windows read up to now but not over: the location's today. */
  open: number;
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

/** The rows of an analyst's query as objects, counts as numbers (whatever the database's). */
async function rowsOf(facts: QueryReader, sql: string): Promise<Record<string, unknown>[]> {
  const { columns, rows } = await facts.queries.runQuery(sql);
  return rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]])));
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** The windows of the orders stream read completely, all locations. */
export async function completeOrderDays(facts: QueryReader): Promise<number> {
  const [row] = await rowsOf(
    facts,
    "SELECT COUNT(*) AS n FROM sync_windows WHERE stream = 'orders' AND status = 'complete'",
  );
  return Number(row?.n ?? 0);
}

async function daysCovered(facts: QueryReader): Promise<DaysCovered[]> {
  const rows = await rowsOf(
    facts,
    `SELECT l.id AS "locationId", COALESCE(l.name, l.id) AS name,
            MIN(w.day) AS "firstDay", MAX(w.day) AS "lastDay",
            COUNT(w.day) FILTER (WHERE w.status = 'complete') AS complete,
            COUNT(w.day) FILTER (WHERE w.status = 'open') AS open,
            COUNT(w.day) AS days
     FROM locations l
     LEFT JOIN sync_windows w ON w.location_id = l.id AND w.stream = 'orders'
     GROUP BY l.id, l.name ORDER BY name`,
  );
  return rows.map((row) => ({
    locationId: String(row.locationId),
    name: String(row.name),
    firstDay: text(row.firstDay),
    lastDay: text(row.lastDay),
    complete: Number(row.complete),
    open: Number(row.open),
    days: Number(row.days),
  }));
}

export async function summarizeDatabase(facts: QueryReader): Promise<DatabaseSummary> {
  const rows: DatabaseSummary["rows"] = [];
  for (const table of SUMMARY_TABLES) {
    const [count] = await rowsOf(facts, `SELECT COUNT(*) AS n FROM "${table}"`);
    rows.push({ table, rows: Number(count?.n ?? 0) });
  }
  const [tally] = await rowsOf(
    facts,
    "SELECT COUNT(*) AS reports, COUNT(*) FILTER (WHERE status = 'ok') AS ok FROM v_report_reconciliation",
  );
  return {
    rows,
    days: await daysCovered(facts),
    reconciliation: { reports: Number(tally?.reports ?? 0), ok: Number(tally?.ok ?? 0) },
  };
}

export function formatDatabaseSummary(summary: DatabaseSummary, dbPath: string): string {
  const lines = [`What ${dbPath} holds now`, ""];
  const rows = [["  table", "rows"]];
  for (const { table, rows: n } of summary.rows) rows.push([`  ${table}`, number.format(n)]);
  lines.push(...formatTable(rows), "", "Days covered (orders)");
  for (const d of summary.days) {
    const range = d.firstDay === null ? "no days yet" : `${d.firstDay} to ${d.lastDay}`;
    // The location's today may be a day past the API's last day of data, on its own clock.
    const open = d.open > 0 ? `, ${d.open} still open (the location's today)` : "";
    lines.push(`  ${visible(d.name)}: ${range}, ${d.complete} of ${d.days} days complete${open}`);
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
