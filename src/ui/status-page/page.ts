/**
 * The status page: one self-contained HTML document (inline CSS and SVG, no script, nothing
 * fetched), served by the daemon at `/` and written by `status --html`. Its content security
 * policy forbids every request, so a mailed copy cannot call out either.
 */
import type { ReportStateRow } from "../../db/read-queries.js";
import { isIn } from "../../read-models/coverage.js";
import type { DayStreamStatus, LocationStatus } from "../../read-models/status.js";
import type {
  Freshness,
  LocationPage,
  PageRun,
  StatusPageData,
} from "../../read-models/status-page.js";
import { LATE_AFTER_RUNS, SALES_DAYS } from "../../read-models/status-page.js";
import { number, utcMinute } from "../text.js";
import { calendarLegend, calendarSvg } from "./calendar-svg.js";
import { escapeHtml, money, spanText } from "./html.js";
import { salesChartSvg, salesLegend } from "./sales-chart-svg.js";
import { STYLE } from "./style.js";

export interface PageOptions {
  /** Reload every so many seconds (the daemon's page); none for a file. */
  refreshSeconds?: number;
}

/** Forbids every fetch: styles and SVG are inline, there is no script. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function freshnessSection(freshness: Freshness, generatedAt: string): string {
  const since = freshness.lastSuccessAt
    ? `Last successful run ended ${spanText(Date.parse(generatedAt) - Date.parse(freshness.lastSuccessAt))} ago (${utcMinute(freshness.lastSuccessAt)})`
    : "No run has succeeded yet";
  const late = freshness.late
    ? ` <strong>: ${LATE_AFTER_RUNS} scheduled runs have passed without a success; see the runs below</strong>`
    : "";
  return (
    `<section id="freshness" class="${freshness.late ? "late" : "fresh"}"><p>${since}${late}. ` +
    `<span class="muted">Schedule ${escapeHtml(freshness.schedule)}.</span></p></section>`
  );
}

function runRow(run: PageRun): string {
  const cell = (value: number | null) => (value === null ? "—" : number.format(value));
  const duration =
    run.durationMs !== null ? spanText(run.durationMs) : run.status === "running" ? "running" : "—";
  return (
    `<tr class="run ${escapeHtml(run.status)}" data-run="${run.id}"><td>#${run.id}</td><td>${utcMinute(run.startedAt)}</td>` +
    `<td>${duration}</td><td class="wide">${escapeHtml(run.trigger)}</td><td class="num wide">${cell(run.requests)}</td>` +
    `<td class="num wide">${cell(run.retries)}</td><td class="num wide">${cell(run.rateLimited)}</td>` +
    `<td><span class="badge ${escapeHtml(run.status)}">${escapeHtml(run.status)}</span></td>` +
    `<td class="error">${run.error ? escapeHtml(run.error) : ""}</td></tr>`
  );
}

function runsSection(runs: PageRun[]): string {
  if (runs.length === 0) return `<section id="runs"><h2>Runs</h2><p>No run yet.</p></section>`;
  return (
    `<section id="runs"><h2>Latest runs</h2><div class="table-scroll"><table><thead><tr>` +
    '<th>run</th><th>started</th><th>took</th><th class="wide">by</th><th class="wide">requests</th>' +
    '<th class="wide">retries</th><th class="wide">rate-limited</th><th>outcome</th><th>error</th>' +
    "</tr></thead><tbody>" +
    `${runs.map(runRow).join("")}</tbody></table></div></section>`
  );
}

function streamSummary(stream: DayStreamStatus): string {
  if (!stream.firstDay) return "never synced";
  const notIn = stream.calendar.filter((cell) => !isIn(cell.coverage)).length;
  return (
    `complete through ${stream.completeThrough ?? "—"}, ${number.format(stream.rows)} rows, ` +
    `${notIn === 0 ? "no day missing" : `${number.format(notIn)} day${notIn === 1 ? "" : "s"} not complete`}` +
    `${stream.rejected > 0 ? `, ${number.format(stream.rejected)} rejected` : ""}`
  );
}

function reconciliationText(reports: ReportStateRow[]): string {
  if (reports.length === 0) return `No report in the last ${SALES_DAYS} days.`;
  const problems = reports.filter((report) => report.status !== "ok");
  const head = `${number.format(reports.length - problems.length)} of ${number.format(reports.length)} reports of the last ${SALES_DAYS} days reconcile with their orders`;
  if (problems.length === 0) return `${head}.`;
  const listed = problems
    .slice(0, 5)
    .map(
      (r) =>
        `${escapeHtml(r.day)} report ${r.reportNumber}: ${escapeHtml(r.status)}` +
        (r.status === "orders missing"
          ? ` (${number.format(r.ordersMissing)})`
          : ` (${money.format(r.difference)})`),
    );
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : "";
  return `${head}; not: ${listed.join("; ")}${more}.`;
}

function salesSummary(page: LocationPage): string {
  const synced = page.sales.filter((day) => day.synced);
  const sum = (pick: (d: (typeof synced)[number]) => number) =>
    synced.reduce((total, day) => total + pick(day), 0);
  return (
    `${number.format(sum((d) => d.orders))} orders, ${money.format(sum((d) => d.sales))} sales; ` +
    `${number.format(sum((d) => d.cancelledOrders))} cancelled (${money.format(sum((d) => d.cancelledTotal))}), ` +
    `${number.format(sum((d) => d.transferredOrders))} transferred (${money.format(sum((d) => d.transferredSales))})` +
    `${synced.length < page.sales.length ? `; ${page.sales.length - synced.length} days not synced` : ""}`
  );
}

function locationTitle(location: LocationStatus): string {
  const name = location.name ?? (location.read ? "(no name)" : "(location not read yet)");
  const key = location.key ? ` · API key ${escapeHtml(location.key)}` : "";
  return `<h2>${escapeHtml(name)}</h2><p class="muted">${escapeHtml(location.id)}${key}</p>`;
}

function locationSection(page: LocationPage): string {
  const { location } = page;
  const calendars = location.streams
    .map(
      (stream) =>
        `<div class="stream"><h3>${escapeHtml(stream.stream)} <span class="muted">${escapeHtml(streamSummary(stream))}</span></h3>` +
        `${calendarSvg({ stream: stream.stream, days: stream.calendar })}</div>`,
    )
    .join("");
  const sales =
    page.sales.length === 0
      ? ""
      : `<h3>Sales, last ${SALES_DAYS} days <span class="muted">${salesSummary(page)}</span></h3>` +
        salesChartSvg(page.sales, page.reports) +
        `<p class="reconciliation">${reconciliationText(page.reports)}</p>`;
  return `<section class="location" data-location="${escapeHtml(location.id)}">${locationTitle(location)}<div class="streams">${calendars}</div>${sales}</section>`;
}

export function renderStatusPage(data: StatusPageData, options: PageOptions = {}): string {
  const refresh =
    options.refreshSeconds === undefined
      ? ""
      : `<meta http-equiv="refresh" content="${options.refreshSeconds}">`;
  const legends =
    data.locations.length === 0
      ? `<p>No location synced yet: the first run stores them.</p>`
      : `${calendarLegend()}${salesLegend()}`;
  return (
    "<!doctype html>" +
    `<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">${refresh}` +
    `<title>pos-sync status</title><style>${STYLE}</style></head><body>` +
    `<header><h1>pos-sync status</h1><p class="muted">${escapeHtml(data.status.database)} · ` +
    `as of ${utcMinute(data.generatedAt)}${options.refreshSeconds ? ` · refreshes every ${options.refreshSeconds} s` : ""}</p></header>` +
    `<main>${freshnessSection(data.freshness, data.generatedAt)}${runsSection(data.runs)}` +
    `${data.locations.map(locationSection).join("")}${legends}</main></body></html>\n`
  );
}
