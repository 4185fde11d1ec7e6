/** The summary that ends a run: its counts are the run's, even where it shows only a few lines. */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { formatSummary } from "../src/ui/summary.js";
import { openTestDb, useTempDir } from "./helpers/db.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
const sim = useSimulator({ locations: 1, days: 30, seed: 61, ordersPerDay: [5, 10] });

describe("the summary of a run with many failed windows", () => {
  it("says how many problems it does not show, all of them counted", async () => {
    const db = openTestDb(tempPath());
    // A server whose counts are one too high: no window can be proven complete.
    sim.current.faults.set({ totalCountSkew: 1 });
    try {
      const { result } = await syncOnce(sim.current, db, {
        range: { since: addDays(TEST_TODAY, -29), until: TEST_TODAY },
        streams: ["orders", "reports"],
      });
      const text = formatSummary(result);
      const shown = text.split("\n").filter((line) => /^ {2}! (orders|reports) \d{4}/.test(line));
      expect(shown).toHaveLength(6);
      // 30 days of each of two streams: 60 windows not complete, 6 of them shown.
      expect(text).toContain("  ! … and 54 more (see pos-sync status)");
      // Across locations too: every window that did not complete, not only those kept.
      expect(result.stats.totals("orders").problemCount).toBe(30);
    } finally {
      sim.current.faults.reset();
      db.close();
    }
  });
});

describe("the summary's location names", () => {
  it("names a stored location when the API cannot be reached, with its configured label", async () => {
    const db = openTestDb(tempPath());
    const range = { since: TEST_TODAY, until: TEST_TODAY };
    await syncOnce(sim.current, db, { range });
    const [key] = sim.current.keys;
    const name = sim.current.dataset.locations[0]?.location.name ?? "";
    const unreachable = await syncOnce(sim.current, db, {
      range,
      configOverrides: {
        apiUrl: "http://127.0.0.1:9",
        locations: [{ apiKey: key ?? "", name: "Paris" }],
      },
    });
    const text = formatSummary(unreachable.result);
    expect(text).not.toContain("(unknown location)");
    expect(text).toMatch(new RegExp(`^${name} "Paris"  [0-9a-f-]{36}  key#[0-9a-f]{8}$`, "m"));
    db.close();
  });

  it("warns when POS_START_DATE is still to come, in the log and the summary", async () => {
    const db = openTestDb(tempPath());
    const future = addDays(TEST_TODAY, 10);
    const { result, logs } = await syncOnce(sim.current, db, {
      streams: ["orders"],
      configOverrides: { startDate: future },
    });
    const warning = `POS_START_DATE ${future} is after this location's today (${TEST_TODAY}): no day is read until then`;
    expect(logs.text()).toContain(warning);
    expect(formatSummary(result)).toContain(`  ! ${warning}`);
    db.close();
  });

  it("reads only the API's own days when POS_START_DATE is long before them, and says so", async () => {
    const db = openTestDb(tempPath());
    const firstDay = sim.current.dataset.firstDay;
    const { result, logs } = await syncOnce(sim.current, db, {
      streams: ["orders", "reports"],
      configOverrides: { startDate: "1900-01-01" },
    });
    const warning = `POS_START_DATE 1900-01-01 is before the first day this location's API holds (${firstDay}): the days before it hold nothing and are not read`;
    expect(logs.text()).toContain(warning);
    expect(formatSummary(result)).toContain(`  ! ${warning}`);
    // A first run reads from each location's checkpoints, none yet: not "incremental".
    expect(logs.text()).toContain('"range":"from checkpoints"');
    // 46,000 days before the data cost nothing: the plan is the API's days, not the span.
    const days = (Date.parse(TEST_TODAY) - Date.parse(firstDay)) / 86_400_000 + 1;
    expect(result.stats.totals("orders").windows.planned).toBe(days);
    expect(result.requests).toBeLessThan(days * 4);
    db.close();
  });
});
