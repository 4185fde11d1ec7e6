/**
 * The morning report as one self-contained HTML page: the e-mail's HTML part and `report --html`.
 * The e-mail's page (messages/compose/email-page.ts) around the report's own templates, which
 * escape every value and make its control characters visible as in the plain text
 * (messages/compose/html-template.ts): nothing here escapes by hand.
 */

import { longDay } from "../clock/day-names.js";
import { emailPage } from "../messages/compose/email-page.js";
import { htmlTemplate, joinHtml, type SafeHtml } from "../messages/compose/html-template.js";
import { coverageOf, isRead } from "./completeness.js";
import type { ReportException } from "./exceptions.js";
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
const NOT_READ = "#b00020";

/** A location's section as the template lays it out: its words made, its amounts formatted. */
interface LocationView {
  id: string;
  name: string;
  day: string;
  read: boolean;
  sales: string;
  /** " so far" while the day is not read whole, and the comparison with the usual. */
  salesNote: string;
  orders: number;
  guests: number;
  averageOrder: string | null;
  health: string;
  healthColor: string;
  exceptions: ExceptionView[];
}

interface ExceptionView {
  kind: string;
  orderNumber: string;
  employee: string;
  amount: string;
  time: string;
  detail: string;
}

// The exceptions' table scrolls alone on a narrow screen, so that the page itself never does.
const locationSection = htmlTemplate<LocationView>(`<section data-location="<%= it.id %>">
<h2 style="font-size:18px;margin:24px 0 4px"><%= it.name %>, <%= it.day %><% if (!it.read) { %>: <span style="color:${NOT_READ}">NOT read in full</span><% } %></h2>
<p style="margin:4px 0">Sales <b><%= it.sales %></b><%= it.salesNote %>, <%= it.orders %> orders, <%= it.guests %> guests<% if (it.averageOrder !== null) { %>, average order <%= it.averageOrder %><% } %></p>
<p style="margin:4px 0;color:<%= it.healthColor %>"><%= it.health %></p>
<% if (it.exceptions.length === 0) { %><p><%= it.read ? "No exceptions." : "No exceptions in what was read so far." %></p>
<% } else { %><div style="overflow-x:auto;max-width:100%"><table style="border-collapse:collapse;font-size:14px">
<tr><th style="${HEAD}">exception</th><th style="${HEAD}">order</th><th style="${HEAD}">employee</th><th style="${HEAD}">amount</th><th style="${HEAD}">time</th><th style="${HEAD}">detail</th></tr>
<% for (const e of it.exceptions) { %><tr><td style="${CELL}"><%= e.kind %></td><td style="${CELL}"><%= e.orderNumber %></td><td style="${CELL}"><%= e.employee %></td><td style="${CELL};text-align:right"><%= e.amount %></td><td style="${CELL}"><%= e.time %></td><td style="${CELL}"><%= e.detail %></td></tr>
<% } %></table></div>
<% } %></section>`);

interface HeadlineView {
  /** Whom the figures are of; null when no location's day is read. */
  scope: string | null;
  sales: string;
  salesNote: string;
  orders: number;
  guests: number;
  notRead: string | null;
}

const headline = htmlTemplate<HeadlineView>(
  `<% if (it.scope !== null) { %><p><%= it.scope %>: sales <b><%= it.sales %></b><%= it.salesNote %>, <%= it.orders %> orders, <%= it.guests %> guests.</p>
<% } %><% if (it.notRead !== null) { %><p style="color:${NOT_READ}"><%= it.notRead %></p>
<% } %>`,
);

const body = htmlTemplate<{ headline: SafeHtml; sections: SafeHtml; lastSync: string }>(
  `<%= it.headline %><%= it.sections %>
<p style="color:#666;font-size:12px;margin-top:24px">Last successful sync: <%= it.lastSync %>. Sent by pos-sync.</p>`,
);

function exceptionView(e: ReportException, amount: (value: number) => string): ExceptionView {
  return {
    kind: e.kind,
    orderNumber: e.orderNumber ?? "",
    employee: e.employee ?? "",
    amount: amount(e.amount),
    time: e.time ?? "",
    detail: e.detail ?? "",
  };
}

function locationView(location: LocationReport): LocationView {
  const amount = amountFormat(location.country);
  const { figures, usual } = location;
  const read = isRead(location);
  return {
    id: location.locationId,
    name: location.name,
    day: longDay(location.day),
    read,
    sales: amount(figures.sales),
    salesNote: `${read ? "" : " so far"}${againstUsual(figures, usual, location.day, amount, read)}`,
    orders: figures.orders,
    guests: figures.guests,
    averageOrder: figures.averageOrder === null ? null : amount(figures.averageOrder),
    health: healthLine(location.health),
    healthColor: location.health.proved
      ? "#2e7d32"
      : location.health.complete
        ? "#8a6d00"
        : NOT_READ,
    exceptions: location.exceptions.map((e) => exceptionView(e, amount)),
  };
}

function headlineView(report: MorningReport): HeadlineView {
  const amount = amountFormat(report.locations[0]?.country ?? null);
  const coverage = coverageOf(report.locations);
  const { figures, usual } = coverage;
  const scope = figures === null ? null : headlineScope(coverage);
  return {
    scope,
    sales: figures === null ? "" : amount(figures.sales),
    salesNote:
      figures === null ? "" : againstUsual(figures, usual, report.days[0] ?? "", amount, true),
    orders: figures?.orders ?? 0,
    guests: figures?.guests ?? 0,
    notRead: notReadLine(coverage),
  };
}

export function reportHtml(report: MorningReport): string {
  const { blocks, quiet } = inReportOrder(report.locations);
  return emailPage({
    subject: subjectOf(report),
    content: body({
      headline: headline(headlineView(report)),
      sections: joinHtml([...blocks, ...quiet].map((l) => locationSection(locationView(l)))),
      lastSync: lastSync(report),
    }),
  });
}
