/**
 * The sync's destination across a message port, as a sync in a worker thread uses it: it stores
 * what the destination in the sync's own thread stores (records, hours on each location's clock,
 * summaries, checkpoints), its failures reach the sync as they would there, and it hands the
 * writing side only a few pages at a time.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import type { LocationConfig } from "../src/config/config.js";
import { DatabaseError } from "../src/db/errors.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { isCrossingPage, packPage, unpackPage } from "../src/runner/page-crossing.js";
import {
  connectDestination,
  fromCrossing,
  methodsOf,
  serveDestination,
  toCrossing,
} from "../src/runner/remote-destination.js";
import { fixedOffsetZone } from "../src/simulator/clock.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { ORDERS } from "../src/streams/index.js";
import { PageNormalizer } from "../src/sync/normalize-page.js";
import { runSync } from "../src/sync/run.js";
import { FAST_RETRY } from "./helpers/client.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { captureLogs } from "./helpers/logs.js";
import { acrossPort } from "./helpers/port.js";
import { TEST_TODAY } from "./helpers/simulator.js";
import { simulatorConfig, simulatorNow, syncOnce } from "./helpers/sync.js";
import { until } from "./helpers/wait.js";

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

/** A destination served across a message port (both ends in this thread: the messages are
 * structured copies all the same). */
function connect(dbPath: string) {
  const db = openTestDb(dbPath);
  const served = acrossPort(new SqliteDestination(db, { keepRaw: true, compressAhead: true }));
  return {
    destination: served.destination,
    async close() {
      await served.close();
      db.close();
    },
  };
}

/** A request as the sync's side sends it. */
interface DestinationRequest {
  id: number;
  method: string;
  args: unknown[];
}

/** The sync's side of a SQLite destination, with no destination behind it. */
function unserved(port: MessagePort, where: string) {
  return connectDestination(port, {
    where,
    methods: methodsOf(Object.create(SqliteDestination.prototype)),
  });
}

async function syncAcrossPort(dbPath: string) {
  const { destination, close } = connect(dbPath);
  const logs = captureLogs("debug");
  try {
    const result = await runSync({
      scope: {
        config: simulatorConfig(api, { locations: zonedLocations(api) }),
        trigger: "cli",
        range: RANGE,
      },
      destination,
      logger: logs.logger,
      now: simulatorNow(api),
      transport: { retry: FAST_RETRY },
    });
    expect(result.status, logs.text()).toBe("succeeded");
    await destination.close();
    return result;
  } finally {
    await close();
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

describe("a sync whose writes cross to another thread", () => {
  it("stores what the API serves, on each location's clock, as the sync's own thread does", async () => {
    const threadedPath = tempPath();
    const first = await syncAcrossPort(threadedPath);
    const inProcess = openTestDb(tempPath());
    const { result } = await syncOnce(api, inProcess, {
      range: RANGE,
      configOverrides: { locations: zonedLocations(api) },
    });
    expect(result.status).toBe("succeeded");

    const threaded = openTestDb(threadedPath, { readonly: true });
    expect(await compareWithDataset(threaded, api.dataset, RANGE)).toEqual([]);
    expect(rows(threaded, HOURS)).toEqual(rows(inProcess, HOURS));
    expect(rows(threaded, SUMMARIES)).toEqual(rows(inProcess, SUMMARIES));
    expect(scalar(threaded, "SELECT COUNT(*) FROM sync_windows WHERE status = 'complete'")).toBe(
      scalar(inProcess, "SELECT COUNT(*) FROM sync_windows WHERE status = 'complete'"),
    );
    expect(first.stats.totals("orders").inserted).toBeGreaterThan(200);
    threaded.close();
    inProcess.close();

    const again = await syncAcrossPort(threadedPath);
    for (const stream of ["orders", "reports"] as const) {
      expect(again.stats.totals(stream)).toMatchObject({ inserted: 0, updated: 0 });
    }
  });

  it("fails every call with a DatabaseError naming the file once the other side is gone", async () => {
    const dbPath = tempPath();
    const { port1, port2 } = new MessageChannel();
    const destination = unserved(port2, dbPath);
    const unanswered = destination.countStored(ORDERS, ["a"]);
    // The writing side ends as it would of a fatal error: the sync must stop, not wait.
    port1.close();
    await expect(unanswered).rejects.toBeInstanceOf(DatabaseError);
    await expect(destination.startDate("location")).rejects.toThrow(
      `cannot write to the database ${dbPath}: the thread writing it stopped`,
    );
  });

  it("hands the writing side at most four pages at once", async () => {
    const { port1, port2 } = new MessageChannel();
    const destination = unserved(port2, "unused.sqlite");
    const received: DestinationRequest[] = [];
    port1.on("message", (request: DestinationRequest) => {
      received.push(request);
      // The location's clock and the archive's terms are asked once; the pages are left
      // unanswered.
      if (request.method === "timeZoneOf")
        port1.postMessage({ type: "answer", id: request.id, value: null });
      if (request.method === "archiveTerms")
        port1.postMessage({ type: "answer", id: request.id, value: { keep: false } });
    });
    // As the sync hands pages over.
    const normalizer = new PageNormalizer(destination);
    const pages = Array.from({ length: 10 }, (_, i) =>
      normalizer.store(ORDERS, {
        locationId: "location",
        day: `2026-01-${String(i + 1).padStart(2, "0")}`,
        records: [],
        rejects: [],
        runId: null,
        syncedAt: "2026-01-11T00:00:00.000Z",
      }),
    );
    await until(
      () => received.filter((r) => r.method === "writePage").length === 4,
      "four pages sent",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const written = () => received.filter((r) => r.method === "writePage");
    expect(written()).toHaveLength(4);
    const first = written()[0] as DestinationRequest;
    port1.postMessage({ type: "answer", id: first.id, value: { inserted: 0 } });
    await pages[0];
    await until(() => written().length === 5, "a fifth page sent");
    port1.close();
    await Promise.allSettled(pages);
  });

  it("answers a call it cannot make with a failure rather than failing its thread", async () => {
    const db = openTestDb(tempPath());
    const { port1, port2 } = new MessageChannel();
    const local = new SqliteDestination(db);
    const service = serveDestination(port1, local, () => local.commit());
    const reply = new Promise((resolve) => port2.once("message", resolve));
    port2.postMessage({
      id: 1,
      method: "countStored",
      args: [{ described: "no-such-stream" }, ["a"]],
    });
    expect(await reply).toMatchObject({
      type: "failure",
      id: 1,
      error: { database: false, message: "no stream or list is named no-such-stream" },
    });
    port2.close();
    await service.close();
    db.close();
  });

  it("hands a page's child rows over packed, every value as it was", () => {
    const parent = { id: "o-1", location_id: "l-1" };
    const children = [
      ["a", 1.25, null, undefined, true, false, -0, Number.NaN, 2 ** 53 + 2, "a", ""],
      [],
      ["\u00e9t\u00e9 \ud83c\udf1e", 0, "b"],
    ];
    const records = [
      { rows: { parent, children }, raw: '{"id":"o-1"}' },
      { rows: { parent: { ...parent, id: "o-2" }, children: [["b", 7], [], []] } },
    ];
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(packPage(records));
    const crossed = receiveMessageOnPort(port2)?.message;
    port1.close();
    expect(isCrossingPage(crossed)).toBe(true);
    expect(unpackPage(crossed as Parameters<typeof unpackPage>[0])).toEqual(records);
    // A value of no kind the packing knows: the page crosses as it is.
    const odd = [{ rows: { parent, children: [[{ nested: 1 }]] } }];
    expect(packPage(odd)).toBe(odd);
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
