/** `pos-sync status` as users run it: what it says about runs, days and rows, read-only. */
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { startSimulator } from "../src/simulator/server.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { localToday } from "./helpers/clock.js";
import { openTestDb, useTempDir } from "./helpers/db.js";
import { killSyncAfterRequests } from "./helpers/kill.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
// The command line runs on the real clock: the simulator ends on the today it picks from it.
const sim = useSimulator({ today: simulatorToday(), days: 6, seed: 17, locations: 1 });

/** A database synced once from the shared simulator. */
async function syncedDatabase(): Promise<string> {
  const dbPath = tempPath();
  const result = await runCli(["sync"], simulatorEnv(sim.current, dbPath));
  expect(result.code, result.stderr).toBe(0);
  return dbPath;
}

function edit(dbPath: string, sql: string, ...params: unknown[]): void {
  const db = openTestDb(dbPath);
  try {
    db.sqlite.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

async function status(dbPath: string): Promise<string> {
  const result = await runCli(["status"], { POS_DB_PATH: dbPath });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON report's fields
async function statusJson(dbPath: string): Promise<any> {
  const result = await runCli(["status", "--json"], { POS_DB_PATH: dbPath });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe("pos-sync status: the last run", () => {
  it("says a run whose process was killed is interrupted, not running", async () => {
    const simulator = await startSimulator({
      seed: 9,
      locations: 1,
      days: 20,
      today: simulatorToday(),
      ordersPerDay: [220, 320],
    });
    try {
      simulator.faults.set({ latencyMs: 25 });
      const dbPath = tempPath();
      const killed = await killSyncAfterRequests(simulator, simulatorEnv(simulator, dbPath), 4, {
        operation: "listOrders",
      });

      const text = await status(dbPath);
      expect(text).toMatch(/^Last run #1 interrupted \(cli\), started .+, its process \d+ ended/m);
      expect(text).not.toContain("not finished");
      const report = await statusJson(dbPath);
      expect(report.lastRun).toMatchObject({
        status: "interrupted",
        recordedStatus: "running",
        process: "gone",
        pid: killed.pid,
      });
    } finally {
      await simulator.close();
    }
  });

  it("says a run still going is running", async () => {
    const dbPath = await syncedDatabase();
    // This test process stands for a sync that is still at work.
    edit(
      dbPath,
      "UPDATE sync_runs SET status = 'running', finished_at = NULL, pid = ?, hostname = ?",
      process.pid,
      hostname(),
    );
    expect(await status(dbPath)).toMatch(
      new RegExp(
        `^Last run #1 running \\(cli\\), .*not finished yet \\(process ${process.pid}\\)`,
        "m",
      ),
    );
  });

  it("cannot check another host's run, and says it may be running or interrupted", async () => {
    const dbPath = await syncedDatabase();
    edit(
      dbPath,
      "UPDATE sync_runs SET status = 'running', finished_at = NULL, pid = 4242, hostname = 'elsewhere'",
    );
    expect(await status(dbPath)).toMatch(
      /^Last run #1 running or interrupted \(cli\), .*process 4242 runs on elsewhere, which cannot be checked from here/m,
    );
    edit(dbPath, "UPDATE sync_runs SET pid = NULL, hostname = NULL");
    expect(await status(dbPath)).toMatch(
      /^Last run #1 running or interrupted \(cli\), .*recorded no process to check/m,
    );
  });
});

describe("pos-sync status: days", () => {
  it("does not call today complete while its windows are open", async () => {
    const dbPath = await syncedDatabase();
    const day = localToday(sim.current);
    const report = await statusJson(dbPath);
    const orders = report.locations[0].streams.find(
      (s: { stream: string }) => s.stream === "orders",
    );
    expect(orders).toMatchObject({
      openDays: [day],
      completeThrough: addDays(day, -1),
      readThrough: day,
      gaps: [],
    });
    const text = await status(dbPath);
    expect(text).toContain(
      `complete through ${addDays(day, -1)}, ${day} open (read before the day ended)`,
    );
    expect(text).not.toContain(`complete through ${day}`);
  });

  it("never counts days after today as gaps", async () => {
    const dbPath = await syncedDatabase();
    const day = localToday(sim.current);
    const [future, later] = [addDays(day, 30), addDays(day, 31)];
    edit(
      dbPath,
      `INSERT INTO sync_windows (location_id, stream, day, status, attempts, synced_at)
       SELECT location_id, stream, ?, 'open', 1, synced_at FROM sync_windows WHERE day = ?
       UNION ALL
       SELECT location_id, stream, ?, 'open', 1, synced_at FROM sync_windows WHERE day = ?`,
      future,
      day,
      later,
      day,
    );
    const report = await statusJson(dbPath);
    for (const stream of report.locations[0].streams) {
      expect(stream.gaps).toEqual([]);
      expect(stream.futureDays).toEqual([future, later]);
      expect(stream.openDays).toEqual([day]);
    }
    const text = await status(dbPath);
    expect(text).not.toContain("missing");
    expect(text).toContain(`ignored: windows stored for days after today (${future}..${later})`);
  });

  it("shows suspicious days with the reason", async () => {
    const dbPath = await syncedDatabase();
    const day = addDays(sim.current.dataset.today, -2);
    edit(
      dbPath,
      "UPDATE sync_windows SET status = 'suspicious', last_error = 'the API listed 3 of 50 stored' WHERE stream = 'orders' AND day = ?",
      day,
    );
    expect(await status(dbPath)).toContain(
      `not complete: ${day} suspicious (the API listed 3 of 50 stored)`,
    );
  });
});

describe("pos-sync status: rows and names", () => {
  it("counts live orders and reports, and those deleted upstream apart", async () => {
    const dbPath = await syncedDatabase();
    const db = openTestDb(dbPath);
    const orders = db.sqlite.prepare("SELECT COUNT(*) FROM orders").pluck().get() as number;
    db.sqlite
      .prepare(
        "UPDATE order_rows SET deleted_at = '2026-01-01T00:00:00Z' WHERE id IN (SELECT id FROM orders LIMIT 3)",
      )
      .run();
    db.close();
    const report = await statusJson(dbPath);
    const stream = report.locations[0].streams.find(
      (s: { stream: string }) => s.stream === "orders",
    );
    expect(stream).toMatchObject({ rows: orders - 3, deleted: 3 });
    expect(await status(dbPath)).toContain(
      `${new Intl.NumberFormat("en-US").format(orders - 3)} rows (+3 deleted upstream)`,
    );
  });

  it("names a location that was read without a name apart from one never read", async () => {
    const dbPath = await syncedDatabase();
    edit(dbPath, "UPDATE locations SET name = NULL");
    edit(
      dbPath,
      `INSERT INTO sync_windows (location_id, stream, day, status, attempts, synced_at)
       VALUES ('never-read-location', 'orders', ?, 'failed', 1, '2026-01-01T00:00:00Z')`,
      sim.current.dataset.today,
    );
    const text = await status(dbPath);
    expect(text).toMatch(/^\(no name\) {2}\S+/m);
    expect(text).toContain("(location not read yet)  never-read-location");
  });
});
