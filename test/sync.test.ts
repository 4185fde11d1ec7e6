/** The sync engine over real HTTP against the simulator, into real SQLite files. */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { addDays, eachDay, toEpochDay } from "../src/clock/days.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { databaseError } from "../src/db/sqlite/errors.js";
import { runVerify } from "../src/proof/verify.js";
import { startSimulator } from "../src/simulator/server.js";
import { exitCodeFor } from "../src/sync/run-result.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { captureLogs } from "./helpers/logs.js";
import { SMALL_DATASET, TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { simulatorConfig, syncOnce } from "./helpers/sync.js";
import { until } from "./helpers/wait.js";

const tempPath = useTempDir();
const sim = useSimulator();
const history = { since: addDays(TEST_TODAY, -(SMALL_DATASET.days - 1)), until: TEST_TODAY };

function windowStatuses(db: ReturnType<typeof openTestDb>, stream: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows(
    db,
    "SELECT status, COUNT(*) AS n FROM sync_windows WHERE stream = ? GROUP BY status",
    stream,
  )) {
    counts[row.status] = row.n;
  }
  return counts;
}

describe("a first run", () => {
  it("backfills every location from the API's earliest report to today, equal to the ground truth", async () => {
    const db = openTestDb(tempPath());
    const { result } = await syncOnce(sim.current, db);
    expect(result.status).toBe("succeeded");
    expect(await compareWithDataset(db, sim.current.dataset, history)).toEqual([]);
    // The start was found from the API: the day the earliest report's session began.
    const earliestReport = [
      ...sim.current.dataset.allReports(sim.current.dataset.locations[0]!),
    ][0]!;
    const start = earliestReport.startedAt.slice(0, 10);
    expect(start).toBe(history.since);
    expect(scalar(db, "SELECT MIN(day) FROM sync_windows WHERE stream = 'orders'")).toBe(start);
    // Every day complete; today is open (read completely, but not over), for each location.
    expect(windowStatuses(db, "orders")).toEqual({
      complete: 2 * (eachDay(start, TEST_TODAY).length - 1),
      open: 2,
    });
    const [run] = rows(db, "SELECT * FROM sync_runs");
    expect(run).toMatchObject({
      status: "succeeded",
      trigger: "cli",
      requests: result.requests,
      error: null,
    });
    const stats = JSON.parse(run.stats);
    expect(stats.locations).toHaveLength(2);
    expect(stats.locations[0].streams.orders.inserted).toBeGreaterThan(100);
    db.close();
  });

  it("keeps two locations apart", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db);
    for (const location of sim.current.dataset.locations) {
      const stored = scalar(
        db,
        "SELECT COUNT(*) FROM orders WHERE location_id = ?",
        location.location.id,
      );
      const expected = [...sim.current.dataset.allOrders(location)].filter(
        (o) => o.createdAt.slice(0, 10) >= history.since,
      ).length;
      expect(stored).toBe(expected);
      const foreign = scalar(
        db,
        "SELECT COUNT(*) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.location_id = ? AND i.location_id <> ?",
        location.location.id,
        location.location.id,
      );
      expect(foreign).toBe(0);
    }
    db.close();
  });

  it("reads exactly the days of --since/--until", async () => {
    const db = openTestDb(tempPath());
    const day = addDays(TEST_TODAY, -5);
    await syncOnce(sim.current, db, { range: { since: day, until: day } });
    expect(
      rows(db, "SELECT DISTINCT day FROM sync_windows WHERE stream IN ('orders', 'reports')"),
    ).toEqual([{ day }]);
    expect(rows(db, "SELECT DISTINCT business_date FROM orders")).toEqual([{ business_date: day }]);
    db.close();
  });

  it("still backfills the whole history after a first run over a few days only", async () => {
    const db = openTestDb(tempPath());
    const yesterday = addDays(TEST_TODAY, -1);
    await syncOnce(sim.current, db, { range: { since: yesterday, until: yesterday } });
    await syncOnce(sim.current, db);
    expect(scalar(db, "SELECT MIN(day) FROM sync_windows WHERE stream = 'orders'")).toBe(
      history.since,
    );
    expect(await compareWithDataset(db, sim.current.dataset, history)).toEqual([]);
    db.close();
  });

  it("syncs only the streams asked for, and the locations every table joins on", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db, { streams: ["catalog"] });
    expect(scalar(db, "SELECT COUNT(*) FROM products")).toBeGreaterThan(0);
    expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBe(0);
    expect(scalar(db, "SELECT COUNT(*) FROM reports")).toBe(0);
    const names = sim.current.dataset.locations.map((l) => l.location.name).sort();
    expect(rows(db, "SELECT name FROM locations ORDER BY name").map((r) => r.name)).toEqual(names);
    db.close();
  });

  it("reads a location already stored only when the location stream is asked for", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db, {
      streams: ["orders"],
      range: { since: TEST_TODAY, until: TEST_TODAY },
    });
    expect(scalar(db, "SELECT COUNT(*) FROM locations")).toBe(2);
    // The database guide's joins on locations work after an orders-only first run.
    expect(
      scalar(db, "SELECT COUNT(*) FROM orders o JOIN locations l ON l.id = o.location_id"),
    ).toBe(scalar(db, "SELECT COUNT(*) FROM orders"));
    db.sqlite.prepare("UPDATE locations SET name = 'renamed here'").run();
    await syncOnce(sim.current, db, {
      streams: ["orders"],
      range: { since: TEST_TODAY, until: TEST_TODAY },
    });
    expect(scalar(db, "SELECT COUNT(*) FROM locations WHERE name = 'renamed here'")).toBe(2);
    db.close();
  });
});

describe("incremental runs", () => {
  it("read only the lookback windows when nothing changed, and rewrite nothing", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db);
    const before = rows(db, "SELECT id, synced_at FROM orders ORDER BY id");
    sim.current.stats.reset();
    const { result } = await syncOnce(sim.current, db);
    const requests = sim.current.stats.snapshot().byOperation;
    // Per location: the three lookback days before today, and today.
    expect(requests.listOrders).toBe(2 * 4);
    expect(requests.listReports).toBe(2 * 4);
    expect(requests.getLocation).toBe(2);
    expect(requests.listProducts + requests.listTaxes).toBe(4);
    expect(result.stats.totals("orders")).toMatchObject({ inserted: 0, updated: 0 });
    expect(result.stats.totals("reports")).toMatchObject({ inserted: 0, updated: 0 });
    expect(rows(db, "SELECT id, synced_at FROM orders ORDER BY id")).toEqual(before);
    db.close();
  });

  it("pick up late updates inside the lookback", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db);
    const updates = sim.current.dataset.applyLateUpdates(8, 3);
    const { result } = await syncOnce(sim.current, db);
    expect(result.stats.totals("orders").updated).toBe(new Set(updates.map((u) => u.orderId)).size);
    expect(await compareWithDataset(db, sim.current.dataset, history)).toEqual([]);
    db.close();
  });

  it("pick up new days, and the rest of the day that was still open", async () => {
    const simulator = await startSimulator({ ...SMALL_DATASET, seed: 77 });
    try {
      const db = openTestDb(tempPath());
      await syncOnce(simulator, db);
      const openDay = simulator.dataset.today;
      const before = scalar(
        db,
        "SELECT COUNT(*) FROM orders WHERE business_date = ?",
        openDay,
      ) as number;
      simulator.dataset.advanceDay();
      const { result } = await syncOnce(simulator, db);
      expect(result.status).toBe("succeeded");
      const newToday = simulator.dataset.today;
      expect(
        scalar(db, "SELECT COUNT(*) FROM orders WHERE business_date = ?", newToday),
      ).toBeGreaterThan(0);
      expect(
        scalar(db, "SELECT COUNT(*) FROM orders WHERE business_date = ?", openDay),
      ).toBeGreaterThan(before);
      const since = addDays(TEST_TODAY, -(SMALL_DATASET.days - 1));
      expect(await compareWithDataset(db, simulator.dataset, { since, until: newToday })).toEqual(
        [],
      );
      expect(scalar(db, "SELECT COUNT(*) FROM v_report_reconciliation WHERE status <> 'ok'")).toBe(
        0,
      );
      db.close();
    } finally {
      await simulator.close();
    }
  });
});

describe("moving and broken data", () => {
  it("stores every order that arrives while today is paged through", async () => {
    const simulator = await startSimulator({
      ...SMALL_DATASET,
      seed: 78,
      locations: 1,
      ordersPerDay: [500, 600],
    });
    try {
      const db = openTestDb(tempPath());
      simulator.faults.set({ descending: true, liveOrdersPerRequest: 4, liveOrdersLimit: 12 });
      const { result, logs } = await syncOnce(simulator, db, {
        range: { since: TEST_TODAY, until: TEST_TODAY },
      });
      expect(result.status).toBe("succeeded");
      expect(logs.text()).toContain("reading the window again");
      const today = simulator.dataset.ordersCreatedOn(
        simulator.dataset.locations[0]!,
        toEpochDay(TEST_TODAY),
      );
      expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBe(today.length);
      expect(
        await compareWithDataset(db, simulator.dataset, { since: TEST_TODAY, until: TEST_TODAY }),
      ).toEqual([]);
      db.close();
    } finally {
      await simulator.close();
    }
  });

  it("leaves a window whose count never settles incomplete, and the next run completes it", async () => {
    const simulator = await startSimulator({
      ...SMALL_DATASET,
      seed: 79,
      locations: 1,
      ordersPerDay: [500, 600],
    });
    try {
      const db = openTestDb(tempPath());
      simulator.faults.set({ descending: true, liveOrdersPerRequest: 3 });
      const first = await syncOnce(simulator, db, {
        range: { since: TEST_TODAY, until: TEST_TODAY },
      });
      expect(first.result.status).toBe("partial");
      expect(
        rows(db, "SELECT status, last_error FROM sync_windows WHERE stream = 'orders'"),
      ).toEqual([
        { status: "incomplete", last_error: "the API's count changed while the window was read" },
      ]);
      simulator.faults.set({ liveOrdersPerRequest: 0 });
      const second = await syncOnce(simulator, db, {
        range: { since: TEST_TODAY, until: TEST_TODAY },
      });
      expect(second.result.status).toBe("succeeded");
      expect(
        await compareWithDataset(db, simulator.dataset, { since: TEST_TODAY, until: TEST_TODAY }),
      ).toEqual([]);
      db.close();
    } finally {
      await simulator.close();
    }
  });

  it("keeps malformed records in rejected_records, stores the rest, and counts the windows complete", async () => {
    const db = openTestDb(tempPath());
    sim.current.faults.set({ malformedRate: 0.03 });
    try {
      const { result } = await syncOnce(sim.current, db);
      expect(result.status).toBe("succeeded");
      expect(result.stats.totals("orders").rejected).toBeGreaterThan(0);
      const isMalformed = (id: string) => sim.current.faults.isMalformed(id);
      expect(
        await compareWithDataset(db, sim.current.dataset, { ...history, isMalformed }),
      ).toEqual([]);
      const malformedOrders = sim.current.dataset.locations
        .flatMap((l) => [...sim.current.dataset.allOrders(l)])
        .filter((o) => o.createdAt.slice(0, 10) >= history.since && isMalformed(o.id));
      expect(scalar(db, "SELECT COUNT(*) FROM rejected_records WHERE stream = 'orders'")).toBe(
        malformedOrders.length,
      );
    } finally {
      sim.current.faults.reset();
      db.close();
    }
  });
});

describe("failures", () => {
  it("ends a location with a rejected key, naming it by fingerprint, and carries on with the others", async () => {
    const db = openTestDb(tempPath());
    const key = "pos_live_not_a_real_key_123456";
    const config = simulatorConfig(sim.current);
    const { result, logs } = await syncOnce(sim.current, db, {
      configOverrides: { locations: [{ apiKey: key }, ...config.locations.slice(1)] },
    });
    expect(result.status).toBe("partial");
    expect(result.stats.keyRejected).toBe(true);
    const rejected = result.stats.locations.find((l) => l.keyRejected);
    expect(rejected?.error).toMatch(
      /^the API rejected the API key key#[0-9a-f]{8} \(401 on GET \/v1\/locations\/own\?devices=true\)/,
    );
    expect(scalar(db, "SELECT COUNT(DISTINCT location_id) FROM orders")).toBe(1);
    expect(logs.text()).not.toContain(key);
    expect(JSON.stringify(rows(db, "SELECT * FROM sync_runs"))).not.toContain(key);
    db.close();
  });

  it("marks windows failed when the API keeps failing, and a later run fills them", async () => {
    const db = openTestDb(tempPath());
    const day = addDays(TEST_TODAY, -4);
    // More 503s than the retries of both day windows can absorb.
    sim.current.faults.inject(
      ...Array.from({ length: 40 }, () => ({
        kind: "status" as const,
        status: 503,
        operation: "listOrders" as const,
      })),
    );
    const first = await syncOnce(sim.current, db, { range: { since: day, until: day } });
    sim.current.faults.reset();
    expect(first.result.status).toBe("partial");
    expect(first.result.stats.totals("orders").windows.failed).toBe(2);
    expect(rows(db, "SELECT DISTINCT status FROM sync_windows WHERE stream = 'orders'")).toEqual([
      { status: "failed" },
    ]);
    const second = await syncOnce(sim.current, db, { range: { since: day, until: day } });
    expect(second.result.status).toBe("succeeded");
    expect(rows(db, "SELECT status, attempts FROM sync_windows WHERE stream = 'orders'")).toEqual([
      { status: "complete", attempts: 2 },
      { status: "complete", attempts: 2 },
    ]);
    db.close();
  });
});

describe("the end of a run", () => {
  it("fails the run when its last writes cannot be committed, however well it went", async () => {
    const db = openTestDb(tempPath());
    // Its writes commit in groups: those in hand commit with the run's end, here on a full disk.
    class DiskFullAtTheEnd extends SqliteDestination {
      override async finishRun(): Promise<void> {
        const full = new Database.SqliteError("database or disk is full", "SQLITE_FULL");
        throw databaseError(full, this.where, "write to the database");
      }
    }
    const day = addDays(TEST_TODAY, -4);
    const { result, logs } = await syncOnce(sim.current, db, {
      range: { since: day, until: day },
      destination: new DiskFullAtTheEnd(db),
    });
    expect(result.stats.totals("orders").windows.complete).toBe(2);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(
      /^cannot write to the database .+: the disk is full \(SQLITE_FULL\)$/,
    );
    expect(exitCodeFor(result)).toBe(1);
    expect(logs.text()).toContain("could not record the end of the run");
    db.close();
  });
});

describe("windows in progress", () => {
  it("are the requests in flight and four more, however many pages wait to be written", async () => {
    const db = openTestDb(tempPath());
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let waiting = 0;
    // A window with a page to write waits for that write before it lets another window start.
    class HeldPages extends SqliteDestination {
      override async writePage(...args: Parameters<SqliteDestination["writePage"]>) {
        waiting++;
        await held;
        return super.writePage(...args);
      }
    }
    const run = syncOnce(sim.current, db, {
      range: history,
      destination: new HeldPages(db),
      configOverrides: { concurrency: 2 },
    });
    await until(() => waiting === 2 + 4, "six pages waiting to be written");
    // No seventh window starts while they wait: the run asks for nothing more.
    const served = sim.current.stats.snapshot().total;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(waiting).toBe(2 + 4);
    expect(sim.current.stats.snapshot().total).toBe(served);
    release();
    const { result } = await run;
    expect(result.status).toBe("succeeded");
    expect(await compareWithDataset(db, sim.current.dataset, history)).toEqual([]);
    db.close();
  });
});

describe("verify", () => {
  it("passes after a sync and catches rows deleted behind its back", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db);
    const options = {
      config: simulatorConfig(sim.current),
      destination: new SqliteDestination(db).reads,
      logger: captureLogs().logger,
      now: () => new Date(`${TEST_TODAY}T12:00:00Z`),
    };
    const clean = await runVerify(options);
    expect(clean.ok).toBe(true);
    expect(
      clean.locations.every((l) => l.checks === 2 * eachDay(l.since ?? "", l.until ?? "").length),
    ).toBe(true);
    const [victim] = rows(
      db,
      "SELECT id, business_date, location_id FROM orders WHERE business_date = ? LIMIT 1",
      addDays(TEST_TODAY, -6),
    );
    db.sqlite.prepare("DELETE FROM order_rows WHERE id = ?").run(victim.id);
    const dirty = await runVerify(options);
    expect(dirty.ok).toBe(false);
    const location = dirty.locations.find((l) => l.locationId === victim.location_id);
    expect(location?.mismatches).toEqual([
      expect.objectContaining({ stream: "orders", day: victim.business_date, matches: false }),
    ]);
    expect(location?.reconciliation.some((r) => r.ordersMissing === 1)).toBe(true);
    db.close();
  });
});
