/**
 * The status page: one self-contained HTML document (inline CSS and SVG, no script, nothing
 * fetched), served by the daemon at `/` and written by `status --html`. Its content security
 * policy forbids every request, so a mailed copy cannot call out either.
 */

import { durationBetween, durationText } from "../../clock/durations.js";
import { offsetText } from "../../clock/offsets.js";
import { describeSchedule } from "../../clock/schedule-times.js";
import type { ReportStateRow } from "../../db/reads/status.js";
import { escapeHtml } from "../../html-text.js";
import { plural } from "../../plural.js";
import { isIn } from "../../read-models/coverage.js";
import type { DayStreamStatus, LocationStatus } from "../../read-models/status.js";
import type {
  Freshness,
  KeyFailure,
  LocationPage,
  PageRun,
  StatusPageData,
} from "../../read-models/status-page.js";
import { LATE_AFTER_RUNS, SALES_DAYS } from "../../read-models/status-page.js";
import { auditProgressText, messageLines } from "../format-status.js";
import { number } from "../text.js";
import { calendarLegend, calendarSvg } from "./calendar-svg.js";
import { money, timeHtml } from "./html.js";
import { salesChartSvg, salesLegend } from "./sales-chart-svg.js";
import { STYLE } from "./style.js";

export interface PageOptions {
  /** Reload every so many seconds (the daemon's page); none for a file. */
  refreshSeconds?: number;
}

/** Forbids every fetch: styles and SVG are inline, there is no script. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

type Offsets = StatusPageData["localOffsets"];

/** The schedule in words when it follows a common pattern, with the cron text on hover. */
function scheduleText(schedule: string): string {
  const words = describeSchedule(schedule);
  const cron = escapeHtml(schedule);
  return words === undefined
    ? `Schedule ${cron}.`
    : `<span title="cron: ${cron}">Runs ${escapeHtml(words)}.</span>`;
}

function freshnessSection(freshness: Freshness, generatedAt: string, offsets: Offsets): string {
  const since = freshness.lastSuccessAt
    ? `Last successful run ended ${durationBetween(freshness.lastSuccessAt, generatedAt, "span")} ago (${timeHtml(freshness.lastSuccessAt, offsets)})`
    : "No run has succeeded yet";
  const late = freshness.late
    ? ` <strong>: ${LATE_AFTER_RUNS} scheduled runs have passed without a success; see the runs below</strong>`
    : "";
  return (
    `<section id="freshness" class="${freshness.late ? "late" : "fresh"}"><p>${since}${late}. ` +
    `<span class="muted">${scheduleText(freshness.schedule)}</span></p></section>`
  );
}

function runRow(run: PageRun, offsets: Offsets): string {
  const cell = (value: number | null) => (value === null ? "—" : number.format(value));
  const duration =
    run.durationMs !== null
      ? durationText(run.durationMs, "span")
      : run.status === "running"
        ? "running"
        : "—";
  return (
    `<tr class="run ${escapeHtml(run.status)}" data-run="${run.id}"><td>#${run.id}</td><td>${timeHtml(run.startedAt, offsets)}</td>` +
    `<td>${duration}</td><td class="wide">${escapeHtml(run.trigger)}</td><td class="num wide">${cell(run.requests)}</td>` +
    `<td class="num wide">${cell(run.retries)}</td><td class="num wide">${cell(run.rateLimited)}</td>` +
    `<td><span class="badge ${escapeHtml(run.status)}">${escapeHtml(run.status)}</span></td>` +
    `<td class="error">${run.error ? escapeHtml(run.error) : ""}</td></tr>`
  );
}

function runsSection(runs: PageRun[], offsets: Offsets): string {
  if (runs.length === 0) return `<section id="runs"><h2>Runs</h2><p>No run yet.</p></section>`;
  return (
    `<section id="runs"><h2>Latest runs</h2><div class="table-scroll"><table><thead><tr>` +
    '<th>run</th><th>started</th><th>took</th><th class="wide">by</th><th class="wide">requests</th>' +
    '<th class="wide">retries</th><th class="wide">rate-limited</th><th>outcome</th><th>error</th>' +
    "</tr></thead><tbody>" +
    `${runs.map((run) => runRow(run, offsets)).join("")}</tbody></table></div></section>`
  );
}

/** The open alerts, the outbox, the messages that ended unsent lately and the last morning
 * report sent (status' lines, as a list). */
function messagesSection(data: StatusPageData): string {
  const { messages } = data.status;
  const lines = messageLines(messages);
  if (lines.length === 0) return "";
  // A refusal for good needs the user; a retirement followed a setting the user changed.
  const alerting = messages.openAlerts.length > 0 || messages.failed > 0;
  return (
    `<section id="messages" class="${alerting ? "late" : "quiet"}"><h2>Messages</h2><ul>` +
    `${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul></section>`
  );
}

function streamSummary(stream: DayStreamStatus): string {
  if (!stream.firstDay) return "never synced";
  const notIn = stream.calendar.filter((cell) => !isIn(cell.coverage)).length;
  return (
    `complete through ${stream.completeThrough ?? "—"}, ${number.format(stream.rows)} rows, ` +
    `${notIn === 0 ? "no day missing" : `${number.format(notIn)} ${plural("day", notIn)} not complete`}` +
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

/** Days of the chart without figures: not synced, or before there was anything to sync. */
function salesGaps(page: LocationPage): string {
  const before = page.sales.filter((day) => day.beforeFirstDay).length;
  const notSynced = page.sales.filter((day) => !day.synced && !day.beforeFirstDay).length;
  const days = (count: number) => `${count} ${plural("day", count)}`;
  return (
    (notSynced > 0 ? `; ${days(notSynced)} not synced` : "") +
    (before > 0 ? `; ${days(before)} before the API's first day` : "")
  );
}

function salesSummary(page: LocationPage): string {
  const synced = page.sales.filter((day) => day.synced);
  const sum = (pick: (d: (typeof synced)[number]) => number) =>
    synced.reduce((total, day) => total + pick(day), 0);
  return (
    `${number.format(sum((d) => d.orders))} orders, ${money.format(sum((d) => d.sales))} sales; ` +
    `${number.format(sum((d) => d.cancelledOrders))} cancelled (${money.format(sum((d) => d.cancelledTotal))}), ` +
    `${number.format(sum((d) => d.transferredOrders))} transferred (${money.format(sum((d) => d.transferredSales))})` +
    salesGaps(page)
  );
}

function locationTitle(location: LocationStatus): string {
  const name = location.name ?? (location.read ? "(no name)" : "(location not read yet)");
  const key = location.key ? ` · API key ${escapeHtml(location.key)}` : "";
  return `<h2>${escapeHtml(name)}</h2><p class="muted">${escapeHtml(location.id)}${key}</p>`;
}

/** Why the latest run could not sync a key's location, in its own words (escaped). */
function failureLine(failure: KeyFailure): string {
  return `<p class="key-failure">Run #${failure.runId} could not sync this location: ${escapeHtml(failure.error)}</p>`;
}

/** A key whose location was never stored: its card holds the key and why it failed. */
function failedKeySection(failure: KeyFailure): string {
  const name = failure.name ?? "(location not read yet)";
  return (
    `<section class="location key-failed" data-key="${escapeHtml(failure.key)}"><h2>${escapeHtml(name)}</h2>` +
    `<p class="muted">API key ${escapeHtml(failure.key)}</p>${failureLine(failure)}</section>`
  );
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
  const failure = page.failure ? failureLine(page.failure) : "";
  const proof = auditProgressText(location.history);
  const history = proof ? `<p class="history">History: ${escapeHtml(proof)}</p>` : "";
  return `<section class="location" data-location="${escapeHtml(location.id)}">${locationTitle(location)}${failure}<div class="streams">${calendars}</div>${history}${sales}</section>`;
}

/** Which clock the page's times are on: the locations', when they share one, else UTC. */
function clockNote(data: StatusPageData): string {
  const offset = data.localOffsets[data.generatedAt];
  if (offset === undefined) return "times in UTC";
  const whose = data.locations.length === 1 ? "the location's" : "the locations'";
  return `times on ${whose} clock (${offsetText(offset, "clock")}; UTC on hover)`;
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
    `as of ${timeHtml(data.generatedAt, data.localOffsets)} · ${clockNote(data)}` +
    `${options.refreshSeconds ? ` · refreshes every ${options.refreshSeconds} s` : ""}</p></header>` +
    `<main>${freshnessSection(data.freshness, data.generatedAt, data.localOffsets)}` +
    `${messagesSection(data)}${runsSection(data.runs, data.localOffsets)}${data.locations.map(locationSection).join("")}` +
    `${data.failedKeys.map(failedKeySection).join("")}${legends}</main></body></html>\n`
  );
}
