/** A location is named where a person looks, even when the API gives it no name. */
import { describe, expect, it } from "vitest";
import { MilestoneProgress } from "../src/ui/progress-display.js";
import { openTestDb, useTempDir } from "./helpers/db.js";
import { captureOutput } from "./helpers/output.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
const sim = useSimulator({ locations: 1, days: 5, seed: 67, ordersPerDay: [2, 4] });

describe("the progress of a location the API leaves unnamed", () => {
  it("names it as the configuration file labels it", async () => {
    const db = openTestDb(tempPath());
    const [served] = sim.current.dataset.locations;
    if (!served) throw new Error("the simulator serves no location");
    served.location.name = null;
    const { out, text } = captureOutput();
    const [key = ""] = sim.current.keys;
    await syncOnce(sim.current, db, {
      range: { since: TEST_TODAY, until: TEST_TODAY },
      streams: ["orders"],
      progress: new MilestoneProgress(out),
      configOverrides: { locations: [{ apiKey: key, name: "Paris" }] },
    });
    expect(text()).toMatch(/^Paris {2}1\/1 windows {2}\d+ records?\n$/);
    db.close();
  });
});
