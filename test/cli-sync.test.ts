/** sync, status, verify and migrate as users run them: built child processes, real files. */
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { today } from "../src/clock/today.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { startSimulator } from "../src/simulator/server.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { firstRunDays, localToday } from "./helpers/clock.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { spawnCli } from "./helpers/process.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
// The command line runs on the real clock: the simulator ends on the today it picks from it.
const sim = useSimulator({ today: simulatorToday(), days: 8, seed: 5 });

function env(dbPath: string, extra: Record<string, string> = {}): Record<string, string> {
  return simulatorEnv(sim.current, dbPath, extra);
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1) ?? "";
}

describe("pos-sync sync", () => {
  it("replicates the API, prints a summary, and exits 0", async () => {
    const dbPath = tempPath();
    const result = await runCli(["sync"], env(dbPath));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^pos-sync sync: succeeded in [\d.]+ s \(run #1, \d+ requests/);
    expect(result.stdout).toContain("Le Petit Zinc");
    const days = firstRunDays(sim.current).length;
    expect(result.stdout).toMatch(new RegExp(`orders\\s+${days}/${days}\\s`));
    const db = openTestDb(dbPath);
    expect(
      await compareWithDataset(db, sim.current.dataset, {
        since: sim.current.dataset.firstDay,
        until: sim.current.dataset.today,
      }),
    ).toEqual([]);
    db.close();
  });

  it.each([
    [["sync", "--since", "2026-02-30"], "--since must be a calendar date YYYY-MM-DD"],
    [
      ["sync", "--since", "2026-03-10", "--until", "2026-03-01"],
      "--since 2026-03-10 is after --until 2026-03-01",
    ],
    [["sync", "--until", "2026-03-01"], "--until needs --since"],
    [["sync", "--lookback-days=-1"], "--lookback-days must be a whole number from 0"],
    [
      ["sync", "--streams", "orders,invoices"],
      "--streams takes some of location, catalog, reports, orders",
    ],
    [["sync", "--frobnicate"], "Unknown option '--frobnicate'"],
    [["sync", "--time-zone", "Paris"], "POS_TIME_ZONE must be an IANA time zone"],
  ])("refuses %j with one line, exit 2, nothing written", async (args, message) => {
    const dbPath = tempPath();
    const result = await runCli(args, env(dbPath));
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringContaining(message)]);
    expect(existsSync(dbPath)).toBe(false);
  });

  it("refuses days in the future with exit 2 and one line, and writes nothing", async () => {
    const dbPath = tempPath();
    // Past today anywhere (UTC+14 is a day ahead of UTC at most).
    const since = addDays(today(), 3);
    const future = await runCli(
      ["sync", "--since", since, "--until", addDays(since, 4)],
      simulatorEnv(sim.current, dbPath),
    );
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(
      new RegExp(
        `^pos-sync: --since ${since} is in the future \\(today is \\d{4}-\\d\\d-\\d\\d\\): nothing to read yet\n$`,
      ),
    );
    const until = await runCli(
      ["sync", "--since", sim.current.dataset.today, "--until", "2099-12-31"],
      simulatorEnv(sim.current, dbPath),
    );
    expect(until.code).toBe(2);
    expect(until.stderr).toContain("--until 2099-12-31 is in the future");
    expect(existsSync(dbPath)).toBe(false);
  });

  it("reads each location through its own today when --since comes alone", async () => {
    const dbPath = tempPath();
    const since = addDays(today(), -2);
    const result = await runCli(["sync", "--since", since, "--streams", "orders"], env(dbPath));
    expect(result.code, result.stderr).toBe(0);
    const db = openTestDb(dbPath, { readonly: true });
    sim.current.dataset.locations.forEach((location, index) => {
      const last = scalar(
        db,
        "SELECT MAX(day) FROM sync_windows WHERE location_id = ?",
        location.location.id,
      );
      expect(last).toBe(localToday(sim.current, index));
    });
    db.close();
  });

  it("refuses a directory as the database with one line and exit 2", async () => {
    const directory = dirname(tempPath());
    for (const command of [["sync"], ["status"], ["migrate"]]) {
      const result = await runCli([...command, "--db", directory], env(tempPath()));
      expect(result.code, command[0]).toBe(2);
      expect(result.stderr).toBe(
        `pos-sync: ${directory} is a directory: give --db (or POS_DB_PATH) the path of a database file\n`,
      );
    }
  });

  it("refuses a missing URL or key with exit 2 and writes nothing", async () => {
    const dbPath = tempPath();
    const noUrl = await runCli(["sync"], { POS_API_KEY: "k_12345678", POS_DB_PATH: dbPath });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr.trim()).toBe(
      "pos-sync: POS_API_URL is required: the base address of the API (https://…)",
    );
    const noKey = await runCli(["sync"], { POS_API_URL: sim.current.url, POS_DB_PATH: dbPath });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("an API key is required");
    expect(existsSync(dbPath)).toBe(false);
  });

  it("exits 3 on a rejected key, and the key shows nowhere", async () => {
    const dbPath = tempPath();
    const key = "pos_live_rejected_key_0987654321";
    const result = await runCli(["sync"], env(dbPath, { POS_API_KEYS: key, LOG_LEVEL: "debug" }));
    expect(result.code).toBe(3);
    expect(lastLine(result.stderr)).toMatch(
      /^pos-sync: the API rejected the API key key#[0-9a-f]{8} \(401 on GET/,
    );
    expect(result.stdout + result.stderr).not.toContain(key);
    for (const file of [dbPath, `${dbPath}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(key)).toBe(false);
    }
  });

  // Retried with the back-off shortened for tests (helpers/short-waits-cli.ts), then given up.
  it("exits 1 with a clear line when the API cannot be reached", async () => {
    const dbPath = tempPath();
    const result = await runCli(["sync"], env(dbPath, { POS_API_URL: "http://127.0.0.1:9" }));
    expect(result.code).toBe(1);
    expect(lastLine(result.stderr)).toMatch(
      /^pos-sync: GET \/v1\/locations\/own\?devices=true on 127\.0\.0\.1:9 failed: connection refused \(ECONNREFUSED\)$/,
    );
  });
});

describe("a run stopped by a signal", () => {
  it("commits the page in hand, records the run interrupted and exits 1 within seconds", async () => {
    const simulator = await startSimulator({
      seed: 10,
      locations: 1,
      days: 20,
      today: simulatorToday(),
      ordersPerDay: [220, 320],
    });
    try {
      simulator.faults.set({ latencyMs: 40 });
      const dbPath = tempPath();
      const environment = simulatorEnv(simulator, dbPath);
      const child = spawnCli(["sync"], environment);
      while (simulator.stats.snapshot().byOperation.listOrders < 8)
        await new Promise((r) => setTimeout(r, 5));
      const signalled = Date.now();
      child.kill("SIGTERM");
      const stopped = await child.exited;
      expect(stopped.code).toBe(1);
      expect(Date.now() - signalled).toBeLessThan(5_000);
      expect(stopped.stdout).toContain("pos-sync sync: interrupted");
      const db = openTestDb(dbPath);
      expect(rows(db, "SELECT status FROM sync_runs")).toEqual([{ status: "interrupted" }]);
      expect(scalar(db, "SELECT COUNT(*) FROM writer_lease")).toBe(0);
      expect(scalar(db, "PRAGMA integrity_check")).toBe("ok");
      db.close();
    } finally {
      await simulator.close();
    }
  });
});

describe("pos-sync status", () => {
  it("shows each location's complete days, rows and last run, as text and as JSON", async () => {
    const dbPath = tempPath();
    await runCli(["sync"], env(dbPath));
    const text = await runCli(["status"], { POS_DB_PATH: dbPath });
    expect(text.code).toBe(0);
    const last = localToday(sim.current);
    // Today's windows are open: read, but not complete while the day lasts.
    expect(text.stdout).toContain(`complete through ${addDays(last, -1)}, ${last} open`);
    expect(text.stdout).toMatch(/Last run #1 succeeded \(cli\)/);
    const json = await runCli(["status", "--json"], { POS_DB_PATH: dbPath });
    const report = JSON.parse(json.stdout);
    expect(report.locations).toHaveLength(2);
    expect(report.locations[0].streams[1]).toMatchObject({
      stream: "orders",
      gaps: [],
      completeThrough: addDays(last, -1),
      readThrough: last,
      openDays: [last],
    });
    expect(JSON.stringify(report)).not.toContain(sim.current.keys[0]);
  });

  it("shows days that failed as date ranges with the reason", async () => {
    const dbPath = tempPath();
    await runCli(["sync"], env(dbPath));
    const db = openTestDb(dbPath);
    const days = rows(
      db,
      "SELECT DISTINCT day FROM sync_windows WHERE stream = 'orders' ORDER BY day LIMIT 3",
    ).map((r) => r.day);
    db.sqlite
      .prepare(
        "UPDATE sync_windows SET status = 'failed', last_error = 'GET … answered 503' WHERE stream = 'orders' AND day IN (?, ?)",
      )
      .run(days[1], days[2]);
    db.close();
    const text = await runCli(["status"], { POS_DB_PATH: dbPath });
    expect(text.stdout).toContain(`complete through ${days[0]}`);
    expect(text.stdout).toContain(
      `not complete: ${days[1]}..${days[2]} failed (GET … answered 503)`,
    );
  });
});

describe("pos-sync verify", () => {
  it("exits 0 when everything matches and 1 after rows were deleted behind its back", async () => {
    const dbPath = tempPath();
    await runCli(["sync"], env(dbPath));
    const clean = await runCli(["verify"], env(dbPath));
    expect(clean.code, clean.stdout).toBe(0);
    expect(lastLine(clean.stdout)).toMatch(/^OK: \d+ requests$/);
    const db = openTestDb(dbPath);
    db.sqlite
      .prepare("DELETE FROM order_rows WHERE id IN (SELECT id FROM orders ORDER BY id LIMIT 2)")
      .run();
    db.close();
    const dirty = await runCli(["verify", "--json"], env(dbPath));
    expect(dirty.code).toBe(1);
    const result = JSON.parse(dirty.stdout);
    expect(result.ok).toBe(false);
    const mismatches = result.locations.flatMap((l: { mismatches: unknown[] }) => l.mismatches);
    expect(mismatches.length).toBeGreaterThanOrEqual(1);
  });
});

describe("pos-sync migrate", () => {
  it("creates the database and says so", async () => {
    const dbPath = tempPath();
    const result = await runCli(["migrate"], { POS_DB_PATH: dbPath });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^created the database .+ \(\d+ migrations applied\)$/m);
    expect(existsSync(dbPath)).toBe(true);
  });
});
