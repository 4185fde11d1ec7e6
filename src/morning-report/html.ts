/**
 * The morning report as one self-contained HTML page: the e-mail's HTML part and `report --html`.
 * Inline styles only and no image or outside request, so that a mail client shows it whole
 * without loading anything; every value from the API escaped, its control characters made visible
 * as in the plain text.
 */

import { longDay } from "../clock/day-names.js";
import { escapeHtml, visibleHtml } from "../ui/status-page/html.js";
import { coverageOf, isRead } from "./completeness.js";
import type { LocationReport, MorningReport } from "./morning-report.js";
import {
  againstUsual,
  amountFormat,
  headlineScope,
  healthLine,
  inReportOrder,
  lastSync,
  notReadLine,
  subjectOf,
} from "./text.js";

const CELL = "padding:4px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top";
const HEAD = `${CELL};background:#f3f3f3`;

function locationSection(location: LocationReport): string {
  const amount = amountFormat(location.country);
  const { figures, usual } = location;
  const read = isRead(location);
  const warn = location.health.proved
    ? "#2e7d32"
    : location.health.complete
      ? "#8a6d00"
      : "#b00020";
  const exceptions =
    location.exceptions.length === 0
      ? `<p>${read ? "No exceptions." : "No exceptions in what was read so far."}</p>`
      : // Scrolls alone on a narrow screen, so that the page itself never does.
        `<div style="overflow-x:auto;max-width:100%"><table style="border-collapse:collapse;font-size:14px">
<tr><th style="${HEAD}">exception</th><th style="${HEAD}">order</th><th style="${HEAD}">employee</th><th style="${HEAD}">amount</th><th style="${HEAD}">time</th><th style="${HEAD}">detail</th></tr>
${location.exceptions
  .map(
    (e) =>
      `<tr><td style="${CELL}">${escapeHtml(e.kind)}</td><td style="${CELL}">${visibleHtml(e.orderNumber ?? "")}</td><td style="${CELL}">${visibleHtml(e.employee ?? "")}</td><td style="${CELL};text-align:right">${escapeHtml(amount(e.amount))}</td><td style="${CELL}">${escapeHtml(e.time ?? "")}</td><td style="${CELL}">${visibleHtml(e.detail ?? "")}</td></tr>`,
  )
  .join("\n")}
</table></div>`;
  return `<section data-location="${visibleHtml(location.locationId)}">
<h2 style="font-size:18px;margin:24px 0 4px">${visibleHtml(location.name)}, ${escapeHtml(longDay(location.day))}${read ? "" : `: <span style="color:#b00020">NOT read in full</span>`}</h2>
<p style="margin:4px 0">Sales <b>${escapeHtml(amount(figures.sales))}</b>${read ? "" : " so far"}${escapeHtml(againstUsual(figures, usual, location.day, amount, read))}, ${figures.orders} orders, ${figures.guests} guests${figures.averageOrder === null ? "" : `, average order ${escapeHtml(amount(figures.averageOrder))}`}</p>
<p style="margin:4px 0;color:${warn}">${escapeHtml(healthLine(location.health))}</p>
${exceptions}
</section>`;
}

function headline(report: MorningReport): string {
  const amount = amountFormat(report.locations[0]?.country ?? null);
  const coverage = coverageOf(report.locations);
  const scope = headlineScope(coverage);
  const { figures, usual } = coverage;
  const notRead = notReadLine(coverage);
  return [
    scope === null || figures === null
      ? ""
      : `<p>${escapeHtml(scope)}: sales <b>${escapeHtml(amount(figures.sales))}</b>${escapeHtml(againstUsual(figures, usual, report.days[0] ?? "", amount, true))}, ${figures.orders} orders, ${figures.guests} guests.</p>`,
    notRead === null ? "" : `<p style="color:#b00020">${visibleHtml(notRead)}</p>`,
  ]
    .filter(Boolean)
    .join("\n");
}

export function reportHtml(report: MorningReport): string {
  const { blocks, quiet } = inReportOrder(report.locations);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subjectOf(report))}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:760px;margin:0 auto;padding:12px">
<h1 style="font-size:22px">${escapeHtml(subjectOf(report))}</h1>
${headline(report)}
${[...blocks, ...quiet].map(locationSection).join("\n")}
<p style="color:#666;font-size:12px;margin-top:24px">Last successful sync: ${escapeHtml(lastSync(report))}. Sent by pos-sync.</p>
</body></html>
`;
}
