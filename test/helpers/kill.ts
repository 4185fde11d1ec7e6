/** A sync killed in the middle of its work: the first half of every kill-and-resume test. */
import { expect } from "vitest";
import type { Operation } from "../../src/simulator/operations.js";
import type { Simulator } from "../../src/simulator/server.js";
import type { CliResult } from "./cli.js";
import { spawnCli } from "./process.js";

export interface KillOptions {
  /** Count only the requests of this operation (by default, every request the simulator served). */
  operation?: Operation;
  /** Arguments after `sync`. */
  args?: string[];
}

/**
 * Runs `pos-sync sync` against the simulator, kills it with SIGKILL once the simulator has served
 * `requests` requests, and checks that it died of that signal. Throws at once if the sync ends
 * before it could be killed, rather than waiting for the test's timeout.
 */
export async function killSyncAfterRequests(
  simulator: Simulator,
  env: Record<string, string>,
  requests: number,
  options: KillOptions = {},
): Promise<{ pid: number | undefined; exit: CliResult }> {
  const { operation, args = [] } = options;
  const served = () => {
    const stats = simulator.stats.snapshot();
    return operation === undefined ? stats.total : stats.byOperation[operation];
  };
  const child = spawnCli(["sync", ...args], env);
  while (served() < requests) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error("the sync ended before it could be killed");
    await new Promise((r) => setTimeout(r, 2));
  }
  child.kill("SIGKILL");
  const exit = await child.exited;
  expect(exit.signal).toBe("SIGKILL");
  return { pid: child.pid, exit };
}
