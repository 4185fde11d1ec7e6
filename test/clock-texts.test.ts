/** The clock's texts: offsets, durations, moments and days, each written by one function. */
import { describe, expect, it } from "vitest";
import { longDay, weekdayName } from "../src/clock/day-names.js";
import { type DurationStyle, durationBetween, durationText } from "../src/clock/durations.js";
import { minuteAt, utcMinute } from "../src/clock/local-moment.js";
import { offsetText, utcOffsetOf } from "../src/clock/offsets.js";

describe("offsets", () => {
  it.each([
    ["2026-11-21T23:59:58+01:00", 60],
    ["2026-11-21T23:59:58.120-05:30", -330],
    ["2026-11-21T22:59:58Z", 0],
    ["2026-11-21T22:59:58+00:00", 0],
    ["2026-11-21T22:59:58+14:00", 840],
    ["2026-11-21T22:59:58", undefined],
    ["", undefined],
  ])("reads the offset %j carries as %j minutes", (timestamp, minutes) => {
    expect(utcOffsetOf(timestamp)).toBe(minutes);
  });

  it.each([
    [60, "+01:00", "UTC+01:00"],
    [-330, "-05:30", "UTC-05:30"],
    [0, "+00:00", "UTC"],
    [345, "+05:45", "UTC+05:45"],
    [-720, "-12:00", "UTC-12:00"],
    [840, "+14:00", "UTC+14:00"],
  ])("writes %i minutes as %j after a timestamp and %j as a clock", (minutes, suffix, clock) => {
    expect(offsetText(minutes, "suffix")).toBe(suffix);
    expect(offsetText(minutes, "clock")).toBe(clock);
    expect(utcOffsetOf(`2026-01-01T00:00:00${suffix}`)).toBe(minutes);
  });
});

describe("durations", () => {
  const cases: [DurationStyle, number, string][] = [
    ["tenths", 0, "0.0 s"],
    ["tenths", 3_640, "3.6 s"],
    ["tenths", 125_000, "125.0 s"],
    ["seconds", 300, "0.3 s"],
    ["seconds", 500, "0.5 s"],
    ["seconds", 15_000, "15 s"],
    ["seconds", 120_000, "120 s"],
    ["seconds", 300_000, "300 s"],
    ["span", -250, "0 ms"],
    ["span", 840, "840 ms"],
    ["span", 12_400, "12.4 s"],
    ["span", 60_000, "1 min"],
    ["span", 200_000, "3 min 20 s"],
    ["span", 3_600_000, "1 h"],
    ["span", 7_500_000, "2 h 5 min"],
    ["span", 47 * 3_600_000 + 59 * 60_000, "47 h 59 min"],
    ["span", 48 * 3_600_000, "2 days"],
    ["span", 80 * 3_600_000, "3 days"],
    ["minutes", -60_000, "0 min"],
    ["minutes", 29_000, "0 min"],
    ["minutes", 45 * 60_000, "45 min"],
    ["minutes", 59 * 60_000 + 31_000, "1 h"],
    ["minutes", 120 * 60_000, "2 h"],
    ["minutes", 125 * 60_000, "2 h 5 min"],
    ["minutes", 50 * 3_600_000, "50 h"],
    ["left", -5, "0 s"],
    ["left", 42_000, "42 s"],
    ["left", 59_600, "1 min 00 s"],
    ["left", 185_000, "3 min 05 s"],
    ["left", 3_720_000, "1 h 02 min"],
  ];
  it.each(cases)("writes %s of %i ms as %j", (style, ms, text) => {
    expect(durationText(ms, style)).toBe(text);
  });

  it("measures between two timestamps, whatever offsets they are written in", () => {
    expect(durationBetween("2026-11-24T19:40:00Z", "2026-11-24T19:40:12.345Z", "tenths")).toBe(
      "12.3 s",
    );
    expect(durationBetween("2026-11-24T19:40:00+01:00", "2026-11-24T21:45:00Z", "minutes")).toBe(
      "3 h 5 min",
    );
  });
});

describe("moments", () => {
  it("writes an instant to the minute in UTC, and on a clock an offset away", () => {
    expect(utcMinute("2026-11-24T19:40:59.999Z")).toBe("2026-11-24 19:40 UTC");
    const newYear = Date.parse("2026-12-31T23:30:00Z");
    expect(minuteAt(newYear, 0)).toBe("2026-12-31 23:30");
    expect(minuteAt(newYear, 60)).toBe("2027-01-01 00:30");
    expect(minuteAt(Date.parse("2027-03-01T02:00:00Z"), -300)).toBe("2027-02-28 21:00");
    expect(minuteAt(Date.parse("2028-03-01T02:00:00Z"), -300)).toBe("2028-02-29 21:00");
  });
});

describe("days in words", () => {
  it.each([
    ["2026-11-28", "Saturday", "Saturday 28 November 2026"],
    ["2026-12-31", "Thursday", "Thursday 31 December 2026"],
    ["2027-01-01", "Friday", "Friday 1 January 2027"],
    ["2024-02-29", "Thursday", "Thursday 29 February 2024"],
  ])("names %s %s, %j in full", (day, weekday, long) => {
    expect(weekdayName(day)).toBe(weekday);
    expect(longDay(day)).toBe(long);
  });

  it("keeps a text that is no day as it is", () => {
    expect(weekdayName("someday")).toBe("someday");
  });
});
