/** The summary that ends a run: its counts are the run's, even where it shows only a few lines. */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/dates.js";
import { formatSummary } from "../src/sync/summary.js";
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
    } finally {
      sim.current.faults.reset();
      db.close();
    }
  });
});
