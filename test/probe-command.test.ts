/** `pos-sync probe` as a user runs it: the built command line against the simulator, its
 * report, its exit codes, the config file it writes, and a sync that runs on that file. */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ProbeFindings } from "../src/probe/findings.js";
import { runCli } from "./helpers/cli.js";
import { useSimulator } from "./helpers/simulator.js";

const PATHS = { taxes: "/v1/catalog/tax", health: "/v1/health" };
const sim = useSimulator({ days: 4, authScheme: "Bearer", strictSlashes: true, paths: PATHS });
const directory = mkdtempSync(join(tmpdir(), "probe-command-"));

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { POS_API_URL: sim.current.url, POS_API_KEYS: sim.current.keys.join(","), ...extra };
}

function expectNoKey(...texts: string[]): void {
  for (const text of texts) for (const key of sim.current.keys) expect(text).not.toContain(key);
}

describe("pos-sync probe", () => {
  it("prints what it found, how surely, and the settings to use, without the key", async () => {
    const result = await runCli(["probe", "--pace-ms", "100"], env());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Probed http:\/\/127\.0\.0\.1:\d+ with key#[0-9a-f]{8}: \d+ requests of a budget of 40/,
    );
    expect(result.stdout).toMatch(
      /Authorization header\s+authorization: Bearer <key>\s+\[observed\]/,
    );
    expect(result.stdout).toMatch(/nextPageToken\s+.*\[inferred\]/);
    expect(result.stdout).toContain("  POS_AUTH_SCHEME=Bearer    # in effect now: (empty)");
    expect(result.stdout).toContain(
      "  POS_PATH_TAXES=/v1/catalog/tax    # in effect now: /v1/catalog/taxes/",
    );
    expect(result.stdout).toContain("  POS_PATH_REPORT='/v1/reports/{id}'    # as in effect now");
    expect(result.stdout).toMatch(/Other keys\n {2}key#[0-9a-f]{8} {2}accepted \(/);
    expectNoKey(result.stdout, result.stderr);
  });

  it("prints the report as JSON with --json", async () => {
    const result = await runCli(["probe", "--json", "--pace-ms", "100"], env());
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as ProbeFindings;
    expect(report.settings.find((s) => s.name === "POS_PATH_HEALTH")?.value).toBe("/v1/health");
    expect(report.requests.sent).toBe(report.exchanges.length);
    expectNoKey(result.stdout, result.stderr);
  });

  it("writes a config file the sync then runs on", async () => {
    const file = join(directory, "pos-sync.json");
    writeFileSync(file, JSON.stringify({ lookbackDays: 2, paths: { report: "/v1/reports/{id}" } }));
    const probe = await runCli(["probe", "--pace-ms", "100", "--write-config", file], env());
    expect(probe.code).toBe(0);
    expect(probe.stdout).toMatch(
      /wrote .*pos-sync\.json: POS_AUTH_SCHEME=Bearer, .*\(no key is written\)/,
    );
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written).toEqual({
      lookbackDays: 2,
      paths: {
        report: "/v1/reports/{id}",
        paymentMethods: "/v1/catalog/payment-methods/",
        ...PATHS,
      },
      apiUrl: sim.current.url,
      authScheme: "Bearer",
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expectNoKey(readFileSync(file, "utf8"), probe.stdout);

    const db = join(directory, "synced.sqlite");
    const sync = await runCli(["sync", "--config", file, "--db", db], {
      POS_API_KEYS: sim.current.keys.join(","),
    });
    expect(sync.stderr).not.toMatch(/warn|error/i);
    expect(sync.code).toBe(0);
  });

  it("says nothing was written and writes nothing when the key is refused (exit 3)", async () => {
    const file = join(directory, "refused.json");
    const result = await runCli(
      ["probe", "--pace-ms", "100", "--write-config", file],
      env({ POS_API_KEYS: "a-key-this-server-never-issued" }),
    );
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(
      "! stopped early: the API key was refused in every header format tried",
    );
    expect(result.stdout).toContain("nothing written");
    expect(existsSync(file)).toBe(false);
    expect(result.stdout).not.toContain("a-key-this-server-never-issued");
  });

  it("finds a path even when the one in effect is wrong", async () => {
    const result = await runCli(
      ["probe", "--pace-ms", "100"],
      env({ POS_PATH_HEALTH: "/nowhere" }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  POS_PATH_HEALTH=/v1/health    # in effect now: /nowhere");
  });

  it("stops and says to check the address when the spec's paths are not under it (exit 1)", async () => {
    const result = await runCli(["probe", "--json", "--pace-ms", "100"], {
      ...env(),
      POS_API_URL: `${sim.current.url}/prefix`,
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as ProbeFindings;
    expect(report.stopped?.reason).toBe("base-url");
    expect(report.stopped?.message).toMatch(/answered 404: check POS_API_URL/);
  });

  it("stops in one line's worth when nothing answers (exit 1)", async () => {
    const result = await runCli(
      ["probe", "--pace-ms", "100"],
      env({ POS_API_URL: "http://127.0.0.1:9" }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /! stopped early: no answer from http:\/\/127\.0\.0\.1:9 to GET \/v1\/locations\/own\?devices=true \(ECONNREFUSED\)/,
    );
    // One request, and nothing learnt of the limits from it.
    expect(result.stdout).toMatch(/: 1 request of a budget of 40,/);
    expect(result.stdout).toMatch(
      /Rate limits +not determined: the probe stopped first +\[unknown\]/,
    );
    expect(result.stdout).not.toContain("none met");
  });

  it.each([
    [
      ["probe", "--pace-ms", "9000"],
      /--pace-ms must be a whole number from 100 to 5000, got "9000"/,
    ],
    [["probe", "--speed", "9"], /probe: Unknown option '--speed'/],
  ])("refuses %j in one line (exit 2)", async (args, message) => {
    const result = await runCli(args, env());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("asks for the address and a key (exit 2)", async () => {
    const result = await runCli(["probe"], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/POS_API_URL is required/);
  });
});

describe("pos-sync probe on a server with a path outside the candidates", () => {
  const odd = useSimulator({ days: 2, paths: { taxes: "/v2/vat-rates" } });

  it("exits 1 and names the setting to set by hand", async () => {
    const result = await runCli(["probe", "--pace-ms", "100"], {
      POS_API_URL: odd.current.url,
      POS_API_KEY: odd.current.keys[0] as string,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Taxes\s+not found\s+\[observed\]/);
    expect(result.stdout).toContain(
      "! not found; set POS_PATH_TAXES by hand (none of the 4 candidates answered it)",
    );
    expect(result.stdout).toContain("  # POS_PATH_TAXES: not found; set POS_PATH_TAXES by hand");
  });
});
