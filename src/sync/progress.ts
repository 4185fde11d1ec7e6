/**
 * Telling a person how a run goes: what a run reports (days planned per location and stream,
 * each finished window), and the structured log of it for output nobody watches live. The
 * displays for a person are in progress-display.ts; the counting they share in progress-tally.ts.
 */
import type { Logger } from "../log.js";
import type { Stream } from "../vocabulary.js";
import { ProgressTally } from "./progress-tally.js";

export interface PlannedEvent {
  locationId: string;
  /** The location's name, when known, for a display. */
  locationName: string | null;
  stream: Stream;
  days: number;
}

export interface WindowEvent {
  locationId: string;
  stream: Stream;
  day: string;
  records: number;
  status: string;
  /** How long the window took: a location that waited behind another is paced from when its
   * windows began, not from when they were planned. */
  durationMs?: number;
}

export interface Progress {
  planned(event: PlannedEvent): void;
  windowDone(event: WindowEvent): void;
  /** A log line, shown without tearing a live display (displays only). */
  log?(line: string): void;
  stop(): void;
}

/** Progress events logged per location and stream: one each tenth of its days. */
const LOG_STEPS = 10;

/**
 * Structured logs that a person can follow in a file: each location's stream says how far it
 * is (n of total, records, estimated time left) every tenth of its days, a window that did not
 * complete is a warning at once, and every window is an event at debug level.
 */
export class LogProgress implements Progress {
  private readonly tally = new ProgressTally();
  private readonly stepsLogged = new Map<string, number>();

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  planned(event: PlannedEvent): void {
    this.tally.planned(event, this.now());
    const { locationId, stream, days } = event;
    this.logger.info({ locationId, stream, days }, "planned day windows");
  }

  windowDone(event: WindowEvent): void {
    const line = this.tally.windowDone(event, this.now());
    const fields = { ...event, done: line.done, planned: line.planned };
    if (event.status === "complete" || event.status === "open")
      this.logger.debug(fields, "window synced");
    else this.logger.warn(fields, "window not complete");
    const key = `${event.locationId}:${event.stream}`;
    const step =
      line.done >= line.planned ? LOG_STEPS : Math.floor((line.done * LOG_STEPS) / line.planned);
    if (step <= (this.stepsLogged.get(key) ?? 0)) return;
    this.stepsLogged.set(key, step);
    const etaMs = this.tally.etaMs(line, this.now());
    this.logger.info(
      {
        locationId: event.locationId,
        stream: event.stream,
        done: line.done,
        planned: line.planned,
        records: line.records,
        ...(etaMs === undefined ? {} : { etaSeconds: Math.round(etaMs / 1000) }),
      },
      `${event.stream} ${line.done} of ${line.planned} days`,
    );
  }

  stop(): void {}
}
