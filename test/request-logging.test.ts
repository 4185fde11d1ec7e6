/** LOG_LEVEL=debug shows every HTTP attempt and every retry, and never the key. */
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
// The command line runs on the real clock: the simulator ends on the today it picks from it.
const sim = useSimulator({ today: simulatorToday(), days: 3, seed: 13, locations: 1 });

interface LogEvent {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const DEBUG = 20;
const WARN = 40;

function events(stderr: string): LogEvent[] {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogEvent);
}

describe("LOG_LEVEL=debug", () => {
  it("logs every request with its operation, target, status, duration and attempt", async () => {
    const key = sim.current.keys[0] as string;
    const result = await runCli(
      ["sync"],
      simulatorEnv(sim.current, tempPath(), { LOG_LEVEL: "debug" }),
    );
    expect(result.code, result.stderr).toBe(0);
    const requests = events(result.stderr).filter(
      (event) => event.level === DEBUG && typeof event.target === "string",
    );
    expect(requests.length).toBeGreaterThan(3);
    expect(requests).toContainEqual(
      expect.objectContaining({
        operation: "getLocation",
        target: "/v1/locations/own?devices=true",
        status: 200,
        durationMs: expect.any(Number),
        attempt: 1,
      }),
    );
    expect(requests.map((event) => event.operation)).toContain("listOrders");
    expect(result.stderr).not.toContain(key);
  });

  it("logs a retried request's failed attempt and the attempt after it", async () => {
    const key = sim.current.keys[0] as string;
    sim.current.faults.inject({ kind: "status", status: 503, operation: "listProducts" });
    try {
      const result = await runCli(
        ["sync", "--streams", "catalog"],
        simulatorEnv(sim.current, tempPath(), { LOG_LEVEL: "debug" }),
      );
      expect(result.code, result.stderr).toBe(0);
      const products = events(result.stderr).filter((event) => event.operation === "listProducts");
      expect(products).toContainEqual(
        expect.objectContaining({ level: DEBUG, status: 503, attempt: 1 }),
      );
      expect(products).toContainEqual(
        expect.objectContaining({ level: WARN, attempt: 1, willRetry: true }),
      );
      expect(products).toContainEqual(
        expect.objectContaining({ level: DEBUG, status: 200, attempt: 2 }),
      );
      expect(result.stderr).not.toContain(key);
    } finally {
      sim.current.faults.reset();
    }
  });
});
