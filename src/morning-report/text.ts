/**
 * The morning report in words: for a terminal, the plain-text part of the e-mail and the
 * webhook's `text`. Exceptions first, then the locations whose day is not read, the read ones
 * without any folded into one line each; every amount in its location's number format; API text
 * made visible (terminal-text.ts). What the subject and headline may claim is completeness.ts's.
 */

import { longDay, weekdayName } from "../clock/day-names.js";
import { utcMinute } from "../clock/local-moment.js";
import { plural } from "../plural.js";
import { visible } from "../terminal-text.js";
import { type Coverage, coverageOf, isRead } from "./completeness.js";
import type { ReportException } from "./exceptions.js";
import type { DayFigures } from "./figures.js";
import type { DataHealth, LocationReport, MorningReport } from "./morning-report.js";

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

/** " (usual Saturday 7 699,07, -3 %)"; without the change for a day not read whole, whose
 * figures are only what was read so far (a day not read at all would show -100 %). */
export function againstUsual(
  figures: DayFigures,
  usual: DayFigures | null,
  day: string,
  amount: (value: number) => string,
  read: boolean,
): string {
  if (!usual) return "";
  return ` (usual ${weekdayName(day)} ${amount(usual.sales)}${read ? `, ${change(figures.sales, usual.sales)}` : ""})`;
}

export function figuresLine(
  figures: DayFigures,
  usual: DayFigures | null,
  day: string,
  amount: (value: number) => string,
  read = true,
): string {
  const against = againstUsual(figures, usual, day, amount, read);
  const average =
    figures.averageOrder === null ? "" : `, average order ${amount(figures.averageOrder)}`;
  return `sales ${amount(figures.sales)}${read ? "" : " so far"}${against}, ${figures.orders} orders, ${figures.guests} guests${average}`;
}

/** Whom the headline's figures are of: "All 2 location(s)", "1 of 2 locations read", or null
 * when no location's day is read and there are no figures to headline. */
export function headlineScope(coverage: Coverage<LocationReport>): string | null {
  const { of, read, unproved } = coverage;
  if (coverage.whole)
    return `All ${of} location(s)${unproved.length > 0 ? `, ${unproved.length} not yet proved` : ""}`;
  if (read.length === 0) return null;
  return `${read.length} of ${of} ${plural("location", of)} read`;
}

/** The headline's second line when some location's day is not read: which, and that their
 * figures are not in the headline's. */
export function notReadLine(coverage: Coverage<LocationReport>): string | null {
  const { of, partial, read } = coverage;
  if (partial.length === 0) return null;
  const names = partial.map((l) => l.name).join(", ");
  return read.length === 0
    ? `No location's day is read in full (${of} ${plural("location", of)}): no figures for the day yet, only what was read so far, below.`
    : `Not read in full, so not in these figures: ${names}; what was read so far is below.`;
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
  const read = isRead(location);
  return [
    `${visible(location.name)}, ${longDay(location.day)}${read ? "" : ": NOT read in full"}`,
    `  ${figuresLine(location.figures, location.usual, location.day, amount, read)}`,
    `  ${healthLine(location.health)}`,
    ...location.exceptions.map((e) => `  - ${exceptionLine(e, amount)}`),
    ...(location.exceptions.length === 0 && !read
      ? ["  no exceptions in what was read so far"]
      : []),
  ];
}

/** When the last successful sync finished, to the minute, in UTC. */
export function lastSync(report: MorningReport): string {
  const at = report.lastSuccessAt;
  return at === null ? "none yet" : utcMinute(at);
}

/** "Morning report, Saturday 5 December 2026: no exceptions"; with a location's day not read,
 * "…, incomplete: 1 of 2 locations read", never "no exceptions" of data not read. */
export function subjectOf(report: MorningReport): string {
  const days = report.days.length === 1 ? longDay(report.days[0] ?? "") : report.days.join(" to ");
  const exceptions = report.chain.exceptions;
  const coverage = coverageOf(report.locations);
  const { of, read, unproved } = coverage;
  if (!coverage.whole) {
    const found = exceptions === 0 ? "" : `; ${exceptions} exception(s) so far`;
    return `Morning report, ${days}, incomplete: ${read.length} of ${of} ${plural("location", of)} read${found}`;
  }
  const found = exceptions === 0 ? "no exceptions" : `${exceptions} exception(s)`;
  const proof = coverage.proved
    ? ""
    : ` (not yet proved: ${unproved.length} of ${of} ${plural("location", of)})`;
  return `Morning report, ${days}: ${found}${proof}`;
}

/** The report's order: those with exceptions, then those whose day is not read, then the rest. */
export function inReportOrder(locations: readonly LocationReport[]): {
  blocks: LocationReport[];
  quiet: LocationReport[];
} {
  return {
    blocks: [
      ...locations.filter((l) => l.exceptions.length > 0),
      ...locations.filter((l) => l.exceptions.length === 0 && !isRead(l)),
    ],
    quiet: locations.filter((l) => l.exceptions.length === 0 && isRead(l)),
  };
}

export function reportText(report: MorningReport): string {
  const amount = amountFormat(report.locations[0]?.country ?? null);
  const coverage = coverageOf(report.locations);
  const scope = headlineScope(coverage);
  const { blocks, quiet } = inReportOrder(report.locations);
  const lines = [subjectOf(report), ""];
  if (scope !== null && coverage.figures !== null)
    lines.push(
      `${scope}: ${figuresLine(coverage.figures, coverage.usual, report.days[0] ?? "", amount)}`,
    );
  const notRead = notReadLine(coverage);
  if (notRead !== null) lines.push(visible(notRead));
  if (report.locations.length === 0) lines.push("No location is stored yet: run pos-sync sync.");
  for (const location of blocks) lines.push("", ...locationBlock(location));
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
