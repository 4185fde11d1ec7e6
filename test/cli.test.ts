/** The command line as users run it: a built child process, its output and exit codes. */
import { describe, expect, it } from "vitest";
import { runCli, startCli } from "./helpers/cli.js";

describe("pos-sync", () => {
  it("prints help listing the commands, exit 0", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: pos-sync <command>");
    expect(result.stdout).toContain("simulate");
  });

  it("prints a command's help", async () => {
    const result = await runCli(["simulate", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--latency MS");
    expect(result.stdout).toContain("--change-rate F");
  });

  it("refuses an unknown command with one line and exit 2", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });

  it.each([
    [["simulate", "--bogus"], "Unknown option '--bogus'"],
    [["simulate", "--days=-4"], "--days must be a whole number"],
    [["simulate", "--days", "-4"], "use '--days=-XYZ'"],
    [["simulate", "--today", "2026-02-30"], "--today must be a calendar date"],
    [["simulate", "--error-rate", "2"], "--error-rate must be a number from 0 to 1"],
    [["simulate", "--retry-after", "soon"], "--retry-after must be one of seconds, http-date"],
    [["simulate", "--orders-per-day", "9-3"], "--orders-per-day must look like MIN-MAX"],
    [["simulate", "--change-rate", "51"], "--change-rate must be a number from 0 to 50"],
    [["simulate", "--change-rate", "often"], "--change-rate must be a number from 0 to 50"],
  ])("refuses %j with one clear line and exit 2", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });
});

describe("pos-sync simulate", () => {
  it("serves the API, prints its address and keys, and stops cleanly on SIGTERM", async () => {
    const { child, output, exited } = await startCli(
      ["simulate", "--port", "0", "--locations", "2", "--days", "3", "--seed", "5"],
      /Stop with Ctrl-C/,
    );
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
    const keys = /POS_API_KEYS=(\S+)/.exec(output())?.[1]?.split(",") ?? [];
    expect(url).toBeDefined();
    expect(keys).toHaveLength(2);
    const response = await fetch(`${url}/v1/locations/own`, {
      headers: { authorization: keys[1] as string },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe("Trattoria Aurora");
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });
});
