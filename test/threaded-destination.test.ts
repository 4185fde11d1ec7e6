/**
 * The sync's destination with its database work on a thread of its own: it stores what the
 * destination in the sync's own thread stores (records, hours on each location's clock,
 * summaries, checkpoints), and its failures reach the sync as they would there.
 */
import { mkdirSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocationConfig } from "../src/config.js";
import { addDays } from "../src/dates.js";
import { DatabaseError } from "../src/db/errors.js";
import { ThreadedDestination } from "../src/runner/threaded-destination.js";
import { fromCrossing, toCrossing } from "../src/runner/writer-protocol.js";
import { fixedOffsetZone } from "../src/simulator/clock.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { ORDERS } from "../src/streams/index.js";
import { runSync } from "../src/sync/run.js";
import { FAST_RETRY } from "./helpers/client.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { captureLogs } from "./helpers/logs.js";
import { TEST_TODAY } from "./helpers/simulator.js";
import { simulatorConfig, simulatorNow, syncOnce } from "./helpers/sync.js";

const RANGE = { since: addDays(TEST_TODAY, -3), until: TEST_TODAY };
const HOURS = "SELECT id, business_date, closed_hour FROM orders ORDER BY id";
const SUMMARIES = "SELECT * FROM v_hourly_sales ORDER BY location_id, business_date, hour";

const tempPath = useTempDir();
let api: Simulator;

/** Each location with the time zone that keeps its offset all year: the API writes UTC. */
function zonedLocations(simulator: Simulator): LocationConfig[] {
  return simulator.dataset.locations.map((location) => ({
    apiKey: location.apiKey,
    timeZone: fixedOffsetZone(location.offsetMinutes) as string,
  }));
}

function start(dbPath: string): Promise<ThreadedDestination> {
  return ThreadedDestination.start({ dbPath, keepRaw: true, heapMb: 192 });
}

async function syncThroughThread(dbPath: string) {
  const destination = await start(dbPath);
  const logs = captureLogs("debug");
  try {
    const result = await runSync({
      config: simulatorConfig(api, { locations: zonedLocations(api) }),
      destination,
      logger: logs.logger,
      trigger: "cli",
      now: simulatorNow(api),
      range: RANGE,
      transport: { retry: FAST_RETRY },
    });
    expect(result.status, logs.text()).toBe("succeeded");
    return result;
  } finally {
    await destination.close();
  }
}

beforeAll(async () => {
  api = await startSimulator({
    seed: 47,
    locations: 3,
    days: 5,
    today: TEST_TODAY,
    ordersPerDay: [20, 40],
    utcTimestamps: true,
  });
});
afterAll(() => api?.close());

describe("a sync whose writes run on their own thread", () => {
  it("stores what the API serves, on each location's clock, as the sync's own thread does", async () => {
    const threadedPath = tempPath();
    const first = await syncThroughThread(threadedPath);
    const inProcess = openTestDb(tempPath());
    const { result } = await syncOnce(api, inProcess, {
      range: RANGE,
      configOverrides: { locations: zonedLocations(api) },
    });
    expect(result.status).toBe("succeeded");

    const threaded = openTestDb(threadedPath, { readonly: true });
    expect(compareWithDataset(threaded, api.dataset, RANGE)).toEqual([]);
    expect(rows(threaded, HOURS)).toEqual(rows(inProcess, HOURS));
    expect(rows(threaded, SUMMARIES)).toEqual(rows(inProcess, SUMMARIES));
    expect(scalar(threaded, "SELECT COUNT(*) FROM sync_windows WHERE status = 'complete'")).toBe(
      scalar(inProcess, "SELECT COUNT(*) FROM sync_windows WHERE status = 'complete'"),
    );
    expect(first.stats.totals("orders").inserted).toBeGreaterThan(200);
    threaded.close();
    inProcess.close();

    const again = await syncThroughThread(threadedPath);
    for (const stream of ["orders", "reports"] as const) {
      expect(again.stats.totals(stream)).toMatchObject({ inserted: 0, updated: 0 });
    }
  });

  it("refuses a file it cannot open with the sync's one-line error", async () => {
    // A directory where the file should be.
    const dbPath = tempPath();
    mkdirSync(dbPath);
    await expect(start(dbPath)).rejects.toThrow(
      new RegExp(`^cannot open the database ${dbPath}: `),
    );
  });

  it("fails every call with a DatabaseError naming the file once its thread is gone", async () => {
    const dbPath = tempPath();
    const destination = await start(dbPath);
    const writes = destination.countStored(ORDERS, ["a"]);
    // The thread dies as it would of a fatal error: the sync must stop, not wait.
    await (destination as unknown as { thread: Worker }).thread.terminate();
    await expect(writes).rejects.toBeInstanceOf(DatabaseError);
    const later = destination.startDate("location");
    await expect(later).rejects.toThrow(
      `cannot write to the database ${dbPath}: the thread writing it stopped`,
    );
    await destination.close();
  });

  it("keeps an error's kind, message and code across the threads", () => {
    const full = fromCrossing(
      toCrossing(
        new DatabaseError("cannot write to the database x: the disk is full", "SQLITE_FULL"),
      ),
    );
    expect(full).toBeInstanceOf(DatabaseError);
    expect(full).toMatchObject({
      message: expect.stringMatching(/disk is full/),
      code: "SQLITE_FULL",
    });
    const constraint = Object.assign(new Error("UNIQUE constraint failed"), {
      code: "SQLITE_CONSTRAINT_UNIQUE",
    });
    const crossed = fromCrossing(toCrossing(constraint));
    expect(crossed).not.toBeInstanceOf(DatabaseError);
    expect(crossed).toMatchObject({ message: constraint.message, code: constraint.code });
  });
});
