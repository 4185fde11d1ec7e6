/** A port another program already listens on: one line that names the port and the flag to
 * change, and exit 2, from every command that serves HTTP. */
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
const sim = useSimulator({ today: simulatorToday(), days: 2, seed: 5, locations: 1 });

let occupier: Server;
let port: number;

beforeAll(async () => {
  occupier = createServer();
  await new Promise<void>((resolve) => occupier.listen(0, "127.0.0.1", resolve));
  port = (occupier.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => occupier.close(resolve));
});

describe("a port already in use", () => {
  it("simulate names the port and --port, and exits 2", async () => {
    const result = await runCli(["simulate", "--port", String(port)]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(
      `pos-sync: port ${port} on 127.0.0.1 is already in use: choose another with --port`,
    );
  });

  it("daemon names the port, --port and POS_HTTP_PORT, and exits 2", async () => {
    const result = await runCli(
      ["daemon", "--port", String(port)],
      simulatorEnv(sim.current, tempPath()),
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(
      `pos-sync: port ${port} on 127.0.0.1 is already in use: choose another with --port ` +
        "(or POS_HTTP_PORT)",
    );
  });
});
