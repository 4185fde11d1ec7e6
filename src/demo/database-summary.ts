/** What a synced database holds, in a few lines: rows per table, the days each location covers,
 * and whether the reports add up with the stored orders. */
import type { ReadableDestination } from "../db/destination.js";
import type { DaysCovered } from "../db/reader.js";
import { formatTable } from "../text-table.js";
import { visible } from "../ui/terminal-text.js";
import { number } from "../ui/text.js";

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

export interface Reconciliation {
  reports: number;
  ok: number;
}

export interface DatabaseSummary {
  rows: { table: string; rows: number }[];
  days: DaysCovered[];
  reconciliation: Reconciliation;
}

export async function summarizeDatabase(facts: ReadableDestination): Promise<DatabaseSummary> {
  const rows: DatabaseSummary["rows"] = [];
  for (const table of SUMMARY_TABLES) rows.push({ table, rows: await facts.tableRowCount(table) });
  return {
    rows,
    days: await facts.daysCovered("orders"),
    reconciliation: await facts.reconciliationTally(),
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
