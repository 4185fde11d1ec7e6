/**
 * The hour an order was closed and the views' wall clocks, on the location's clock, when the API
 * writes UTC: with a time zone setting per location, the hours, the hourly summaries and the wall
 * clocks are the ones an API writing local offsets gives; without one they are UTC's; changing the setting recomputes what is
 * stored; and the location's today follows its zone, summer time included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import type { LocationConfig } from "../src/config/config.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import type { Db } from "../src/db/sqlite/open.js";
import { fixedOffsetZone } from "../src/simulator/clock.js";
import { type Simulator, type SimulatorOptions, startSimulator } from "../src/simulator/server.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { TEST_TODAY } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

/** Five locations: offsets +01:00, +01:00, -05:00, +00:00 and +05:30. */
const DATASET: SimulatorOptions = {
  seed: 31,
  locations: 5,
  days: 3,
  today: TEST_TODAY,
  ordersPerDay: [15, 30],
};
const RANGE = { since: addDays(TEST_TODAY, -2), until: TEST_TODAY };

const tempPath = useTempDir();
let utcApi: Simulator;
let localApi: Simulator;
let hoursFromLocalApi: unknown[];
let hourlySalesFromLocalApi: unknown[];
let wallClocksFromLocalApi: unknown[];

const HOURS = "SELECT id, business_date, closed_hour FROM orders ORDER BY id";
const HOURLY_SALES = "SELECT * FROM v_hourly_sales ORDER BY location_id, business_date, hour";
/** What the views show of orders' and reports' date-times on the location's wall clock. */
const WALL_CLOCKS = `SELECT order_id AS id, created_at, closed_at FROM v_orders
  UNION ALL SELECT id, finalized_at_typed, NULL FROM report_rows ORDER BY id`;

/** Each location of a simulator with the time zone that keeps its offset all year. */
function zonedLocations(simulator: Simulator): LocationConfig[] {
  return simulator.dataset.locations.map((location) => ({
    apiKey: location.apiKey,
    timeZone: fixedOffsetZone(location.offsetMinutes) as string,
  }));
}

async function syncUtcApi(db: Db, locations?: LocationConfig[]) {
  const { result, logs } = await syncOnce(utcApi, db, {
    range: RANGE,
    ...(locations ? { configOverrides: { locations } } : {}),
  });
  expect(result.status, logs.text()).toBe("succeeded");
  return logs;
}

beforeAll(async () => {
  utcApi = await startSimulator({ ...DATASET, utcTimestamps: true });
  localApi = await startSimulator(DATASET);
  const db = openTestDb(tempPath());
  const { result } = await syncOnce(localApi, db, { range: RANGE });
  expect(result.status).toBe("succeeded");
  hoursFromLocalApi = rows(db, HOURS);
  hourlySalesFromLocalApi = rows(db, HOURLY_SALES);
  wallClocksFromLocalApi = rows(db, WALL_CLOCKS);
  db.close();
});
afterAll(async () => {
  await utcApi?.close();
  await localApi?.close();
});

describe("an API that writes UTC", () => {
  it("with each location's time zone, gives the hours an API writing local offsets gives", async () => {
    const db = openTestDb(tempPath());
    await syncUtcApi(db, zonedLocations(utcApi));
    expect(scalar(db, "SELECT COUNT(*) FROM orders WHERE closed_at NOT LIKE '%Z'")).toBe(0);
    expect(hoursFromLocalApi.length).toBeGreaterThan(100);
    expect(rows(db, HOURS)).toEqual(hoursFromLocalApi);
    expect(rows(db, HOURLY_SALES)).toEqual(hourlySalesFromLocalApi);
    expect(rows(db, WALL_CLOCKS)).toEqual(wallClocksFromLocalApi);
    expect(
      scalar(
        db,
        "SELECT COUNT(*) FROM v_orders WHERE closed_hour IS NOT CAST(substr(closed_at, 12, 2) AS INTEGER)",
      ),
    ).toBe(0);
    expect(
      rows(db, "SELECT time_zone FROM locations ORDER BY time_zone").map((r) => r.time_zone),
    ).toEqual(["Asia/Kolkata", "Etc/GMT+5", "Etc/GMT-1", "Etc/GMT-1", "UTC"]);
    expect(await compareWithDataset(db, utcApi.dataset, RANGE)).toEqual([]);
    db.close();
  });

  it("without a time zone, gives UTC's hours", async () => {
    const db = openTestDb(tempPath());
    await syncUtcApi(db);
    expect(
      scalar(
        db,
        "SELECT COUNT(*) FROM orders WHERE closed_hour IS NOT CAST(substr(closed_at, 12, 2) AS INTEGER)",
      ),
    ).toBe(0);
    expect(rows(db, HOURS)).not.toEqual(hoursFromLocalApi);
    expect(scalar(db, "SELECT COUNT(*) FROM v_orders WHERE closed_at IS NOT closed_at_utc")).toBe(
      0,
    );
    expect(scalar(db, "SELECT COUNT(*) FROM locations WHERE time_zone IS NOT NULL")).toBe(0);
    db.close();
  });

  it("recomputes the stored hours and hourly sales when the setting changes, and back", async () => {
    const db = openTestDb(tempPath());
    await syncUtcApi(db);
    const utcHours = rows(db, HOURS);
    const utcHourlySales = rows(db, HOURLY_SALES);
    const utcWallClocks = rows(db, WALL_CLOCKS);

    const zoned = await syncUtcApi(db, zonedLocations(utcApi));
    // Nothing changed upstream: no order was rewritten, yet every hour is on the local clock.
    expect(zoned.text()).toContain(
      "hours and wall clocks of stored orders and reports recomputed on the clock of Etc/GMT-1",
    );
    expect(rows(db, HOURS)).toEqual(hoursFromLocalApi);
    expect(rows(db, HOURLY_SALES)).toEqual(hourlySalesFromLocalApi);
    expect(rows(db, WALL_CLOCKS)).toEqual(wallClocksFromLocalApi);

    const same = await syncUtcApi(db, zonedLocations(utcApi));
    expect(same.text()).not.toContain("hours and wall clocks");

    const back = await syncUtcApi(db);
    expect(back.text()).toContain(
      "hours and wall clocks of stored orders and reports put back on the clock the API writes",
    );
    expect(rows(db, HOURS)).toEqual(utcHours);
    expect(rows(db, HOURLY_SALES)).toEqual(utcHourlySales);
    expect(rows(db, WALL_CLOCKS)).toEqual(utcWallClocks);
    db.close();
  });
});

describe("a location's today", () => {
  it("follows its time zone once applied, summer time included", async () => {
    const db = openTestDb(tempPath());
    const location = utcApi.dataset.locations[0]!;
    await syncUtcApi(db, [{ apiKey: location.apiKey, timeZone: "Europe/Paris" }]);
    const destination = new SqliteDestination(db);
    const id = location.location.id;
    expect(await destination.utcOffsetMinutes(id, new Date("2026-01-15T12:00:00Z"))).toBe(60);
    expect(await destination.utcOffsetMinutes(id, new Date("2026-07-01T12:00:00Z"))).toBe(120);
    await destination.useTimeZone(id, "Pacific/Kiritimati");
    expect(await destination.utcOffsetMinutes(id, new Date("2026-07-01T12:00:00Z"))).toBe(840);
    await destination.useTimeZone(id, null);
    // Back to what the stored orders say: their timestamps are UTC.
    expect(await destination.utcOffsetMinutes(id, new Date("2026-07-01T12:00:00Z"))).toBe(0);
    await destination.close();
  });
});
