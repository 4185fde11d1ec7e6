/** `sync --since D` with no `--until` reads each location through its own today, not through
 * the day UTC is on. */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/dates.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
// The fifth location keeps UTC+05:30 and the third UTC-05:00.
const sim = useSimulator({ locations: 5, days: 6, seed: 41, ordersPerDay: [1, 3] });

describe("an explicit range with no last day", () => {
  it("reads a location ahead of UTC through its own today, and one behind through its own", async () => {
    const db = openTestDb(tempPath());
    const [ahead, behind] = [4, 2].map((i) => sim.current.dataset.locations[i]);
    if (!ahead || !behind) throw new Error("the simulator serves fewer than five locations");
    expect([ahead.offsetMinutes, behind.offsetMinutes]).toEqual([330, -300]);
    // 20:00 UTC the day before the data's today: 01:30 on that today at UTC+05:30.
    const now = () => new Date(`${addDays(TEST_TODAY, -1)}T20:00:00.000Z`);
    await syncOnce(sim.current, db, { range: { since: addDays(TEST_TODAY, -3) }, now });
    const lastOf = (id: string) =>
      rows(db, "SELECT MAX(day) AS last FROM sync_windows WHERE location_id = ?", id)[0]?.last;
    expect(lastOf(ahead.location.id)).toBe(TEST_TODAY);
    expect(lastOf(behind.location.id)).toBe(addDays(TEST_TODAY, -1));
    db.close();
  });
});
