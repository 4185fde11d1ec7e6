/** Local timestamps: the simulator's locations each have a fixed offset from UTC, and the API
 * sends date-times in that local offset. */

const MS_PER_DAY = 86_400_000;

function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, "0");
  const minutes = String(absolute % 60).padStart(2, "0");
  return `${sign}${hours}:${minutes}`;
}

/** ISO 8601 with milliseconds in the given offset: 2026-11-21T23:59:58.120+01:00. */
export function formatLocal(epochMs: number, offsetMinutes: number): string {
  const shifted = new Date(epochMs + offsetMinutes * 60_000).toISOString();
  return `${shifted.slice(0, 23)}${formatOffset(offsetMinutes)}`;
}

/** The instant of local midnight starting the given epoch day in the given offset. */
export function localMidnight(epochDay: number, offsetMinutes: number): number {
  return epochDay * MS_PER_DAY - offsetMinutes * 60_000;
}

/** Days since 1970-01-01 of the local calendar day an instant falls on. */
export function localEpochDay(epochMs: number, offsetMinutes: number): number {
  return Math.floor((epochMs + offsetMinutes * 60_000) / MS_PER_DAY);
}

/** The local calendar day of a timestamp the API sent: its own date part, in its own offset. */
export function localDayOf(timestamp: string): string {
  return timestamp.slice(0, 10);
}

export function parseInstant(timestamp: string): number {
  return Date.parse(timestamp);
}
