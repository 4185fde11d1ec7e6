/** Killed at random moments, a sync loses nothing: the next run completes the data, without a
 * duplicate row, and every window it calls complete is. Real child processes, SIGKILL. */
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { Random } from "../src/simulator/random.js";
import { startSimulator } from "../src/simulator/server.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { firstRunDays } from "./helpers/clock.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { killSyncAfterRequests } from "./helpers/kill.js";

const tempPath = useTempDir();

describe.each([1, 2, 3])("a sync killed at a random moment (seed %i)", (seed) => {
  it("is completed by the next run, exactly", async () => {
    const simulator = await startSimulator({
      seed: 200 + seed,
      locations: 2,
      days: 10,
      today: simulatorToday(),
      ordersPerDay: [150, 250],
    });
    try {
      simulator.faults.set({ latencyMs: 15, malformedRate: 0.02 });
      const dbPath = tempPath();
      const env = simulatorEnv(simulator, dbPath);
      // Somewhere between the first pages and most of the run.
      const killAfter = new Random(seed, "kill").int(3, 70);
      await killSyncAfterRequests(simulator, env, killAfter);

      simulator.faults.set({ latencyMs: 0 });
      const next = await runCli(["sync"], env);
      expect(next.code, next.stdout + next.stderr).toBe(0);

      const db = openTestDb(dbPath);
      const { dataset } = simulator;
      const isMalformed = (id: string) => simulator.faults.isMalformed(id);
      expect(
        await compareWithDataset(db, dataset, {
          since: dataset.firstDay,
          until: dataset.today,
          isMalformed,
        }),
      ).toEqual([]);
      // Every window called complete holds what the API counts: stored rows plus rejects.
      const windows = rows(
        db,
        `SELECT w.location_id, w.stream, w.day, w.status, w.api_total_count, w.stored_count,
                (CASE w.stream WHEN 'orders' THEN (SELECT COUNT(*) FROM orders o WHERE o.location_id = w.location_id AND o.business_date = w.day)
                               ELSE (SELECT COUNT(*) FROM reports r WHERE r.location_id = w.location_id AND r.business_date = w.day) END)
                + (SELECT COUNT(*) FROM rejected_records j WHERE j.location_id = w.location_id AND j.stream = w.stream AND j.day = w.day) AS in_db
         FROM sync_windows w WHERE w.stream IN ('orders', 'reports')`,
      );
      // Two streams of every day of each location, through its own today.
      const days = firstRunDays(simulator, 0).length + firstRunDays(simulator, 1).length;
      expect(windows.length).toBe(2 * days);
      for (const window of windows) {
        expect(["complete", "open"], `${window.stream} ${window.day}`).toContain(window.status);
        expect(window.stored_count).toBe(window.api_total_count);
        expect(window.in_db, `${window.stream} ${window.day}`).toBe(window.api_total_count);
      }
      expect(rows(db, "SELECT status FROM sync_runs ORDER BY id").map((r) => r.status)).toEqual([
        "interrupted",
        "succeeded",
      ]);
      db.close();
    } finally {
      await simulator.close();
    }
  });
});
