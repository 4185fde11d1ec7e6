/**
 * A location's last 60 days of sales as inline SVG: a bar a day of sales, the orders as a line
 * on their own scale, cancelled and transferred amounts below the axis on a scale of their own
 * (they are small beside sales and would vanish on its scale), days not synced shaded (days
 * before the API's first day are not: nothing is missing there), and under it a strip of the
 * day's report: reconciled, or not and why.
 */

import type { ReportStateRow } from "../../db/reads/status.js";
import { escapeHtml } from "../../html-text.js";
import type { SalesDay } from "../../read-models/status-page.js";
import { number } from "../text.js";
import { money } from "./html.js";

const WIDTH = 600;
const SALES_TOP = 8;
const SALES_HEIGHT = 96;
const BASELINE = SALES_TOP + SALES_HEIGHT;
const LOSS_HEIGHT = 24;
const STRIP_TOP = BASELINE + LOSS_HEIGHT + 6;
const STRIP_HEIGHT = 8;
const HEIGHT = STRIP_TOP + STRIP_HEIGHT;

function dayTitle(day: SalesDay, reports: ReportStateRow[]): string {
  if (day.beforeFirstDay) return `${day.day}: before the API's first day`;
  if (!day.synced) return `${day.day}: orders not synced`;
  const parts = [
    `${number.format(day.orders)} orders`,
    `${money.format(day.sales)} sales`,
    `${number.format(day.cancelledOrders)} cancelled (${money.format(day.cancelledTotal)})`,
    `${number.format(day.transferredOrders)} transferred (${money.format(day.transferredSales)})`,
  ];
  for (const report of reports) parts.push(`report ${report.reportNumber}: ${report.status}`);
  return `${day.day}: ${parts.join("; ")}`;
}

/** The strip's class for a day's reports: the worst state among them. */
function reportClass(reports: ReportStateRow[]): string {
  if (reports.length === 0) return "none";
  if (reports.some((r) => r.status === "orders missing")) return "orders-missing";
  if (reports.some((r) => r.status !== "ok")) return "totals-differ";
  return "ok";
}

export function salesChartSvg(days: SalesDay[], reports: ReportStateRow[]): string {
  if (days.length === 0) return "";
  const slot = WIDTH / days.length;
  const bar = Math.max(1, slot - 2);
  // A day of refunds can sum below zero: its bar is empty rather than upside down.
  const positive = (amount: number) => Math.max(0, amount);
  const maxSales = Math.max(1, ...days.map((d) => d.sales));
  const maxOrders = Math.max(1, ...days.map((d) => d.orders));
  const maxLoss = Math.max(
    1,
    ...days.map((d) => positive(d.cancelledTotal) + positive(d.transferredSales)),
  );
  const reportsOf = new Map<string, ReportStateRow[]>();
  for (const report of reports)
    reportsOf.set(report.day, [...(reportsOf.get(report.day) ?? []), report]);

  const parts: string[] = [];
  const points: string[] = [];
  days.forEach((day, index) => {
    const x = index * slot + 1;
    const dayReports = reportsOf.get(day.day) ?? [];
    parts.push(
      `<g class="sales-day" data-day="${day.day}"><title>${escapeHtml(dayTitle(day, dayReports))}</title>`,
    );
    parts.push(
      `<rect class="hit" x="${x - 1}" y="0" width="${slot}" height="${STRIP_TOP + STRIP_HEIGHT}"/>`,
    );
    // A day before the API's first is left blank, its report strip too: it has no figures, and
    // none are missing.
    if (!day.synced && !day.beforeFirstDay) {
      parts.push(
        `<rect class="unsynced" x="${x}" y="${SALES_TOP}" width="${bar}" height="${SALES_HEIGHT}"/>`,
      );
    } else if (day.synced) {
      const h = (positive(day.sales) / maxSales) * SALES_HEIGHT;
      parts.push(`<rect class="sales" x="${x}" y="${BASELINE - h}" width="${bar}" height="${h}"/>`);
      const cancelled = (positive(day.cancelledTotal) / maxLoss) * LOSS_HEIGHT;
      const transferred = (positive(day.transferredSales) / maxLoss) * LOSS_HEIGHT;
      if (cancelled > 0)
        parts.push(
          `<rect class="cancelled" x="${x}" y="${BASELINE + 1}" width="${bar}" height="${cancelled}"/>`,
        );
      if (transferred > 0)
        parts.push(
          `<rect class="transferred" x="${x}" y="${BASELINE + 1 + cancelled}" width="${bar}" height="${transferred}"/>`,
        );
      points.push(
        `${(x + bar / 2).toFixed(1)},${(BASELINE - (day.orders / maxOrders) * SALES_HEIGHT).toFixed(1)}`,
      );
    }
    if (!day.beforeFirstDay)
      parts.push(
        `<rect class="report ${reportClass(dayReports)}" x="${x}" y="${STRIP_TOP}" width="${bar}" height="${STRIP_HEIGHT}"/>`,
      );
    parts.push("</g>");
  });
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  // Stretched to the box's width and height: no text inside (it would stretch too), and the
  // line keeps its width (non-scaling-stroke in the stylesheet).
  return (
    `<svg class="sales-chart" role="img" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" ` +
    `aria-label="${escapeHtml(`sales per day from ${first} to ${last}`)}">` +
    parts.join("") +
    `<line class="axis" x1="0" x2="${WIDTH}" y1="${BASELINE + 0.5}" y2="${BASELINE + 0.5}"/>` +
    (points.length > 1 ? `<polyline class="orders" points="${points.join(" ")}"/>` : "") +
    "</svg>" +
    `<p class="chart-axis"><span>${first}</span><span>highest: ${money.format(maxSales)} sales, ` +
    `${number.format(maxOrders)} orders</span><span>${last}</span></p>`
  );
}

/** What the chart's marks mean. Each mark and its words make one item, so that a note never
 * runs into the next mark's words. */
export function salesLegend(): string {
  const box = (cls: string) =>
    `<svg width="12" height="12" aria-hidden="true"><rect class="${cls}" width="11" height="11"/></svg>`;
  const swatch = (cls: string, words: string) =>
    `<span class="legend-item">${box(cls)} ${words}</span>`;
  return (
    `<p class="legend">${swatch("sales", "sales")}` +
    `<span class="legend-item"><svg width="14" height="12" aria-hidden="true"><line class="orders" x1="0" x2="14" y1="6" y2="6"/></svg> orders</span>` +
    `<span class="legend-item">${box("cancelled")} cancelled ${box("transferred")} transferred (below the axis, own scale)</span>` +
    `${swatch("unsynced", "not synced")}${swatch("before-history", "before the API's first day")}` +
    ` · reports: ${swatch("report ok", "reconciled")}${swatch("report totals-differ", "totals differ")}` +
    `${swatch("report orders-missing", "orders missing")}${swatch("report none", "no report")}</p>`
  );
}
