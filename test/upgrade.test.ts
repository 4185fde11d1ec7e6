/**
 * A database made by the previous release (JSON in a `raw` column of each typed table) is
 * upgraded in place: every record keeps its rows, its JSON moves to the raw archive unchanged,
 * an interrupted upgrade carries on, and the file then syncs and verifies like a new one.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, MIGRATIONS_FOLDER } from "../src/db/sqlite/open.js";
import { readRawRecords } from "../src/db/sqlite/raw-archive.js";
import { archiveRawColumns } from "../src/db/sqlite/upgrades/archive-raw-columns.js";
import { fillClosedHours } from "../src/db/sqlite/upgrades/fill-closed-hours.js";
import { pendingUpgrades } from "../src/db/sqlite/upgrades/index.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { migrationsFrom, olderMigrationsFolder } from "./helpers/older-schema.js";
import { syncOnce } from "./helpers/sync.js";

/** How test/fixtures/previous-release.sqlite.gz was made (see test/fixtures/README.md); that
 * simulator planned no after-the-fact changes, hence changeRate 0. */
const FIXTURE_DATASET = {
  seed: 7,
  locations: 2,
  days: 3,
  today: "2026-11-20",
  ordersPerDay: [30, 60] as const,
  changeRate: 0,
};
const SINCE = "2026-11-18";
const UNTIL = "2026-11-20";

const tempPath = useTempDir();
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator(FIXTURE_DATASET);
});
afterAll(async () => {
  await sim?.close();
});

/** A copy of the previous release's database, and the JSON each of its typed rows held. */
function previousRelease(): { path: string; rawByRecord: Map<string, string> } {
  const path = tempPath();
  writeFileSync(
    path,
    gunzipSync(readFileSync(new URL("./fixtures/previous-release.sqlite.gz", import.meta.url))),
  );
  const old = new Database(path, { readonly: true });
  const rawByRecord = new Map<string, string>();
  for (const table of ["orders", "reports", "products", "categories", "modifiers", "devices"]) {
    for (const row of old.prepare(`SELECT location_id, id, raw FROM ${table}`).all() as {
      location_id: string;
      id: string;
      raw: string;
    }[])
      rawByRecord.set(`${table} ${row.location_id} ${row.id}`, row.raw);
  }
  old.close();
  return { path, rawByRecord };
}

/** Orders without the hour their closed_at shows (the fixture's timestamps carry offsets). */
const UNSTAMPED_ORDERS =
  "SELECT COUNT(*) FROM orders WHERE closed_hour IS NOT CAST(substr(closed_at, 12, 2) AS INTEGER)";

function readRaw(db: Db, table: string, id: string, locationId: string): string | undefined {
  return readRawRecords(db.sqlite, table, id, locationId)[0]?.json;
}

describe("upgrading a database made by the previous release", () => {
  it("keeps every record and moves each one's JSON, unchanged, into the raw archive", async () => {
    const { path, rawByRecord } = previousRelease();
    const result = await runCli(["migrate"], { POS_DB_PATH: path });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // The previous release had the first five.
    const all = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
    expect(result.stdout).toMatch(
      new RegExp(`upgraded .*: applied ${all - 5} migrations \\(${all} in all\\)\n$`),
    );
    expect(result.stdout).toContain("stamped 207 orders with their closing hour\n");
    expect(result.stdout).toContain("summed 6 location days into the daily summary tables\n");
    expect(result.stdout).toContain("gave 207 orders their location's clock\n");
    expect(result.stdout).toContain("moved the raw JSON of orders into the archive (207 rows)\n");
    expect(result.stdout.match(/moved the raw JSON of orders/g)).toHaveLength(1);

    const db = openTestDb(path);
    expect(await compareWithDataset(db, sim.dataset, { since: SINCE, until: UNTIL })).toEqual([]);
    for (const [key, raw] of rawByRecord) {
      const [table, locationId, id] = key.split(" ");
      const json = readRaw(db, table!, id!, locationId!);
      expect(json, key).toBe(raw);
    }
    expect(scalar(db, "SELECT COUNT(*) FROM raw_records")).toBeGreaterThanOrEqual(rawByRecord.size);
    for (const table of ["orders", "reports", "locations", "products"]) {
      const columns = rows(db, `SELECT name FROM pragma_table_info('${table}')`).map((c) => c.name);
      expect(columns).not.toContain("raw");
      expect(scalar(db, `SELECT COUNT(*) FROM ${table} WHERE content_hash IS NULL`)).toBe(0);
    }
    expect(pendingUpgrades(db.sqlite)).toEqual([]);
    expect(scalar(db, UNSTAMPED_ORDERS)).toBe(0);
    // Every date-time on the location's wall clock: the API wrote its offset.
    expect(
      scalar(
        db,
        `SELECT COUNT(*) FROM v_orders WHERE created_at IS NOT replace(substr(created_at_sent, 1, 23), 'T', ' ')
           OR closed_at IS NOT replace(substr(closed_at_sent, 1, 23), 'T', ' ')`,
      ),
    ).toBe(0);

    // The upgraded file syncs like a new one: the same data again changes nothing.
    const { result: again } = await syncOnce(sim, db, { range: { since: SINCE, until: UNTIL } });
    expect(again.status).toBe("succeeded");
    expect(again.stats.totals("orders").unchanged).toBe(207);
    expect(again.stats.totals("orders").inserted + again.stats.totals("orders").updated).toBe(0);
    db.close();

    const verify = await runCli(
      ["verify", "--since", SINCE, "--until", UNTIL],
      simulatorEnv(sim, path),
    );
    expect(verify.stderr).toBe("");
    expect(verify.code).toBe(0);
  });

  it("carries on after an interruption, losing and repeating nothing", async () => {
    const { path, rawByRecord } = previousRelease();
    const sqlite = new Database(path);
    // The upgrade runs before the lean layout's migration, which rebuilds the typed tables.
    const beforeLeanLayout = olderMigrationsFolder(migrationsFrom("0013_lean_layout"));
    migrate(drizzle(sqlite), { migrationsFolder: beforeLeanLayout });
    rmSync(beforeLeanLayout, { recursive: true, force: true });
    // Interrupted after the first batch of orders (200 of 207 rows) was committed.
    let batches = 0;
    expect(() =>
      archiveRawColumns(sqlite, (progress) => {
        if (progress.part === "orders" && progress.done > 0 && ++batches === 1)
          throw new Error("killed");
      }),
    ).toThrow("killed");
    expect(
      sqlite.prepare("SELECT COUNT(*) FROM orders WHERE content_hash IS NULL").pluck().get(),
    ).toBe(7);
    expect(sqlite.prepare("SELECT COUNT(*) FROM raw_records").pluck().get()).toBe(200);
    sqlite.close();

    // A read-only command refuses a half-upgraded file rather than reading it half.
    const status = await runCli(["status"], { POS_DB_PATH: path });
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(
      new RegExp(
        `lacks ${migrationsFrom("0013_lean_layout")} schema migration\\(s\\) .*: run pos-sync migrate`,
      ),
    );

    const db = openTestDb(path);
    expect(pendingUpgrades(db.sqlite)).toEqual([]);
    expect(scalar(db, "SELECT COUNT(*) FROM raw_records WHERE table_name = 'orders'")).toBe(207);
    for (const [key, raw] of rawByRecord) {
      const [table, locationId, id] = key.split(" ");
      expect(readRaw(db, table!, id!, locationId!), key).toBe(raw);
    }
    expect(await compareWithDataset(db, sim.dataset, { since: SINCE, until: UNTIL })).toEqual([]);
    db.close();
  });

  it("stamps every order with its closing hour, carrying on after an interruption", () => {
    const { path } = previousRelease();
    const sqlite = new Database(path);
    migrate(drizzle(sqlite), { migrationsFolder: MIGRATIONS_FOLDER });
    const unstamped = () => sqlite.prepare(UNSTAMPED_ORDERS).pluck().get();
    expect(unstamped()).toBe(207);
    expect(() =>
      fillClosedHours(
        sqlite,
        (progress) => {
          if (progress.done > 0) throw new Error("killed");
        },
        50,
      ),
    ).toThrow("killed");
    expect(unstamped()).toBe(157);
    fillClosedHours(sqlite);
    expect(unstamped()).toBe(0);
    sqlite.close();
  });
});
