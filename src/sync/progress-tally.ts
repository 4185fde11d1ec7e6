/**
 * Counting a run's progress per location and stream: days planned and done, records, and the
 * time left at the pace so far. Pure: it is told the time.
 */
import type { Stream } from "../vocabulary.js";

export interface ProgressLine {
  locationId: string;
  name: string | null;
  planned: number;
  done: number;
  records: number;
  /** When the first days were planned, in ms. */
  startedAt: number;
  /** When its earliest finished window began, in ms: a location whose windows waited behind
   * another's has its pace counted from there, not from when it was planned. */
  activeSince: number | null;
}

/** Where the pace of a line is counted from. */
export function paceStart(line: ProgressLine): number {
  return line.activeSince ?? line.startedAt;
}

export class ProgressTally {
  /** Per location and stream, in the order they were planned. */
  readonly streams = new Map<string, ProgressLine>();
  /** Per location, both day streams together. */
  readonly locations = new Map<string, ProgressLine>();

  planned(
    event: { locationId: string; locationName: string | null; stream: Stream; days: number },
    now: number,
  ): void {
    for (const line of this.linesOf(event.locationId, event.stream, event.locationName, now)) {
      line.planned += event.days;
      line.name = event.locationName ?? line.name;
    }
  }

  /** Counts a window finished at `now`; returns the line of its location and stream. */
  windowDone(
    event: { locationId: string; stream: Stream; records: number; durationMs?: number },
    now: number,
  ): ProgressLine {
    const [streamLine, locationLine] = this.linesOf(event.locationId, event.stream, null, now);
    const began = event.durationMs === undefined ? streamLine.startedAt : now - event.durationMs;
    for (const line of [streamLine, locationLine]) {
      line.done++;
      line.records += event.records;
      line.activeSince = Math.max(line.startedAt, Math.min(line.activeSince ?? began, began));
    }
    return streamLine;
  }

  /** Every location together. */
  total(): ProgressLine {
    const lines = [...this.locations.values()];
    return {
      locationId: "",
      name: "all locations",
      planned: lines.reduce((sum, l) => sum + l.planned, 0),
      done: lines.reduce((sum, l) => sum + l.done, 0),
      records: lines.reduce((sum, l) => sum + l.records, 0),
      startedAt: Math.min(...lines.map((l) => l.startedAt)),
      activeSince: null,
    };
  }

  /** Time left at the pace so far; undefined before the first day is done. */
  etaMs(line: ProgressLine, now: number): number | undefined {
    if (line.done === 0 || line.done >= line.planned)
      return line.done >= line.planned ? 0 : undefined;
    const perDay = (now - paceStart(line)) / line.done;
    return Math.round(perDay * (line.planned - line.done));
  }

  private linesOf(
    locationId: string,
    stream: Stream,
    name: string | null,
    now: number,
  ): [ProgressLine, ProgressLine] {
    const fresh = (): ProgressLine => ({
      locationId,
      name,
      planned: 0,
      done: 0,
      records: 0,
      startedAt: now,
      activeSince: null,
    });
    const key = `${locationId}:${stream}`;
    const streamLine = this.streams.get(key) ?? fresh();
    this.streams.set(key, streamLine);
    const locationLine = this.locations.get(locationId) ?? fresh();
    this.locations.set(locationId, locationLine);
    return [streamLine, locationLine];
  }
}
