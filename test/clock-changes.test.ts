/**
 * A location's clock across clock changes and month and year ends: its offset (zones.ts,
 * local-clock.ts), its today (today.ts), its moments (local-moment.ts). Europe/Paris goes to
 * summer time at 01:00 UTC on the last Sunday of March and back at 01:00 UTC on the last Sunday
 * of October; America/New_York at 07:00 UTC on the second Sunday of March and back at 06:00 UTC
 * on the first Sunday of November.
 */
import { describe, expect, it } from "vitest";
import { LocalClock } from "../src/clock/local-clock.js";
import { instantOnClock, localMoment } from "../src/clock/local-moment.js";
import { today } from "../src/clock/today.js";
import { zoneOffsetReader } from "../src/clock/zones.js";

const at = (instant: string) => Date.parse(instant);

describe("a zone's offset across its clock changes", () => {
  it.each([
    ["Europe/Paris", "2026-03-29T00:59:59Z", 60],
    ["Europe/Paris", "2026-03-29T01:00:00Z", 120],
    ["Europe/Paris", "2026-10-25T00:59:59Z", 120],
    ["Europe/Paris", "2026-10-25T01:00:00Z", 60],
    ["Europe/Paris", "2026-12-31T23:00:00Z", 60],
    ["America/New_York", "2026-03-08T06:59:59Z", -300],
    ["America/New_York", "2026-03-08T07:00:00Z", -240],
    ["America/New_York", "2026-11-01T05:59:59Z", -240],
    ["America/New_York", "2026-11-01T06:00:00Z", -300],
    ["America/New_York", "2027-01-01T04:59:59Z", -300],
    ["Asia/Kolkata", "2026-07-01T00:00:00Z", 330],
    ["UTC", "2026-07-01T00:00:00Z", 0],
  ])("in %s at %s is %i minutes", (zone, instant, minutes) => {
    expect(zoneOffsetReader(zone)(at(instant))).toBe(minutes);
    // The clock remembers offsets by the quarter hour: the same answer, read or remembered.
    const clock = LocalClock.of(zone);
    expect(clock.offsetMinutesAt(at(instant))).toBe(minutes);
    expect(clock.offsetMinutesAt(at(instant))).toBe(minutes);
  });

  it.each([
    // The hour skipped in spring and the hour seen twice in autumn.
    ["Europe/Paris", "2026-03-29T00:30:00Z", 1],
    ["Europe/Paris", "2026-03-29T01:30:00Z", 3],
    ["Europe/Paris", "2026-10-25T00:30:00Z", 2],
    ["Europe/Paris", "2026-10-25T01:30:00Z", 2],
    ["America/New_York", "2026-03-08T06:30:00Z", 1],
    ["America/New_York", "2026-03-08T07:30:00Z", 3],
    ["America/New_York", "2026-11-01T05:30:00Z", 1],
    ["America/New_York", "2026-11-01T06:30:00Z", 1],
  ])("in %s at %s shows hour %i", (zone, instant, hour) => {
    expect(LocalClock.of(zone).hourAt(at(instant))).toBe(hour);
  });
});

describe("a location's today", () => {
  it.each([
    // [now, offset in minutes, today there]
    ["2026-12-31T23:30:00Z", 0, "2026-12-31"],
    ["2026-12-31T23:30:00Z", 60, "2027-01-01"],
    ["2027-01-01T03:00:00Z", -300, "2026-12-31"],
    ["2026-02-28T23:00:00Z", 60, "2026-03-01"],
    ["2028-02-28T23:00:00Z", 60, "2028-02-29"],
    ["2026-04-30T22:30:00Z", 120, "2026-05-01"],
    ["2026-06-01T03:59:00Z", -240, "2026-05-31"],
    ["2026-11-21T10:30:00Z", 840, "2026-11-22"],
    ["2026-11-21T10:30:00Z", -720, "2026-11-20"],
  ])("at %s, %i minutes from UTC, is %s", (now, offset, day) => {
    expect(today(new Date(now), offset)).toBe(day);
  });

  it("follows a zone's offset on either side of its clock change", () => {
    const paris = LocalClock.of("Europe/Paris");
    const onParis = (instant: string) =>
      today(new Date(instant), paris.offsetMinutesAt(at(instant)));
    // 22:30 UTC the evening before is 23:30 in winter, 00:30 in summer.
    expect(onParis("2026-03-28T22:30:00Z")).toBe("2026-03-28");
    expect(onParis("2026-03-29T22:30:00Z")).toBe("2026-03-30");
    expect(onParis("2026-10-24T22:30:00Z")).toBe("2026-10-25");
    expect(onParis("2026-10-25T22:30:00Z")).toBe("2026-10-25");
  });
});

describe("a moment on a location's clock", () => {
  it.each([
    // [timestamp, offset known, day, time, local]
    ["2026-12-31T23:30:00Z", 60, "2027-01-01", "00:30", true],
    ["2027-01-01T04:30:00Z", -300, "2026-12-31", "23:30", true],
    ["2026-03-29T01:30:00Z", 120, "2026-03-29", "03:30", true],
    ["2026-11-01T05:30:00Z", -240, "2026-11-01", "01:30", true],
    ["2026-11-01T06:30:00Z", -300, "2026-11-01", "01:30", true],
    // Written in the location's offset: kept as written, whatever offset is known.
    ["2026-12-31T23:30:00+01:00", 60, "2026-12-31", "23:30", true],
    ["2026-12-31T23:30:00-05:00", undefined, "2026-12-31", "23:30", true],
    // In UTC with the offset unknown: UTC's, and said so.
    ["2026-12-31T23:30:00Z", undefined, "2026-12-31", "23:30", false],
    ["2026-12-31T23:30:00Z", 0, "2026-12-31", "23:30", true],
  ])("%s with offset %j is %s %s", (timestamp, offset, day, time, local) => {
    expect(localMoment(timestamp, offset)).toEqual({ day, time, local });
  });
});

describe("the instant a zone's clock shows a time of day", () => {
  const zoneClock = (zone: string) => ({
    offsetAt: (epochMs: number) => LocalClock.of(zone).offsetMinutesAt(epochMs) ?? 0,
  });
  it.each([
    // [zone, day, HH:MM, instant]: that day's offset, not today's.
    ["Europe/Paris", "2026-03-28", "07:00", "2026-03-28T06:00:00.000Z"],
    ["Europe/Paris", "2026-03-29", "07:00", "2026-03-29T05:00:00.000Z"],
    // Skipped by the change: the instant an hour later on the new clock (03:30).
    ["Europe/Paris", "2026-03-29", "02:30", "2026-03-29T01:30:00.000Z"],
    ["Europe/Paris", "2026-10-25", "07:00", "2026-10-25T06:00:00.000Z"],
    ["Europe/Paris", "2027-01-01", "00:00", "2026-12-31T23:00:00.000Z"],
    ["America/New_York", "2026-03-08", "07:00", "2026-03-08T11:00:00.000Z"],
    ["America/New_York", "2026-03-07", "07:00", "2026-03-07T12:00:00.000Z"],
    // Seen twice: the first time, on summer time.
    ["America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30:00.000Z"],
    ["America/New_York", "2026-11-01", "07:00", "2026-11-01T12:00:00.000Z"],
    ["America/New_York", "2026-12-31", "23:00", "2027-01-01T04:00:00.000Z"],
  ])("in %s on %s at %s is %s", (zone, day, hhmm, instant) => {
    const [hours = 0, minutes = 0] = hhmm.split(":").map(Number);
    const epochMs = instantOnClock(day, hours * 60 + minutes, zoneClock(zone));
    expect(new Date(epochMs).toISOString()).toBe(instant);
  });

  it("on a clock known by a fixed offset is that offset away", () => {
    const learned = { offsetAt: () => 330 };
    expect(new Date(instantOnClock("2026-02-28", 7 * 60, learned)).toISOString()).toBe(
      "2026-02-28T01:30:00.000Z",
    );
  });
});
