/** The command line as users run it: a built child process, its output and exit codes. */
import { spawn } from "node:child_process";
import { once } from "node:events";
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

describe("the end of a command", () => {
  it("hands a pipe read late all of its output, then ends though a library left a handle open", async () => {
    // The CLI's own way to end (dist/, as tsc builds it): `report --json | jq` must get the whole
    // JSON even when the reader is slower than the grace, and process.exit() would cut it short.
    const helper = new URL("../dist/cli/exit-when-written.js", import.meta.url).href;
    const size = 4 * 1024 * 1024;
    const script = `
      import { exitOnceOutputIsWritten } from ${JSON.stringify(helper)};
      process.stdout.write("x".repeat(${size}));
      setInterval(() => {}, 60_000);
      exitOnceOutputIsWritten(0, 20);
      setTimeout(() => process.stderr.write("ten graces passed\\n"), 200);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const closed = once(child, "close");
    // Nothing read yet: more than a pipe holds waits in the child.
    child.stdout.pause();
    let stderr = "";
    const waited = await new Promise<boolean>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk;
        if (stderr.includes("ten graces passed")) resolve(true);
      });
      child.on("exit", () => resolve(false));
    });
    let read = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      read += chunk.length;
    });
    child.stdout.resume();
    const [code] = await closed;
    expect({ waited, read, code }).toEqual({ waited: true, read: size, code: 0 });
  });
});
