/**
 * A coverage calendar as inline SVG, drawn like a contribution graph: a column a week (Monday on
 * top), a cell a day coloured by whether the day is in, its counts and reason in the cell's
 * title (hover on a computer, long press on a phone), a dot on days with rejected records.
 */
import { weekdayOf } from "../../clock/days.js";
import { escapeHtml } from "../../html-text.js";
import {
  type CalendarDay,
  type CoverageCalendar,
  type DayCoverage,
  isIn,
} from "../../read-models/coverage.js";
import { number } from "../text.js";

const CELL = 11;
const STEP = 13;
const TOP = 16;
const LEFT = 28;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** What each state is called on the page: the legend and the cells' titles share it. */
export const COVERAGE_WORDS: Record<DayCoverage, string> = {
  complete: "complete",
  open: "read while still open",
  incomplete: "incomplete",
  suspicious: "suspicious",
  failed: "failed",
  missing: "missing",
};

function stored(cell: CalendarDay): string {
  if (cell.storedCount === null) return "";
  return cell.apiCount === null || cell.apiCount === cell.storedCount
    ? `${number.format(cell.storedCount)} stored`
    : `stored ${number.format(cell.storedCount)} of the ${number.format(cell.apiCount)} the API counts`;
}

/** The cell's title: the day, its state, its counts and why it is not in. */
export function cellTitle(stream: string, cell: CalendarDay): string {
  const parts = [stored(cell)];
  if (cell.coverage === "missing") parts.push("never read");
  if (cell.coverage === "open") parts.push("read again at the next run");
  if (cell.error && !isIn(cell.coverage)) parts.push(cell.error);
  if (cell.rejected > 0)
    parts.push(`${number.format(cell.rejected)} record${cell.rejected === 1 ? "" : "s"} rejected`);
  const detail = parts.filter((part) => part !== "").join("; ");
  return `${cell.day} ${stream}: ${COVERAGE_WORDS[cell.coverage]}${detail ? ` (${detail})` : ""}`;
}

function cellSvg(stream: string, cell: CalendarDay, column: number): string {
  const x = LEFT + column * STEP;
  const y = TOP + weekdayOf(cell.day) * STEP;
  const dot =
    cell.rejected > 0
      ? `<circle class="rejected" cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="2.5"/>`
      : "";
  return (
    `<g class="day" data-day="${cell.day}" data-stream="${escapeHtml(stream)}" data-coverage="${cell.coverage}"` +
    `${cell.rejected > 0 ? ` data-rejected="${cell.rejected}"` : ""}>` +
    `<title>${escapeHtml(cellTitle(stream, cell))}</title>` +
    `<rect class="cell ${cell.coverage}" x="${x}" y="${y}" width="${CELL}" height="${CELL}" rx="2"/>${dot}</g>`
  );
}

function monthLabels(days: CalendarDay[], columnOf: (index: number) => number): string {
  const labels: string[] = [];
  let lastColumn = -3;
  days.forEach((cell, index) => {
    if (cell.day.slice(8) !== "01" && index !== 0) return;
    const column = columnOf(index);
    // A month starting late in the first week would print over the next label.
    if (column - lastColumn < 4) return;
    lastColumn = column;
    const month = MONTHS[Number(cell.day.slice(5, 7)) - 1] ?? "";
    // The year beside the first month and each January.
    const year = index === 0 || month === "Jan" ? ` ${cell.day.slice(0, 4)}` : "";
    labels.push(
      `<text class="label" x="${LEFT + column * STEP}" y="${TOP - 5}">${month}${year}</text>`,
    );
  });
  return labels.join("");
}

const WEEKDAY_LABELS = `<text class="label" x="0" y="${TOP + 9}">Mon</text><text class="label" x="0" y="${TOP + 2 * STEP + 9}">Wed</text><text class="label" x="0" y="${TOP + 4 * STEP + 9}">Fri</text>`;

/** The calendar of one stream; a sentence when it was never synced. */
export function calendarSvg(calendar: CoverageCalendar): string {
  const { days, stream } = calendar;
  if (days.length === 0) return `<p class="muted">${escapeHtml(stream)}: never synced</p>`;
  const leading = weekdayOf(days[0]?.day ?? "");
  const columnOf = (index: number) => Math.floor((index + leading) / 7);
  const columns = columnOf(days.length - 1) + 1;
  const width = LEFT + columns * STEP;
  const height = TOP + 7 * STEP;
  const cells = days.map((cell, index) => cellSvg(stream, cell, columnOf(index))).join("");
  return (
    `<div class="calendar-scroll"><svg class="calendar" role="img" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" aria-label="${escapeHtml(`${stream} coverage from ${days[0]?.day} to ${days.at(-1)?.day}`)}">` +
    `${monthLabels(days, columnOf)}${WEEKDAY_LABELS}${cells}</svg></div>`
  );
}

/** The legend under the calendars. */
export function calendarLegend(): string {
  const items = (Object.keys(COVERAGE_WORDS) as DayCoverage[]).map(
    (coverage) =>
      `<span class="legend-item"><svg width="12" height="12" aria-hidden="true"><rect class="cell ${coverage}" width="11" height="11" rx="2"/></svg> ${COVERAGE_WORDS[coverage]}</span>`,
  );
  items.push(
    `<span class="legend-item"><svg width="12" height="12" aria-hidden="true"><rect class="cell complete" width="11" height="11" rx="2"/><circle class="rejected" cx="5.5" cy="5.5" r="2.5"/></svg> with rejected records</span>`,
  );
  return `<p class="legend">${items.join("")}</p>`;
}
