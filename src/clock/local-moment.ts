/**
 * A moment on a location's clock when the clock is known by its offset at that moment (learned
 * from the API's timestamps or from its time zone): what `changes`, the morning report and the
 * status page show, and, the other way, the instant a clock shows a time of day.
 */
import { toEpochDay } from "./days.js";
import { utcOffsetOf } from "./offsets.js";
import { MS_PER_DAY, MS_PER_MINUTE, onClock } from "./units.js";

/** A clock known by its offset from UTC at each instant: a zone's, or one learned from the API's
 * timestamps. */
export interface OffsetClock {
  /** Its offset from UTC at an instant, in minutes. */
  offsetAt(epochMs: number): number;
}

/** A moment on the location's clock: its day, and its time of day (HH:MM). */
export interface LocalMoment {
  day: string;
  time: string;
  /** False when the location's offset is unknown and the moment is in UTC. */
  local: boolean;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/;

/** A date-time on the location's clock: as written when it carries the location's offset,
 * shifted by `offsetMinutes` when it is in UTC. */
export function localMoment(timestamp: string, offsetMinutes: number | undefined): LocalMoment {
  const written = utcOffsetOf(timestamp) ?? 0;
  if (written !== 0 || offsetMinutes === undefined) {
    const [, day = "", time = ""] = DATE_TIME.exec(timestamp) ?? [];
    return { day, time, local: written !== 0 || offsetMinutes === 0 };
  }
  const shifted = onClock(Date.parse(timestamp), offsetMinutes);
  return { day: shifted.slice(0, 10), time: shifted.slice(11, 16), local: true };
}

/** "2026-11-24 19:40 UTC" from an ISO instant in UTC. */
export function utcMinute(instant: string): string {
  return `${instant.slice(0, 16).replace("T", " ")} UTC`;
}

/** An instant to the minute, as "2026-11-24 15:18", on a clock `offsetMinutes` from UTC. */
export function minuteAt(epochMs: number, offsetMinutes: number): string {
  return onClock(epochMs, offsetMinutes).slice(0, 16).replace("T", " ");
}

/**
 * The instant a clock shows `minutes` after midnight on `day`: that day's offset, not today's, so
 * that 07:00 is 07:00 on the morning after a change too. A time that the change skips (02:30 on a
 * spring-forward night) is the instant an hour later on the new clock.
 */
export function instantOnClock(day: string, minutes: number, clock: OffsetClock): number {
  const wall = toEpochDay(day) * MS_PER_DAY + minutes * MS_PER_MINUTE;
  const guess = wall - clock.offsetAt(wall) * MS_PER_MINUTE;
  return wall - clock.offsetAt(guess) * MS_PER_MINUTE;
}
