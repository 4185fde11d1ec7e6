/**
 * A day stream's coverage calendar as one terminal line: one character a day, weeks apart. The
 * characters alone carry the state; colour only repeats it, so the line reads the same piped,
 * under NO_COLOR, or to someone who cannot tell the colours apart.
 */
import { weekdayOf } from "../clock/days.js";
import { type CalendarDay, type DayCoverage, isIn } from "../read-models/coverage.js";

/** plain: ASCII only; color: the same characters wrapped in ANSI 16-colour SGR codes. */
export type CalendarStyle = "plain" | "color";

type Tone = "green" | "cyan" | "yellow" | "red" | "grey" | "magenta";

// Foreground codes of the 16-colour palette: every terminal that colours at all has them.
const SGR: Record<Tone, number> = {
  red: 31,
  green: 32,
  yellow: 33,
  magenta: 35,
  cyan: 36,
  grey: 90,
};

const RESET = "\x1b[0m";

interface Mark {
  character: string;
  tone: Tone;
  label: string;
}

const COVERAGE_MARKS: Record<DayCoverage, Mark> = {
  complete: { character: "#", tone: "green", label: "complete" },
  open: { character: "o", tone: "cyan", label: "open" },
  incomplete: { character: "!", tone: "yellow", label: "incomplete" },
  suspicious: { character: "?", tone: "yellow", label: "suspicious" },
  failed: { character: "x", tone: "red", label: "failed" },
  // "never read" rather than "missing": the gap lines already say missing for whole ranges, and
  // the legend should not make every status output look as if something were missing.
  missing: { character: ".", tone: "grey", label: "never read" },
};

const REJECTED_MARK: Mark = { character: "r", tone: "magenta", label: "rejected records" };

/** The legend's order: from in, through not proven, to never read, then the rejects. */
const LEGEND: readonly Mark[] = [
  COVERAGE_MARKS.complete,
  COVERAGE_MARKS.open,
  COVERAGE_MARKS.incomplete,
  COVERAGE_MARKS.suspicious,
  COVERAGE_MARKS.failed,
  COVERAGE_MARKS.missing,
  REJECTED_MARK,
];

function markOf(day: CalendarDay): Mark {
  // A day that is in but set records aside is worth a look; a day not in already says so.
  if (day.rejected > 0 && isIn(day.coverage)) return REJECTED_MARK;
  return COVERAGE_MARKS[day.coverage];
}

/** The character that stands for a day, whatever the style. */
export function dayCharacter(day: CalendarDay): string {
  return markOf(day).character;
}

function paint(text: string, tone: Tone): string {
  return `\x1b[${SGR[tone]}m${text}${RESET}`;
}

/**
 * One character a day, a space before each Monday but the first day (so the first week may be
 * short). In colour, one SGR run per stretch of the same tone: the spaces between weeks stay
 * inside a run, which keeps the codes few.
 */
export function calendarLine(days: readonly CalendarDay[], style: CalendarStyle): string {
  const runs: { tone: Tone; text: string }[] = [];
  days.forEach((day, index) => {
    const mark = markOf(day);
    const gap = index > 0 && weekdayOf(day.day) === 0 ? " " : "";
    const last = runs.at(-1);
    if (last && (style === "plain" || last.tone === mark.tone)) {
      last.text += gap + mark.character;
    } else {
      if (last) last.text += gap;
      runs.push({ tone: mark.tone, text: mark.character });
    }
  });
  if (style === "plain") return runs.map((run) => run.text).join("");
  // A space that ends a run is kept outside its colour: nothing visible needs the code.
  return runs
    .map((run) => {
      const text = run.text.trimEnd();
      return paint(text, run.tone) + run.text.slice(text.length);
    })
    .join("");
}

/** What each character means, in the calendar's style. */
export function calendarLegend(style: CalendarStyle): string {
  return LEGEND.map(
    (mark) =>
      `${style === "color" ? paint(mark.character, mark.tone) : mark.character} ${mark.label}`,
  ).join("  ");
}
