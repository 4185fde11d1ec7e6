/** Small conversions every normalizer shares. */
import type { LocalClock } from "../../clock/local-clock.js";

/** SQLite has no booleans: 1, 0, or null when the API left the field out. */
export function bit(value: boolean): 0 | 1;
export function bit(value: boolean | null | undefined): 0 | 1 | null;
export function bit(value: boolean | null | undefined): 0 | 1 | null {
  if (value === undefined || value === null) return null;
  return value ? 1 : 0;
}

/** A tax rate sent as a fraction (order items: 0.1) in hundredths of a percent (1000). */
export function basisPointsFromFraction(rate: number): number {
  return Math.round(rate * 10_000);
}

/** A tax rate sent in hundredths of a percent (catalog and reports: 1000), as an integer. */
export function basisPointsFromHundredths(rate: number): number {
  return Math.round(rate);
}

/** Optional text: absent and null both become null. */
export function optional<T>(value: T | null | undefined): T | null {
  return value ?? null;
}

/** Where a row came from and when it was written: the same for every row of a record. */
export interface RowContext {
  locationId: string;
  syncedAt: string;
}

/** Rows of a record that was listed under a day window. */
export interface DayRowContext extends RowContext {
  /** The day window the API listed the record under. */
  businessDate: string;
  /** The location's clock, for the hours stored beside the API's date-times. */
  clock: LocalClock;
}
