/** When an exception happened, as the morning report shows it. */
import { describe, expect, it } from "vitest";
import { localMoment } from "../src/clock/local-moment.js";
import { timeOnDay } from "../src/morning-report/morning-report.js";

describe("an exception's time in the morning report", () => {
  it("is the time alone on the report's day", () => {
    expect(timeOnDay(localMoment("2026-11-28T21:10:00+01:00", 60), "2026-11-28")).toBe("21:10");
  });

  it("carries its date when it fell on another day, as a cancellation after midnight does", () => {
    // An order of the 28th cancelled at 03:45 on the 29th, on the location's clock.
    expect(timeOnDay(localMoment("2026-11-29T03:45:00+01:00", 60), "2026-11-28")).toBe(
      "2026-11-29 03:45",
    );
    // Written in UTC, the location's clock decides the day: 23:30Z is 00:30 the next day at +01:00.
    expect(timeOnDay(localMoment("2026-11-28T23:30:00Z", 60), "2026-11-28")).toBe(
      "2026-11-29 00:30",
    );
  });
});
