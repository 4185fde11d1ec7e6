/** A sync thread that reaches its heap ceiling: the run is recorded as what ended it. */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/sqlite/open.js";
import { heldDatabase } from "../src/db/sqlite/run-hold.js";
import type { WorkerInput } from "../src/runner/worker-protocol.js";
import { useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { simulatorConfig } from "./helpers/sync.js";

const tempPath = useTempDir();
// Days large enough that a run at concurrency 16 holds far more than the thread may.
const sim = useSimulator({ locations: 1, days: 20, ordersPerDay: [800, 1000] });

// The built module: its thread's entry is a .js file beside it.
const { runSyncInWorker } = (await import(
  pathToFileURL(join(import.meta.dirname, "../dist/runner/worker-runner.js")).href
)) as typeof import("../src/runner/worker-runner.js");

/** Enough heap to load the thread and start its run, not to run it: in the middle of what does
 * both here (16 MB let a loaded machine's thread die before its run was recorded; 28 ran it). */
const TOO_LITTLE_MB = 20;

describe("a sync thread out of heap", () => {
  it("fails the run with what ended it, not left running for the next run to call killed", async () => {
    const db = openDatabase(tempPath());
    const input: WorkerInput = {
      scope: {
        config: { ...simulatorConfig(sim.current, { postgres: undefined }), concurrency: 16 },
        trigger: "cli",
      },
      logLevel: "silent",
      logFd: 2,
      progress: "log",
      reportAttempts: false,
      waitScale: 1,
    };
    try {
      await expect(
        runSyncInWorker({ input, held: heldDatabase(db), heapMb: TOO_LITTLE_MB }),
      ).rejects.toThrow(
        `the sync needed more than ${TOO_LITTLE_MB} MB of heap; raise POS_MEMORY_MB`,
      );
      expect(db.sqlite.prepare("SELECT status, error, finished_at FROM sync_runs").all()).toEqual([
        {
          status: "failed",
          error: `the sync needed more than ${TOO_LITTLE_MB} MB of heap; raise POS_MEMORY_MB`,
          finished_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ]);
    } finally {
      db.close();
    }
  });
});
