/** Which day windows a run reads. */
import { describe, expect, it } from "vitest";
import { eachDay } from "../src/clock/days.js";
import { formatRanges, planDays } from "../src/sync/plan.js";
import type { WindowStatus } from "../src/vocabulary.js";

const today = "2026-03-15";

function windows(entries: Record<string, WindowStatus>): Map<string, WindowStatus> {
  return new Map(Object.entries(entries));
}

function allComplete(since: string, until: string): Map<string, WindowStatus> {
  return new Map(eachDay(since, until).map((day) => [day, "complete" as const]));
}

describe("incremental plans", () => {
  it("read the whole history when nothing is stored", () => {
    expect(
      planDays({ today, startDate: "2026-03-10", lookbackDays: 3, windows: new Map() }),
    ).toEqual(eachDay("2026-03-10", today));
  });

  it("read the lookback days and today when everything is complete", () => {
    expect(
      planDays({
        today,
        startDate: "2026-01-01",
        lookbackDays: 3,
        windows: allComplete("2026-01-01", today),
      }),
    ).toEqual(["2026-03-12", "2026-03-13", "2026-03-14", "2026-03-15"]);
  });

  it("read from the first incomplete day minus the lookback", () => {
    const stored = allComplete("2026-01-01", "2026-03-11");
    expect(planDays({ today, startDate: "2026-01-01", lookbackDays: 2, windows: stored })).toEqual(
      eachDay("2026-03-10", today),
    );
  });

  it("read an old gap with its lookback, not everything since", () => {
    const stored = allComplete("2026-01-01", today);
    stored.set("2026-02-01", "failed");
    expect(
      formatRanges(planDays({ today, startDate: "2026-01-01", lookbackDays: 2, windows: stored })),
    ).toBe("2026-01-30..2026-02-01, 2026-03-13..2026-03-15");
  });

  it("never reach before the start date", () => {
    expect(
      planDays({
        today,
        startDate: "2026-03-14",
        lookbackDays: 5,
        windows: windows({ "2026-03-14": "complete" }),
      }),
    ).toEqual(["2026-03-14", "2026-03-15"]);
  });

  it("read nothing when the start is in the future, and today alone with no lookback", () => {
    expect(
      planDays({ today, startDate: "2026-04-01", lookbackDays: 3, windows: new Map() }),
    ).toEqual([]);
    expect(
      planDays({
        today,
        startDate: "2026-01-01",
        lookbackDays: 0,
        windows: allComplete("2026-01-01", today),
      }),
    ).toEqual([today]);
  });
});

describe("explicit ranges", () => {
  it("read exactly the days given, whatever the checkpoints say", () => {
    expect(
      planDays({
        today,
        startDate: "2026-01-01",
        lookbackDays: 3,
        windows: allComplete("2026-01-01", today),
        range: { since: "2026-02-27", until: "2026-03-01" },
      }),
    ).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
  });

  it("stop at today: a day that has not begun is never planned", () => {
    const range = { since: "2026-03-14", until: "2026-03-20" };
    expect(
      planDays({ today, startDate: "2026-01-01", lookbackDays: 3, windows: new Map(), range }),
    ).toEqual(["2026-03-14", today]);
    expect(
      planDays({
        today,
        startDate: "2026-01-01",
        lookbackDays: 3,
        windows: new Map(),
        range: { since: "2027-01-01", until: "2027-01-05" },
      }),
    ).toEqual([]);
  });
});

describe("open days", () => {
  it("read a day again that was read while it was still today, even with no lookback", () => {
    const stored = allComplete("2026-01-01", "2026-03-13");
    stored.set("2026-03-14", "open");
    expect(planDays({ today, startDate: "2026-01-01", lookbackDays: 0, windows: stored })).toEqual([
      "2026-03-14",
      today,
    ]);
  });
});
