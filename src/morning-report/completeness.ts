/**
 * What a morning report may claim of its day. A location's day is read when every window of it
 * (orders, reports) was read complete: its figures are then the day's. One that is not (a backfill
 * killed, the API down overnight, a disk full) has only what was read so far, which may be
 * nothing: its figures are neither the location's day, nor part of the chain's, nor a change
 * against its usual, and its lack of exceptions says nothing. The words (text.ts, html.ts) and
 * the chain's figures (morning-report.ts) all follow from here.
 */

import { type DayFigures, figuresOf } from "./figures.js";

/** What the rule needs of a location's report. */
export interface LocationDay {
  figures: DayFigures;
  usual: DayFigures | null;
  health: { complete: boolean; proved: boolean };
}

export interface Coverage<T extends LocationDay> {
  /** How many locations the report is of. */
  of: number;
  /** Those whose day is read complete, in the report's order. */
  read: T[];
  /** Those whose day is not: their figures are what was read so far. */
  partial: T[];
  /** Read, but not yet proved to hold what the API lists (a window recorded before proofs were
   * kept, until the audit proves it). */
  unproved: T[];
  /** Every location's day read: the sum is the chain's. */
  whole: boolean;
  /** …and proved. */
  proved: boolean;
  /** The read locations' figures summed, and their usual: all a headline may claim; null when the
   * report has locations and none of their days is read. */
  figures: DayFigures | null;
  usual: DayFigures | null;
}

export const isRead = (location: LocationDay): boolean => location.health.complete;

export function coverageOf<T extends LocationDay>(locations: readonly T[]): Coverage<T> {
  const read = locations.filter(isRead);
  const partial = locations.filter((l) => !isRead(l));
  const unproved = read.filter((l) => !l.health.proved);
  const usual = read.flatMap((l) => (l.usual ? [l.usual] : []));
  return {
    of: locations.length,
    read,
    partial,
    unproved,
    whole: partial.length === 0,
    proved: partial.length === 0 && unproved.length === 0,
    figures: read.length === 0 && partial.length > 0 ? null : figuresOf(read.map((l) => l.figures)),
    usual: usual.length === 0 ? null : figuresOf(usual),
  };
}
