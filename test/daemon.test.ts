/** The daemon as a real child process against the simulator: schedule, overlap, health,
 * metrics, a second writer refused, and a clean stop on SIGTERM. */
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { startSimulator } from "../src/simulator/server.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { logEvents, startDaemon } from "./helpers/daemon.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { useSimulator } from "./helpers/simulator.js";
import { until } from "./helpers/wait.js";

const tempPath = useTempDir();
const sim = useSimulator({ today: simulatorToday(), days: 6, seed: 12, locations: 1 });

function env(dbPath: string, extra: Record<string, string> = {}): Record<string, string> {
  return simulatorEnv(sim.current, dbPath, extra);
}

describe("pos-sync daemon", () => {
  it("syncs at start and on schedule, skips ticks during a run, and serves health and metrics", async () => {
    const dbPath = tempPath();
    // Slow enough that a run lasts longer than the one-second schedule.
    sim.current.faults.set({ latencyMs: 250 });
    const daemon = await startDaemon(["--schedule", "* * * * * *"], env(dbPath));
    try {
      await until(
        () => logEvents(daemon.output()).filter((e) => e.msg === "run finished").length >= 3,
      );
      const events = logEvents(daemon.output());
      // One JSON event per line; every event of a run carries its id.
      expect(
        events
          .filter(
            (e) =>
              e.msg === "planned day windows" || /^orders \d+ of \d+ days$/.test(String(e.msg)),
          )
          .every((e) => typeof e.runId === "number"),
      ).toBe(true);
      expect(events.some((e) => /^orders \d+ of \d+ days$/.test(String(e.msg)))).toBe(true);
      expect(events.some((e) => e.msg === "tick skipped: a run is still in progress")).toBe(true);
      expect(events.find((e) => e.msg === "run finished")).toMatchObject({
        reason: "start",
        status: "succeeded",
      });

      const health = await fetch(`${daemon.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", lastRun: { status: "succeeded" } });

      const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
      const locationId = sim.current.dataset.locations[0]!.location.id;
      expect(metrics).toMatch(/^pos_sync_runs_total\{status="succeeded"\} [3-9]\d*$/m);
      expect(metrics).toContain(
        `pos_sync_records_total{location="${locationId}",stream="orders",outcome="inserted"}`,
      );
      expect(metrics).toMatch(
        /^pos_sync_api_requests_total\{operation="listOrders",status="200"\} \d+$/m,
      );
      expect(metrics).toContain(
        'pos_sync_api_request_duration_seconds_bucket{le="0.1",operation="listOrders"}',
      );
      expect(metrics).toMatch(/^pos_sync_api_retries_total \d+$/m);
      expect(metrics).toMatch(/^pos_sync_api_rate_limited_total \d+$/m);
      expect(metrics).toMatch(
        new RegExp(
          `^pos_sync_last_success_timestamp_seconds\\{location="${locationId}",stream="orders"\\} \\d+`,
          "m",
        ),
      );
      expect(metrics).toContain(
        `pos_sync_window_lag_days{location="${locationId}",stream="orders"} 0`,
      );
      expect(metrics).toContain("process_resident_memory_bytes");

      // Runs never overlapped.
      const db = openTestDb(dbPath);
      const runs = rows(
        db,
        "SELECT started_at, finished_at FROM sync_runs WHERE finished_at IS NOT NULL ORDER BY id",
      );
      for (let i = 1; i < runs.length; i++)
        expect(runs[i].started_at >= runs[i - 1].finished_at).toBe(true);
      db.close();
    } finally {
      sim.current.faults.reset();
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
  });

  it("refuses a second writer while it runs, and never blocks a reader", async () => {
    const dbPath = tempPath();
    const daemon = await startDaemon(["--schedule", "0 0 1 1 *"], env(dbPath));
    try {
      const manual = await runCli(["sync"], env(dbPath));
      expect(manual.code).toBe(1);
      expect(manual.stderr.trim().split("\n").at(-1)).toMatch(
        new RegExp(
          `^pos-sync: another pos-sync is writing ${dbPath} \\(daemon, pid \\d+ on .+, since .+ UTC\\): stop it`,
        ),
      );
      const second = await runCli(["daemon"], env(dbPath));
      expect(second.code).toBe(1);
      expect(second.stderr).toContain("another pos-sync is writing");
      const status = await runCli(["status"], { POS_DB_PATH: dbPath });
      expect(status.code).toBe(0);
    } finally {
      daemon.child.kill("SIGTERM");
      expect((await daemon.exited).code).toBe(0);
    }
    // Once it is gone, a manual sync may write.
    expect((await runCli(["sync"], env(dbPath))).code).toBe(0);
  });

  it("answers 503 with the alert's reason once three runs in a row failed, counting those recorded before it started", async () => {
    const dbPath = tempPath();
    const revoked = env(dbPath, { POS_API_KEYS: "pos_live_revoked_key_000000" });
    for (let i = 0; i < 2; i++) expect((await runCli(["sync"], revoked)).code).not.toBe(0);
    const db = openTestDb(dbPath);
    expect(rows(db, "SELECT status FROM sync_runs")).toEqual([
      { status: "failed" },
      { status: "failed" },
    ]);
    db.close();
    const daemon = await startDaemon(["--schedule", "0 0 1 1 *"], revoked);
    try {
      await until(() => logEvents(daemon.output()).some((e) => e.msg === "run finished"));
      const health = await fetch(`${daemon.url}/healthz`);
      expect(health.status).toBe(503);
      const body = (await health.json()) as { status: string; reason: string };
      expect(body.status).toBe("failing");
      expect(body.reason).toMatch(
        /^3 run\(s\) in a row failed, the first at \d{4}-\d\d-\d\d \d\d:\d\d UTC: the API rejected the API key key#[0-9a-f]{8}/,
      );
      expect(JSON.stringify(body)).not.toContain("pos_live_revoked_key_000000");
      expect(daemon.output()).not.toContain("pos_live_revoked_key_000000");
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
  });

  it("keeps the database's last success across a restart: a first run failing for one key is degraded, not failing", async () => {
    const dbPath = tempPath();
    expect((await runCli(["sync"], env(dbPath))).code).toBe(0);
    const db = openTestDb(dbPath);
    const storedSuccess = scalar(
      db,
      "SELECT MAX(finished_at) FROM sync_runs WHERE status = 'succeeded'",
    ) as string;
    db.close();
    const keys = [...sim.current.keys, "pos_live_revoked_key_000000"].join(",");
    const daemon = await startDaemon(
      ["--schedule", "0 0 1 1 *"],
      env(dbPath, { POS_API_KEYS: keys }),
    );
    try {
      await until(() => logEvents(daemon.output()).some((e) => e.msg === "run finished"));
      const health = await fetch(`${daemon.url}/healthz`);
      expect(health.status).toBe(200);
      const body = (await health.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        status: "degraded",
        lastSuccessAt: storedSuccess,
        lastRun: { status: "partial" },
      });
      expect(body.reason).toMatch(/^the last run was partial: the API rejected the API key key#/);
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
  });

  it("stops on SIGTERM mid-run within seconds, exit 0, the database intact and the next run completing", async () => {
    const simulator = await startSimulator({
      seed: 13,
      locations: 1,
      days: 20,
      today: simulatorToday(),
      ordersPerDay: [220, 320],
    });
    try {
      simulator.faults.set({ latencyMs: 40 });
      const dbPath = tempPath();
      const environment = simulatorEnv(simulator, dbPath);
      const daemon = await startDaemon(["--schedule", "0 0 1 1 *"], environment);
      await until(() => simulator.stats.snapshot().byOperation.listOrders >= 10);
      const signalled = Date.now();
      daemon.child.kill("SIGTERM");
      const exit = await daemon.exited;
      expect(exit.code).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(5_000);
      expect(logEvents(exit.stdout).map((e) => e.msg)).toContain("daemon stopped");

      const db = openTestDb(dbPath);
      expect(scalar(db, "PRAGMA integrity_check")).toBe("ok");
      expect(rows(db, "SELECT status FROM sync_runs")).toEqual([{ status: "interrupted" }]);
      expect(scalar(db, "SELECT COUNT(*) FROM writer_lease")).toBe(0);
      expect(
        scalar(db, "SELECT COUNT(*) FROM sync_windows WHERE status = 'complete'"),
      ).toBeLessThan(40);
      db.close();

      simulator.faults.set({ latencyMs: 0 });
      const next = await runCli(["sync"], environment);
      expect(next.code, next.stderr).toBe(0);
      const after = openTestDb(dbPath);
      const { dataset } = simulator;
      expect(
        await compareWithDataset(after, dataset, { since: dataset.firstDay, until: dataset.today }),
      ).toEqual([]);
      after.close();
    } finally {
      await simulator.close();
    }
  });
});
