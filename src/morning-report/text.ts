/**
 * The morning report in words: for a terminal, the plain-text part of the e-mail and the
 * webhook's `text`. Exceptions first, the locations without any folded into one line each; every
 * amount in its location's number format; API text made visible (terminal-text.ts).
 */

import { visible } from "../terminal-text.js";
import type {
  DataHealth,
  DayFigures,
  LocationReport,
  MorningReport,
  ReportException,
} from "./morning-report.js";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** "Saturday 28 November 2026". */
export function longDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const month = date.toLocaleString("en-GB", { month: "long", timeZone: "UTC" });
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${month} ${date.getUTCFullYear()}`;
}

const weekday = (day: string) => WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()] ?? day;

/** Amounts as a location's country writes them (1 234,50 in France), two decimals. */
export function amountFormat(country: string | null): (value: number) => string {
  let locale = "en-GB";
  try {
    if (country && /^[A-Za-z]{2}$/.test(country))
      locale = new Intl.Locale(`und-${country.toUpperCase()}`).maximize().toString();
  } catch {
    // An unknown region keeps the default.
  }
  const format = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return (value) => format.format(value);
}

/** "+4 %" against the usual, or "" when there is none to compare with. */
export function change(now: number, usual: number | null | undefined): string {
  if (usual === null || usual === undefined || usual === 0) return "";
  const percent = Math.round(((now - usual) / usual) * 100);
  return `${percent >= 0 ? "+" : ""}${percent} %`;
}

export function figuresLine(
  figures: DayFigures,
  usual: DayFigures | null,
  day: string,
  amount: (value: number) => string,
): string {
  const against = usual
    ? ` (usual ${weekday(day)} ${amount(usual.sales)}, ${change(figures.sales, usual.sales)})`
    : "";
  const average =
    figures.averageOrder === null ? "" : `, average order ${amount(figures.averageOrder)}`;
  return `sales ${amount(figures.sales)}${against}, ${figures.orders} orders, ${figures.guests} guests${average}`;
}

export function healthLine(health: DataHealth): string {
  const state = health.proved
    ? "complete and proved"
    : health.complete
      ? "complete, not yet proved"
      : `NOT complete (${health.gaps.join(", ")}): the figures may change`;
  const more = [
    health.rejects > 0 ? `${health.rejects} record(s) the API sent broken, set aside` : "",
    health.repairs > 0 ? `${health.repairs} repair(s) of history` : "",
  ].filter(Boolean);
  return `data ${state}${more.length > 0 ? `; ${more.join("; ")}` : ""}`;
}

export function exceptionLine(
  exception: ReportException,
  amount: (value: number) => string,
): string {
  const what =
    exception.orderNumber === null
      ? ""
      : exception.kind === "report does not reconcile"
        ? visible(exception.orderNumber)
        : `order ${visible(exception.orderNumber)}`;
  const parts = [
    what,
    exception.employee === null ? "" : visible(exception.employee),
    amount(exception.amount),
    exception.time === null ? "" : `at ${exception.time}`,
  ].filter(Boolean);
  const detail = exception.detail === null ? "" : ` (${visible(exception.detail)})`;
  return `${exception.kind}: ${parts.join(", ")}${detail}`;
}

function locationBlock(location: LocationReport): string[] {
  const amount = amountFormat(location.country);
  return [
    `${visible(location.name)}, ${longDay(location.day)}`,
    `  ${figuresLine(location.figures, location.usual, location.day, amount)}`,
    `  ${healthLine(location.health)}`,
    ...location.exceptions.map((e) => `  - ${exceptionLine(e, amount)}`),
  ];
}

/** When the last successful sync finished, to the minute, in UTC. */
export function lastSync(report: MorningReport): string {
  const at = report.lastSuccessAt;
  return at === null ? "none yet" : `${at.slice(0, 16).replace("T", " ")} UTC`;
}

export function subjectOf(report: MorningReport): string {
  const days = report.days.length === 1 ? longDay(report.days[0] ?? "") : report.days.join(" to ");
  const exceptions = report.chain.exceptions;
  return `Morning report, ${days}: ${exceptions === 0 ? "no exceptions" : `${exceptions} exception(s)`}`;
}

export function reportText(report: MorningReport): string {
  const amount = amountFormat(report.locations[0]?.country ?? null);
  const withExceptions = report.locations.filter((l) => l.exceptions.length > 0);
  const quiet = report.locations.filter((l) => l.exceptions.length === 0);
  const lines = [
    subjectOf(report),
    "",
    `All ${report.locations.length} location(s): ${figuresLine(report.chain.figures, report.chain.usual, report.days[0] ?? "", amount)}`,
  ];
  if (report.locations.length === 0) lines.push("No location is stored yet: run pos-sync sync.");
  for (const location of withExceptions) lines.push("", ...locationBlock(location));
  if (quiet.length > 0) {
    lines.push("", "No exceptions:");
    for (const location of quiet) {
      const local = amountFormat(location.country);
      lines.push(
        `  ${visible(location.name)}: ${figuresLine(location.figures, location.usual, location.day, local)}; ${healthLine(location.health)}`,
      );
    }
  }
  lines.push("", `Last successful sync: ${lastSync(report)}`);
  return `${lines.join("\n")}\n`;
}
