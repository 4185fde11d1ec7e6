/** The sync's thread, started ahead of its run while the command opens its database. */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../src/config/settings.js";
import type { WorkerInput } from "../src/runner/worker-protocol.js";
import { useSimulator } from "./helpers/simulator.js";
import { simulatorConfig } from "./helpers/sync.js";

const sim = useSimulator();

// The built module: its thread's entry is a .js file beside it.
const { SyncWorker } = (await import(
  pathToFileURL(join(import.meta.dirname, "../dist/runner/sync-worker.js")).href
)) as typeof import("../src/runner/sync-worker.js");

const input = (): WorkerInput => ({
  scope: { config: simulatorConfig(sim.current, { postgres: undefined }), trigger: "cli" },
  logLevel: "silent",
  logFd: 2,
  progress: "log",
  reportAttempts: false,
  waitScale: 1,
});

describe("a sync thread started ahead of its run", () => {
  it("runs the sync it is given once it is ready", async () => {
    const worker = SyncWorker.start(SETTINGS.memoryMb.default);
    // Without the port to a database's thread, a SQLite run fails: it says so, as a run would.
    await expect(worker.run({ input: input() })).rejects.toThrow(/port to the database's thread/);
  });

  it("ends when the command will not run it, and a run asked of it then says so", async () => {
    const worker = SyncWorker.start(SETTINGS.memoryMb.default);
    worker.discard();
    await expect(worker.run({ input: input() })).rejects.toThrow(/ended without a result/);
  });
});
