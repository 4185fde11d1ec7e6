/** Local timestamps: the simulator's locations each have a fixed offset from UTC, and the API
 * sends date-times in that local offset, or in UTC (Z) when the simulator is told to. */
import { dayFromEpoch } from "../clock/days.js";
import { offsetText } from "../clock/offsets.js";
import { today } from "../clock/today.js";
import { VENUES } from "./templates.js";

const MS_PER_DAY = 86_400_000;

/** ISO 8601 with milliseconds in the given offset: 2026-11-21T23:59:58.120+01:00. */
export function formatLocal(epochMs: number, offsetMinutes: number): string {
  const shifted = new Date(epochMs + offsetMinutes * 60_000).toISOString();
  return `${shifted.slice(0, 23)}${offsetText(offsetMinutes, "suffix")}`;
}

/** The instant of local midnight starting the given epoch day in the given offset. */
export function localMidnight(epochDay: number, offsetMinutes: number): number {
  return epochDay * MS_PER_DAY - offsetMinutes * 60_000;
}

/** Days since 1970-01-01 of the local calendar day an instant falls on. */
export function localEpochDay(epochMs: number, offsetMinutes: number): number {
  return Math.floor((epochMs + offsetMinutes * 60_000) / MS_PER_DAY);
}

/** The offset of the simulator's westernmost venue: the last of them to reach a new day. */
export const WESTERNMOST_OFFSET = Math.min(...VENUES.map((venue) => venue.offsetMinutes));

/**
 * The simulator's today when none is given: the day it is at its westernmost venue. The data run
 * into the evening of the simulator's today at every location (see simulatedNowMs); a later day
 * would give a location behind UTC orders on a day its own clock has not reached, which a sync on
 * this machine's clock rightly does not read yet. A location ahead of it is at most on the next
 * day, which a sync reads as empty and still open.
 */
export function simulatorToday(now: Date = new Date()): string {
  return today(now, WESTERNMOST_OFFSET);
}

/** Offsets of the simulator's venues that no Etc/GMT zone names, with a zone that keeps them all
 * year. */
const ZONES_OF_ODD_OFFSETS: ReadonlyMap<number, string> = new Map([[330, "Asia/Kolkata"]]);

/**
 * An IANA time zone whose offset is this fixed one all year (the simulator's locations know no
 * summer time), for syncing its UTC timestamps onto the location's clock: Etc/GMT-1 for +01:00
 * (the Etc names count the other way), UTC for 0.
 */
export function fixedOffsetZone(offsetMinutes: number): string | undefined {
  if (offsetMinutes === 0) return "UTC";
  if (offsetMinutes % 60 !== 0) return ZONES_OF_ODD_OFFSETS.get(offsetMinutes);
  const hours = -offsetMinutes / 60;
  return `Etc/GMT${hours > 0 ? "+" : ""}${hours}`;
}

/** How a location's API writes its instants. */
export interface TimestampStyle {
  offsetMinutes: number;
  /** Date-times in UTC (…Z) rather than in the location's offset. */
  sendsUtc: boolean;
}

/** A date-time as the location's API writes it. */
export function formatTimestamp(epochMs: number, style: TimestampStyle): string {
  return style.sendsUtc
    ? new Date(epochMs).toISOString()
    : formatLocal(epochMs, style.offsetMinutes);
}

/** The local calendar day of a timestamp the API sent: its own date part when it is in the
 * location's offset, the day its instant falls on locally when it is in UTC. */
export function localDayOf(timestamp: string, style: TimestampStyle): string {
  if (!style.sendsUtc) return timestamp.slice(0, 10);
  return dayFromEpoch(localEpochDay(Date.parse(timestamp), style.offsetMinutes));
}

export function parseInstant(timestamp: string): number {
  return Date.parse(timestamp);
}
