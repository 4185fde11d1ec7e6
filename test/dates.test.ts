import { describe, expect, it } from "vitest";
import {
  addDays,
  daysBetween,
  eachDay,
  epochDayOnOrAfter,
  epochDayOnOrBefore,
  isCalendarDay,
  matchesApiDayPattern,
  toEpochDay,
  weekdayOf,
} from "../src/clock/days.js";

describe("days", () => {
  it("places a day in its week, Monday first, across the epoch and leap days", () => {
    expect(
      ["2026-11-23", "2026-11-29", "1970-01-01", "1969-12-29", "2024-02-29"].map(weekdayOf),
    ).toEqual([0, 6, 3, 0, 3]);
  });

  it("tells the API's pattern from real calendar dates", () => {
    expect(matchesApiDayPattern("2025-02-29")).toBe(true);
    expect(isCalendarDay("2025-02-29")).toBe(false);
    expect(isCalendarDay("2024-02-29")).toBe(true);
    for (const text of [
      "2026-02-30",
      "2026-04-31",
      "2026-13-01",
      "2026-1-01",
      "20260101",
      "",
      "2026-01-01T00:00",
    ]) {
      expect(isCalendarDay(text), text).toBe(false);
    }
  });

  it("does day arithmetic across months, years and leap days", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(daysBetween("2026-03-01", "2026-02-01")).toBe(-28);
    expect(eachDay("2026-12-30", "2027-01-02")).toEqual([
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
    ]);
    expect(eachDay("2026-01-02", "2026-01-01")).toEqual([]);
    expect(addDays("0099-12-31", 1)).toBe("0100-01-01");
  });

  it("rounds pattern-only dates to the nearest real day in the right direction", () => {
    expect(epochDayOnOrAfter("2025-02-29")).toBe(toEpochDay("2025-03-01"));
    expect(epochDayOnOrBefore("2025-02-29")).toBe(toEpochDay("2025-02-28"));
    expect(epochDayOnOrBefore("2024-02-29")).toBe(toEpochDay("2024-02-29"));
  });

  it("refuses to do arithmetic on a day that does not exist", () => {
    expect(() => toEpochDay("2026-02-30")).toThrow(RangeError);
  });
});
