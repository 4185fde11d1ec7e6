/**
 * Progress for a person. On a terminal: one line per location (both day streams together) and a
 * total, redrawn in place, with day windows done of those planned (a day of each stream),
 * records, rate and the time left; log lines are printed above the lines, never through them.
 * Elsewhere (a demo piped to a file): one plain line per location each time another quarter of
 * its windows is done; a location of a few windows, its last line only.
 */

import { durationText } from "../clock/durations.js";
import { plural } from "../plural.js";
import type { PlannedEvent, Progress, WindowEvent } from "../sync/progress.js";
import { type ProgressLine, ProgressTally, paceStart } from "../sync/progress-tally.js";
import { visible } from "../terminal-text.js";

const number = new Intl.NumberFormat("en-US");
const BAR_WIDTH = 20;
const NAME_WIDTH = 18;

/** Fewer windows than this are done in about a second: a piped run of them prints its end only. */
const QUARTERS_FROM = 28;

const recordsOf = (line: ProgressLine) =>
  `${number.format(line.records)} ${plural("record", line.records)}`;

function nameOf(line: ProgressLine): string {
  const name = visible(line.name ?? line.locationId.slice(0, 8));
  return name.length > NAME_WIDTH ? `${name.slice(0, NAME_WIDTH - 1)}…` : name.padEnd(NAME_WIDTH);
}

export class TerminalProgress implements Progress {
  private readonly tally = new ProgressTally();
  private drawn = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly out: NodeJS.WritableStream,
    redrawMs = 250,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.draw(), redrawMs);
    this.timer.unref();
  }

  planned(event: PlannedEvent): void {
    this.tally.planned(event, this.now());
  }

  windowDone(event: WindowEvent): void {
    this.tally.windowDone(event, this.now());
  }

  /** Clears the lines, prints the log line where they were, and draws them again below it. */
  log(line: string): void {
    this.erase();
    this.out.write(line.endsWith("\n") ? line : `${line}\n`);
    this.draw();
  }

  stop(): void {
    clearInterval(this.timer);
    this.draw();
  }

  private lineText(line: ProgressLine): string {
    const now = this.now();
    const share = line.planned === 0 ? 1 : line.done / line.planned;
    const bar = "#".repeat(Math.round(share * BAR_WIDTH)).padEnd(BAR_WIDTH, ".");
    const seconds = Math.max(0.001, (now - paceStart(line)) / 1000);
    const rate = number.format(Math.round(line.records / seconds));
    const eta = this.tally.etaMs(line, now);
    const left =
      line.done >= line.planned
        ? "done"
        : eta === undefined
          ? ""
          : `${durationText(eta, "left")} left`;
    return `${nameOf(line)} [${bar}] ${line.done}/${line.planned} windows  ${recordsOf(line)}  ${rate}/s  ${left}`.trimEnd();
  }

  private draw(): void {
    const lines = [...this.tally.locations.values()];
    if (lines.length === 0) return;
    const text = lines.map((line) => this.lineText(line));
    if (lines.length > 1) text.push(this.lineText(this.tally.total()));
    this.erase();
    for (const line of text) this.out.write(`\x1b[2K${line}\n`);
    this.drawn = text.length;
  }

  private erase(): void {
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }
}

/** The quarters of its windows a location has done: none before the end for a few windows. */
function quartersDone(line: ProgressLine): number {
  if (line.planned === 0 || line.done >= line.planned) return 4;
  return line.planned < QUARTERS_FROM ? 0 : Math.floor((4 * line.done) / line.planned);
}

export class MilestoneProgress implements Progress {
  private readonly tally = new ProgressTally();
  private readonly quartersShown = new Map<string, number>();

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly now: () => number = Date.now,
  ) {}

  planned(event: PlannedEvent): void {
    this.tally.planned(event, this.now());
  }

  windowDone(event: WindowEvent): void {
    this.tally.windowDone(event, this.now());
    const line = this.tally.locations.get(event.locationId);
    if (!line) return;
    const quarter = quartersDone(line);
    if (quarter <= (this.quartersShown.get(event.locationId) ?? 0)) return;
    this.quartersShown.set(event.locationId, quarter);
    const eta = this.tally.etaMs(line, this.now());
    const left = quarter >= 4 || eta === undefined ? "" : `  ${durationText(eta, "left")} left`;
    this.out.write(
      `${nameOf(line).trimEnd()}  ${line.done}/${line.planned} windows  ${recordsOf(line)}${left}\n`,
    );
  }

  log(line: string): void {
    this.out.write(line.endsWith("\n") ? line : `${line}\n`);
  }

  stop(): void {}
}
