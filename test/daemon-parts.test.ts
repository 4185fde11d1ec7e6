/** The daemon's parts on their own: health rules, who may read the page, the writer lease, the
 * scheduler's overlap guard, the status page's thread, and no SQL of the daemon's own. */
import { readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { syncFailing } from "../src/alerts/alert-rules.js";
import { HealthTracker } from "../src/daemon/health.js";
import { pageClosed } from "../src/daemon/page-access.js";
import { Scheduler } from "../src/daemon/scheduler.js";
import { WriterBusyError, WriterLease } from "../src/db/sqlite/writer-lease.js";
import { isLoopbackHost } from "../src/loopback.js";
import { openTestDb, scalar, useTempDir } from "./helpers/db.js";
import { captureLogs } from "./helpers/logs.js";
import { until } from "./helpers/wait.js";

const tempPath = useTempDir();

describe("health", () => {
  const minutes = (n: number) => n * 60_000;

  it("is starting before the first run ends, ok after a success, and degraded, not failing, after one failed run however old the success", () => {
    let now = 0;
    const health = new HealthTracker(() => now);
    expect(health.answer()).toMatchObject({ httpStatus: 200, body: { status: "starting" } });
    health.runStarted();
    health.runFinished("succeeded", null);
    expect(health.answer()).toMatchObject({ httpStatus: 200, body: { status: "ok" } });
    // Five hours later, one run fails: the alert does not open, and /healthz says why all the same.
    now = minutes(300);
    health.runStarted();
    now += 30_000;
    health.runFinished("failed", "disk full");
    expect(health.answer()).toMatchObject({
      httpStatus: 200,
      body: {
        status: "degraded",
        reason: "1 run(s) in a row failed, the first at 1970-01-01 05:00 UTC: disk full",
        lastRun: { status: "failed", error: "disk full" },
      },
    });
  });

  it("answers 503 with the alert's reason once three runs in a row failed", () => {
    let now = 0;
    const health = new HealthTracker(() => now);
    health.runStarted();
    health.runFinished("succeeded", null);
    for (const at of [15, 30, 45]) {
      now = minutes(at);
      health.runStarted();
      health.runFinished("failed", "the API answered 503");
    }
    now = minutes(46);
    const report = health.answer();
    const alert = syncFailing(
      [15, 30, 45].reverse().map((at) => ({
        status: "failed",
        startedAt: new Date(minutes(at)).toISOString(),
        error: "the API answered 503",
      })),
      new Date(now),
    );
    expect(alert.on).toBe(true);
    expect(report).toMatchObject({
      httpStatus: 503,
      body: { status: "failing", reason: alert.detail },
    });
    expect(report.body.reason).toBe(
      "3 run(s) in a row failed, the first at 1970-01-01 00:15 UTC: the API answered 503",
    );
    // The next run that does not fail ends it, as it closes the alert.
    health.runStarted();
    health.runFinished("partial", "the API rejected the API key key#1a2b3c4d");
    expect(health.answer()).toMatchObject({
      httpStatus: 200,
      body: {
        status: "degraded",
        reason: "the last run was partial: the API rejected the API key key#1a2b3c4d",
      },
    });
  });

  it("turns failing by time alone when the first failed run of a streak started over an hour ago", () => {
    let now = 0;
    const health = new HealthTracker(() => now);
    health.runStarted();
    health.runFinished("failed", "the API answered 503");
    now = minutes(59);
    expect(health.answer().httpStatus).toBe(200);
    now = minutes(61);
    expect(health.answer()).toMatchObject({
      httpStatus: 503,
      body: {
        reason: "1 run(s) in a row failed, the first at 1970-01-01 00:00 UTC: the API answered 503",
      },
    });
  });

  it("never calls partial runs failing, however long since the last success", () => {
    let now = 0;
    const health = new HealthTracker(() => now);
    health.runStarted();
    health.runFinished("succeeded", null);
    for (let at = 15; at <= 600; at += 15) {
      now = minutes(at);
      health.runStarted();
      health.runFinished("partial", "GET /v1/orders/ answered 503");
    }
    expect(health.answer()).toMatchObject({ httpStatus: 200, body: { status: "degraded" } });
  });
});

describe("health after a restart", () => {
  it("starts from the runs and the success the database recorded, so that a streak goes on", () => {
    let now = Date.parse("2026-11-29T12:00:00Z");
    const health = new HealthTracker(() => now);
    const failed = (at: string) => ({ status: "failed", startedAt: at, error: "disk full" });
    health.recall(
      [
        { status: "interrupted", startedAt: "2026-11-29T11:50:00Z", error: null },
        failed("2026-11-29T11:45:00Z"),
        failed("2026-11-29T11:30:00Z"),
        { status: "succeeded", startedAt: "2026-11-29T11:15:00Z", error: null },
      ],
      "2026-11-29T11:16:00.000Z",
    );
    expect(health.answer()).toMatchObject({
      httpStatus: 200,
      body: { status: "starting", lastSuccessAt: "2026-11-29T11:16:00.000Z" },
    });
    // Its first run fails too: the third in a row, the stop between them not counted.
    health.runStarted();
    now += 60_000;
    health.runFinished("failed", "disk full");
    expect(health.answer()).toMatchObject({
      httpStatus: 503,
      body: {
        status: "failing",
        reason: "3 run(s) in a row failed, the first at 2026-11-29 11:30 UTC: disk full",
      },
    });
    // A success of this process is later than the recorded one, and wins.
    health.runFinished("succeeded", null);
    health.recall([], "2026-11-29T11:16:00.000Z");
    expect(health.answer().body).toMatchObject({
      status: "ok",
      lastSuccessAt: "2026-11-29T12:01:00.000Z",
    });
  });

  it("is failing before its first run ends when the recorded streak already is, as the alert is open", () => {
    const health = new HealthTracker(() => Date.parse("2026-11-29T12:00:00Z"));
    health.recall([{ status: "failed", startedAt: "2026-11-29T10:00:00Z", error: "503" }], null);
    expect(health.answer()).toMatchObject({
      httpStatus: 503,
      body: {
        status: "failing",
        reason: "1 run(s) in a row failed, the first at 2026-11-29 10:00 UTC: 503",
      },
    });
  });
});

describe("the status page's address", () => {
  it("counts only loopback addresses as this machine's, and closes the page elsewhere without a token", () => {
    for (const host of ["127.0.0.1", "127.0.0.53", "::1", "localhost", "::ffff:127.0.0.1"])
      expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "pos.example"])
      expect([host, isLoopbackHost(host)]).toEqual([host, false]);
    expect(pageClosed("0.0.0.0", undefined)).toBe(true);
    expect(pageClosed("0.0.0.0", "a-token-of-sixteen+")).toBe(false);
    expect(pageClosed("127.0.0.1", undefined)).toBe(false);
  });
});

describe("the daemon's modules", () => {
  it("run no SQL of their own: they read through the storage port and its queries", () => {
    const dir = join(import.meta.dirname, "../src/daemon");
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts"))) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text, file).not.toMatch(/\.prepare\(|\.exec\(|\b(SELECT|INSERT INTO|DELETE FROM)\b/);
    }
  });
});

describe("the writer lease", () => {
  it("lets one writer in and names it to the next", () => {
    const path = tempPath();
    const first = openTestDb(path);
    const second = openTestDb(path);
    const lease = WriterLease.acquire(first, { command: "daemon" });
    expect(() => WriterLease.acquire(second, { command: "sync" })).toThrow(WriterBusyError);
    expect(() => WriterLease.acquire(second, { command: "sync" })).toThrow(/\(daemon, pid \d+ on /);
    lease.release();
    WriterLease.acquire(second, { command: "sync" }).release();
    first.close();
    second.close();
  });

  it("takes over a lease whose holder stopped refreshing it", async () => {
    const db = openTestDb(tempPath());
    db.sqlite
      .prepare(
        "INSERT INTO writer_lease VALUES (1, 'gone', 999999, 'elsewhere', 'daemon', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
      )
      .run();
    const lease = WriterLease.acquire(db, { command: "sync" });
    expect(scalar(db, "SELECT command FROM writer_lease")).toBe("sync");
    lease.release();
    expect(scalar(db, "SELECT COUNT(*) FROM writer_lease")).toBe(0);
    db.close();
  });

  it("takes over at once the lease of a dead process on this host", () => {
    const db = openTestDb(tempPath());
    // A fresh heartbeat: only the holder being on this host, its lock gone, lets the lease go.
    const now = new Date().toISOString();
    db.sqlite
      .prepare("INSERT INTO writer_lease VALUES (1, 'dead', 2147483646, ?, 'daemon', ?, ?)")
      .run(hostname(), now, now);
    const started = Date.now();
    const lease = WriterLease.acquire(db, { command: "sync" });
    // At once: no waiting for the dead holder's time-to-live, nor for a busy database.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(
      db.sqlite.prepare("SELECT holder, pid, hostname, command FROM writer_lease").all(),
    ).toEqual([
      {
        holder: expect.not.stringMatching(/^dead$/),
        pid: process.pid,
        hostname: hostname(),
        command: "sync",
      },
    ]);
    lease.release();
    expect(scalar(db, "SELECT COUNT(*) FROM writer_lease")).toBe(0);
    db.close();
  });

  it("tells its holder when another process took it over", async () => {
    const db = openTestDb(tempPath());
    let lost = false;
    const lease = WriterLease.acquire(db, {
      command: "daemon",
      heartbeatMs: 20,
      onLost: () => (lost = true),
    });
    db.sqlite.prepare("UPDATE writer_lease SET holder = 'someone else'").run();
    await until(() => lost, "the holder to be told");
    lease.release();
    db.close();
  });
});

describe("the scheduler", () => {
  it("runs at start and skips ticks while a run is in progress", async () => {
    const logs = captureLogs();
    let finish: () => void = () => {};
    const reasons: string[] = [];
    const scheduler = new Scheduler(
      "0 0 1 1 *",
      (reason) => {
        reasons.push(reason);
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      logs.logger,
    );
    scheduler.start();
    scheduler.tick("schedule");
    scheduler.tick("catch-up");
    expect(reasons).toEqual(["start"]);
    expect(scheduler.skippedTicks).toBe(2);
    finish();
    await new Promise((r) => setImmediate(r));
    scheduler.tick("schedule");
    expect(reasons).toEqual(["start", "schedule"]);
    finish();
    await scheduler.stop();
    scheduler.tick("schedule");
    expect(reasons).toHaveLength(2);
    expect(logs.text()).toContain("tick skipped: a run is still in progress");
  });

  it("never overlaps an errand with a run: a tick during one runs after it, an errand during a run is skipped", async () => {
    const logs = captureLogs();
    const events: string[] = [];
    const pending: (() => void)[] = [];
    const work = (name: string) => () => {
      events.push(`${name} starts`);
      return new Promise<void>((resolve) =>
        pending.push(() => {
          events.push(`${name} ends`);
          resolve();
        }),
      );
    };
    const scheduler = new Scheduler("0 0 1 1 *", (reason) => work(reason)(), logs.logger);
    const settle = () => new Promise((r) => setImmediate(r));
    scheduler.errand(work("errand"));
    scheduler.tick("schedule");
    scheduler.errand(work("second errand"));
    await settle();
    expect(events).toEqual(["errand starts"]);
    pending.shift()?.();
    await settle();
    expect(events).toEqual(["errand starts", "errand ends", "schedule starts"]);
    scheduler.errand(work("errand during the run"));
    pending.shift()?.();
    await scheduler.stop();
    expect(events).toEqual(["errand starts", "errand ends", "schedule starts", "schedule ends"]);
    expect(scheduler.skippedTicks).toBe(0);
  });
});

describe("the status page's thread", () => {
  // The built module: its thread's entry is a .js file beside it.
  const built = () =>
    import(
      pathToFileURL(join(import.meta.dirname, "../dist/daemon/status-page-thread.js")).href
    ) as Promise<typeof import("../src/daemon/status-page-thread.js")>;

  it("answers the page, and gives up on a thread that has not answered in time", async () => {
    const { renderStatusPageInThread } = await built();
    const dbPath = tempPath();
    openTestDb(dbPath).close();
    const request = {
      database: { dbPath, postgres: undefined },
      schedule: "0 * * * *",
      now: new Date().toISOString(),
      refreshSeconds: 60,
    };
    expect(await renderStatusPageInThread(request)).toContain("<!doctype html>");
    await expect(renderStatusPageInThread(request, 1)).rejects.toThrow(
      "the status page was not read within 1 ms",
    );
  });
});
