/**
 * What a location's clock decides on a stored row, and which rows change when the clock does:
 * decided once for the normalizers, both destinations' location-clocks.ts and the upgrade that
 * fills rows stored before.
 *
 * A clock decides an order's closing hour (orders.closed_hour, which the hourly summary groups
 * by) and, for orders and reports, each shown date-time's offset (`closed_at_offset` …: the
 * minutes the location's clock was ahead of UTC then, from which the views show the wall clock).
 * An order's earlier versions (order_versions) keep the clock they were stored with: they are
 * what pos-sync saw then.
 */
import type { LocalClock } from "../../clock/local-clock.js";
import { offsetText } from "../../clock/offsets.js";
import { MS_PER_MINUTE } from "../../clock/units.js";
import type { LocationDay } from "../../vocabulary.js";
import { offsetColumn } from "../schema/columns.js";

/** What applying a new time zone setting did. */
export interface TimeZoneChange {
  from: string | null;
  to: string | null;
  /** Stored orders and reports whose hour or offsets moved. */
  rows: number;
  /** Days whose hourly summary was recomputed. */
  days: number;
}

/** The tables a clock decides values of: the relation their rows are read and archived under,
 * their date-times as the API wrote them, and the one whose hour is stamped (closed_hour). */
export const CLOCKED_TABLES = {
  order_rows: {
    relation: "orders",
    dateTimes: ["created_at", "closed_at", "updated_at"],
    hourOf: "closed_at",
  },
  report_rows: { relation: "reports", dateTimes: ["finalized_at"], hourOf: undefined },
} as const;

export type ClockedTable = keyof typeof CLOCKED_TABLES;

export const CLOCKED_TABLE_NAMES = Object.keys(CLOCKED_TABLES) as ClockedTable[];

/** The columns the clock fills in `table`: each date-time's offset, and an order's hour. */
export function clockedColumns(table: ClockedTable): string[] {
  const { dateTimes, hourOf } = CLOCKED_TABLES[table];
  const offsets = dateTimes.map(offsetColumn);
  return hourOf === undefined ? offsets : [...offsets, "closed_hour"];
}

/** The values `clock` gives a row of `table` from its date-times as the API wrote them. */
export function clockValues(
  table: ClockedTable,
  sent: Readonly<Record<string, string>>,
  clock: LocalClock,
): Record<string, number | null> {
  const { dateTimes, hourOf } = CLOCKED_TABLES[table];
  const values: Record<string, number | null> = {};
  for (const column of dateTimes) {
    const text = sent[column];
    values[offsetColumn(column)] = text === undefined ? null : clock.offsetOf(text);
  }
  if (hourOf !== undefined) {
    const text = sent[hourOf];
    values.closed_hour = text === undefined ? null : clock.hourOf(text);
  }
  return values;
}

/** A stored clocked value as either destination reads it back (PostgreSQL's bigint as text), or
 * null. */
export const storedInteger = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A stored row: its key, its day, its date-times as the API wrote them and what the clock gave
 * it when stored (clockValues' columns). */
export interface ClockedRow<K> {
  key: K;
  business_date: string;
  sent: Record<string, string>;
  stored: Record<string, number | null>;
}

/** A stored row as read (key, business_date, the date-times and the clocked columns), with
 * each date-time as the API wrote it: `sent` when known, else as read. */
export function clockedRow<K>(
  table: ClockedTable,
  row: Readonly<Record<string, unknown>>,
  key: K,
  sentText: (column: string) => unknown = () => undefined,
): ClockedRow<K> {
  const sent: Record<string, string> = {};
  for (const column of CLOCKED_TABLES[table].dateTimes)
    sent[column] = String(sentText(column) ?? row[column]);
  const stored: Record<string, number | null> = {};
  for (const column of clockedColumns(table)) stored[column] = storedInteger(row[column]);
  return { key, business_date: String(row.business_date), sent, stored };
}

/**
 * The text a date-time was sent as, told from its instant (ISO 8601 in UTC) and the offset stored
 * with it, where nothing kept the text (PostgreSQL's archive off): written in UTC when the offset
 * is the one the clock then applied gives UTC (the setting moves it), else with that offset (the
 * API's own, which no setting moves).
 */
export function sentTextOf(
  instant: string,
  storedOffset: number | null,
  previousClock: LocalClock,
): string {
  if (storedOffset === null || previousClock.offsetOf(instant) === storedOffset) return instant;
  const epochMs = Date.parse(instant);
  if (Number.isNaN(epochMs)) return instant;
  const wall = new Date(epochMs + storedOffset * MS_PER_MINUTE).toISOString().slice(0, 23);
  return `${wall}${offsetText(storedOffset, "suffix")}`;
}

/** The rows whose clocked values are other on `clock`, with those values, and the days whose
 * hourly summary follows an order's hour. */
export function movedClockValues<K>(
  table: ClockedTable,
  rows: readonly ClockedRow<K>[],
  clock: LocalClock,
  locationId: string,
): { moved: { key: K; values: Record<string, number | null> }[]; days: LocationDay[] } {
  const moved: { key: K; values: Record<string, number | null> }[] = [];
  const days = new Map<string, LocationDay>();
  for (const row of rows) {
    const values = clockValues(table, row.sent, clock);
    const changed = Object.entries(values).some(([column, value]) => row.stored[column] !== value);
    if (!changed) continue;
    moved.push({ key: row.key, values });
    if (values.closed_hour !== undefined && values.closed_hour !== row.stored.closed_hour)
      days.set(row.business_date, { locationId, day: row.business_date });
  }
  return { moved, days: [...days.values()] };
}
