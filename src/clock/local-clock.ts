/**
 * A location's wall clock. The API's date-times carry the location's UTC offset on some servers
 * ("2026-11-21T23:59:58+01:00") and UTC on others ("2026-11-21T22:59:58Z"); an analyst grouping
 * by hour wants the hour on the location's clock either way. So the hour of a timestamp is the
 * one it was written in, unless it was written in UTC and the location has a time zone setting
 * (an IANA name such as Europe/Paris, which knows summer time), in which case it is converted.
 */
import { utcOffsetOf } from "./offsets.js";
import { MS_PER_DAY, MS_PER_MINUTE } from "./units.js";
import { zoneOffsetReader } from "./zones.js";

const MS_PER_HOUR = 3_600_000;
/** Zones change offset on the hour or the half hour: a quarter hour shares one offset. */
const OFFSET_BUCKET_MS = 15 * MS_PER_MINUTE;
/** Offsets remembered per clock before the memory starts over (about a year of quarter hours). */
const OFFSET_MEMORY = 40_000;

/** A date-time's date, hour and minute; the hour is captured. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ](\d{2}):\d{2}/;

export class LocalClock {
  /** The clock of a location without a time zone setting: hours as the API wrote them. */
  static readonly AS_SENT = new LocalClock(null);
  private static readonly zones = new Map<string, LocalClock>();

  /** The clock of a time zone (canonical), or AS_SENT for none: one per zone, so that every
   * user shares its formatter and the offsets it remembered. */
  static of(timeZone: string | null): LocalClock {
    if (timeZone === null) return LocalClock.AS_SENT;
    let clock = LocalClock.zones.get(timeZone);
    if (!clock) {
      clock = new LocalClock(timeZone);
      LocalClock.zones.set(timeZone, clock);
    }
    return clock;
  }

  /** The zone's offset at an instant, read from Intl (zones.ts); undefined for hours as sent. */
  private readonly readOffset: ((epochMs: number) => number) | undefined;
  private readonly offsets = new Map<number, number>();

  /** `timeZone` must be canonical (canonicalTimeZone), or null for hours as sent. */
  constructor(readonly timeZone: string | null) {
    this.readOffset = timeZone === null ? undefined : zoneOffsetReader(timeZone);
  }

  /**
   * The hour (0-23) a date-time shows on this clock: its own hour when it carries a non-zero
   * offset or none, converted to the time zone when it is in UTC (Z or +00:00) and a zone is
   * set. Null when the text is not a date-time.
   */
  hourOf(timestamp: string): number | null {
    const match = DATE_TIME.exec(timestamp);
    if (!match) return null;
    const written = Number(match[1]);
    if (written > 23) return null;
    if (this.readOffset === undefined || utcOffsetOf(timestamp) !== 0) return written;
    const instant = Date.parse(timestamp);
    if (Number.isNaN(instant)) return null;
    return this.hourAt(instant);
  }

  /**
   * How many minutes this clock is ahead of UTC at a date-time: the offset it was written with
   * when that is not UTC or no zone is set, the zone's at that instant when it was written in UTC
   * and a zone is set. The location's wall clock is the instant plus this (what the views show:
   * sql/bi-views.ts). Null when the text is not a date-time with an offset.
   */
  offsetOf(timestamp: string): number | null {
    const written = utcOffsetOf(timestamp);
    if (written === undefined || !DATE_TIME.test(timestamp)) return null;
    if (this.readOffset === undefined || written !== 0) return written;
    const instant = Date.parse(timestamp);
    return Number.isNaN(instant) ? null : (this.offsetMinutesAt(instant) ?? 0);
  }

  /** The hour this clock shows at an instant (UTC's when no zone is set). */
  hourAt(epochMs: number): number {
    const local = epochMs + (this.offsetMinutesAt(epochMs) ?? 0) * MS_PER_MINUTE;
    return Math.floor((((local % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) / MS_PER_HOUR);
  }

  /** The zone's offset from UTC at an instant, in minutes; undefined when no zone is set. */
  offsetMinutesAt(epochMs: number): number | undefined {
    if (this.readOffset === undefined) return undefined;
    const bucket = Math.floor(epochMs / OFFSET_BUCKET_MS);
    const known = this.offsets.get(bucket);
    if (known !== undefined) return known;
    const offset = this.readOffset(bucket * OFFSET_BUCKET_MS);
    if (this.offsets.size >= OFFSET_MEMORY) this.offsets.clear();
    this.offsets.set(bucket, offset);
    return offset;
  }
}
