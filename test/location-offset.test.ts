/** A location's UTC offset, learned from its reports before any order is stored, so that its
 * today is its own from the first run on; a refinement that never stops a run. */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { openTestDb, scalar, useTempDir } from "./helpers/db.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
const sim = useSimulator({ locations: 1, days: 4, seed: 13, ordersPerDay: [2, 4] });

const YESTERDAY = addDays(TEST_TODAY, -1);

const storedOffset = (db: ReturnType<typeof openTestDb>) =>
  scalar(db, "SELECT value FROM sync_state WHERE name = ?", "utc_offset_minutes");

describe("a location's UTC offset", () => {
  it("is read off its reports on the first run", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db, {
      range: { since: YESTERDAY, until: YESTERDAY },
      streams: ["reports"],
    });
    expect(storedOffset(db)).toBe(String(sim.current.dataset.locations[0]?.offsetMinutes));
    db.close();
  });

  it("does not stop the run when the reports that tell it cannot be read", async () => {
    const db = openTestDb(tempPath());
    sim.current.faults.inject(
      ...Array.from({ length: 30 }, () => ({
        kind: "status" as const,
        status: 503,
        operation: "listReports" as const,
      })),
    );
    try {
      const { result, logs } = await syncOnce(sim.current, db, {
        range: { since: YESTERDAY, until: YESTERDAY },
        streams: ["orders"],
      });
      expect(result.status, logs.text()).toBe("succeeded");
      expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBeGreaterThan(0);
      expect(storedOffset(db)).toBeUndefined();
      expect(logs.text()).toContain("could not read the location's UTC offset");
    } finally {
      sim.current.faults.reset();
      db.close();
    }
  });
});
