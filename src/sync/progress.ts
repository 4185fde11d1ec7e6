/**
 * Telling a person how a run goes. In a terminal: a few lines redrawn in place, per stream days
 * done of days planned, records and rate. Elsewhere: one structured log event per window.
 */
import type { Logger } from "../log.js";
import type { Stream } from "./streams.js";

export interface WindowEvent {
  location: string;
  stream: Stream;
  day: string;
  records: number;
  status: string;
}

export interface Progress {
  planned(stream: Stream, days: number): void;
  windowDone(event: WindowEvent): void;
  stop(): void;
}

/** Structured logs: one event per finished window. */
export class LogProgress implements Progress {
  constructor(private readonly logger: Logger) {}

  planned(stream: Stream, days: number): void {
    this.logger.info({ stream, days }, "planned day windows");
  }

  windowDone(event: WindowEvent): void {
    const level = event.status === "complete" || event.status === "open" ? "info" : "warn";
    this.logger[level]({ ...event }, "window synced");
  }

  stop(): void {}
}

const number = new Intl.NumberFormat("en-US");

interface StreamLine {
  planned: number;
  done: number;
  records: number;
}

/** Days planned and done, and records, per stream, in the order the streams first showed. */
class StreamTally {
  readonly lines = new Map<Stream, StreamLine>();

  private line(stream: Stream): StreamLine {
    let line = this.lines.get(stream);
    if (!line) {
      line = { planned: 0, done: 0, records: 0 };
      this.lines.set(stream, line);
    }
    return line;
  }

  planned(stream: Stream, days: number): void {
    this.line(stream).planned += days;
  }

  /** Counts a finished window; returns its stream's line. */
  windowDone(event: WindowEvent): StreamLine {
    const line = this.line(event.stream);
    line.done++;
    line.records += event.records;
    return line;
  }
}

/** A live display on a terminal (standard error, so standard output stays clean). */
export class TerminalProgress implements Progress {
  private readonly tally = new StreamTally();
  private readonly started = Date.now();
  private drawn = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly out: NodeJS.WritableStream,
    redrawMs = 250,
  ) {
    this.timer = setInterval(() => this.draw(), redrawMs);
    this.timer.unref();
  }

  planned(stream: Stream, days: number): void {
    this.tally.planned(stream, days);
  }

  windowDone(event: WindowEvent): void {
    this.tally.windowDone(event);
  }

  private draw(): void {
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    const text = [...this.tally.lines].map(([stream, line]) => {
      const width = 24;
      const share = line.planned === 0 ? 1 : line.done / line.planned;
      const bar = "#".repeat(Math.round(share * width)).padEnd(width, ".");
      const rate = Math.round(line.records / seconds);
      const records = number.format(line.records);
      return `${stream.padEnd(8)} [${bar}] ${line.done}/${line.planned} days  ${records} records  ${number.format(rate)}/s`;
    });
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}A`);
    for (const line of text) this.out.write(`\x1b[2K${line}\n`);
    this.drawn = text.length;
  }

  stop(): void {
    clearInterval(this.timer);
    this.draw();
  }
}

/** For output that is not a terminal but still read by a person (a demo piped to a file): one
 * plain line per stream each time another quarter of its days is done. */
export class MilestoneProgress implements Progress {
  private readonly tally = new StreamTally();
  private readonly quartersShown = new Map<Stream, number>();

  constructor(private readonly out: NodeJS.WritableStream) {}

  planned(stream: Stream, days: number): void {
    this.tally.planned(stream, days);
  }

  windowDone(event: WindowEvent): void {
    const line = this.tally.windowDone(event);
    const quarter = line.planned === 0 ? 4 : Math.floor((4 * line.done) / line.planned);
    if (quarter <= (this.quartersShown.get(event.stream) ?? 0)) return;
    this.quartersShown.set(event.stream, quarter);
    this.out.write(
      `${event.stream.padEnd(8)} ${line.done}/${line.planned} days  ${number.format(line.records)} records\n`,
    );
  }

  stop(): void {}
}
