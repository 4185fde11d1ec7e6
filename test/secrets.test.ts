/** After a debug-level run through faults, the API key is nowhere: not in the output, the logs,
 * an error, the database or its WAL. */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { startSimulator } from "../src/simulator/server.js";
import { simulatorEnv } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";
import { spawnCli } from "./helpers/process.js";

const tempPath = useTempDir();

describe.each(["", "Bearer"])("a debug-level run with faults (auth scheme %j)", (scheme) => {
  it("never writes the key anywhere", async () => {
    const simulator = await startSimulator({
      seed: 41,
      locations: 2,
      days: 5,
      today: simulatorToday(),
      authScheme: scheme,
    });
    try {
      simulator.faults.set({
        serverErrorRate: 0.1,
        rateLimitRate: 0.05,
        retryAfterSeconds: 0,
        dropRate: 0.05,
        malformedRate: 0.05,
      });
      const dbPath = tempPath();
      const env = simulatorEnv(simulator, dbPath, { POS_AUTH_SCHEME: scheme, LOG_LEVEL: "debug" });
      // The run also sees a rejected third key.
      const rejected = "pos_live_rejected_000000000000";
      const child = spawnCli(["sync"], { ...env, POS_API_KEYS: `${env.POS_API_KEYS},${rejected}` });
      const result = await child.exited;
      expect(result.code).toBe(3);
      // Debug logs of every window, every retried request and the rejected key were written.
      expect(result.stderr.split("\n").length).toBeGreaterThan(40);
      expect(result.stderr).toContain("failed: ");
      expect(result.stderr).toContain("the API rejected the API key key#");
      const status = spawnCli(["status", "--json"], { POS_DB_PATH: dbPath });
      const statusResult = await status.exited;
      const everything = [result.stdout, result.stderr, statusResult.stdout].join("\n");
      const files = [dbPath, `${dbPath}-wal`].filter(existsSync).map((f) => readFileSync(f));
      for (const key of [...simulator.keys, rejected]) {
        expect(everything).not.toContain(key);
        for (const file of files) expect(file.includes(key)).toBe(false);
      }
    } finally {
      await simulator.close();
    }
  });
});
