/** Opening the database: pragmas for a writer beside BI readers, migrations applied at open, an
 * older file upgraded in place, and readers that never block a sync. */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { DatabaseError } from "../src/db/errors.js";
import { VIEWS } from "../src/db/sql/views.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { MIGRATIONS_FOLDER, openDatabase } from "../src/db/sqlite/open.js";
import { testClient } from "./helpers/client.js";
import { rows, scalar, useTempDir } from "./helpers/db.js";
import { loadLocation } from "./helpers/load.js";
import { copyCommonColumns } from "./helpers/older-schema.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";

const require = createRequire(import.meta.url);
const tempPath = useTempDir();
const sim = useSimulator({ locations: 1 });

/** A copy of the migrations that stops after the first `count`: an older release of pos-sync. */
function olderMigrations(count: number): string {
  const folder = mkdtempSync(join(tmpdir(), "pos-sync-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

describe("opening", () => {
  it("sets WAL, synchronous NORMAL, foreign keys and a busy timeout", () => {
    const db = openDatabase(tempPath());
    try {
      expect(db.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.sqlite.pragma("synchronous", { simple: true })).toBe(1);
      expect(db.sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(db.sqlite.pragma("busy_timeout", { simple: true })).toBeGreaterThanOrEqual(5_000);
    } finally {
      db.close();
    }
  });

  it("creates every table and view of the contract", () => {
    const db = openDatabase(tempPath());
    try {
      const names = rows(
        db,
        "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')",
      ).map((r) => r.name);
      for (const name of [
        "locations",
        "devices",
        "categories",
        "products",
        "product_sub_categories",
        "product_prices",
        "modifiers",
        "modifier_options",
        "payment_methods",
        "taxes",
        "orders",
        "order_items",
        "order_item_modifiers",
        "order_item_discounts",
        "order_payments",
        "reports",
        "report_products",
        "report_clerk_shifts",
        "report_discounts",
        "report_taxes",
        "report_payments",
        "report_entries",
        "report_orders",
        "sync_runs",
        "sync_windows",
        "rejected_records",
        "v_daily_sales",
        "v_product_sales",
        "v_payment_mix",
        "v_tax_summary",
        "v_hourly_sales",
        "v_report_reconciliation",
      ]) {
        expect(names, name).toContain(name);
      }
    } finally {
      db.close();
    }
  });

  it("indexes what people ask for", () => {
    const db = openDatabase(tempPath());
    try {
      const plan = (sql: string) =>
        rows(db, `EXPLAIN QUERY PLAN ${sql}`)
          .map((r) => r.detail)
          .join(" | ");
      expect(
        plan("SELECT * FROM orders WHERE location_id = 'x' AND business_date = '2026-01-01'"),
      ).toMatch(/api_ids_id_unique.*order_rows_location_day/);
      expect(plan("SELECT * FROM orders WHERE report_id = 'x'")).toMatch(
        /api_ids_id_unique.*order_rows_report/,
      );
      expect(plan("SELECT * FROM orders WHERE id = 'x'")).toContain("order_rows_id_unique");
      // A relation of an order's array finds its rows through the order's id, then its key.
      expect(plan("SELECT * FROM order_items WHERE order_id = 'x'")).toMatch(
        /SEARCH o USING INDEX order_rows_id_unique.*SEARCH c USING (INDEX|PRIMARY KEY)/,
      );
      expect(
        plan("SELECT * FROM reports WHERE location_id = 'x' AND business_date = '2026-01-01'"),
      ).toContain("reports_location_day");
    } finally {
      db.close();
    }
  });

  it("says clearly when the file cannot be created", () => {
    // A directory that cannot exist: its parent is a regular file.
    const file = tempPath();
    writeFileSync(file, "not a directory");
    const path = join(file, "sub", "pos.sqlite");
    expect(() => openDatabase(path)).toThrow(DatabaseError);
    expect(() => openDatabase(path)).toThrow(`cannot open the database ${path}: `);
  });

  it("refuses a file that is not a database, naming it", () => {
    const path = tempPath();
    writeFileSync(
      path,
      "this is a text file, long enough to have a header that is not SQLite's at all.",
    );
    expect(() => openDatabase(path)).toThrow(
      `${path} is not a SQLite database; pos-sync leaves it as it is`,
    );
  });
});

describe("migrations", () => {
  it("are up to date with the Drizzle schema", () => {
    // drizzle-kit compares the schema with the last snapshot; on a copy, so nothing is written here.
    const copy = mkdtempSync(join(tmpdir(), "pos-sync-drizzle-"));
    cpSync(MIGRATIONS_FOLDER, copy, { recursive: true });
    const output = execFileSync(
      join("node_modules", ".bin", "drizzle-kit"),
      [
        "generate",
        "--dialect",
        "sqlite",
        "--schema",
        "./src/db/schema/*.ts",
        "--out",
        relative(process.cwd(), copy),
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    expect(output).toContain("No schema changes");
  });
});

describe("upgrading", () => {
  let path: string;

  beforeAll(async () => {
    // A file written by an older release: the first migration only, with data in it.
    // The data is written by this version, then copied column by column into the older schema.
    const current = openDatabase(tempPath());
    const { client } = testClient(sim.current);
    const store = new SqliteDestination(current);
    await loadLocation(client, store, sim.current.keys[0] as string, {
      since: addDays(TEST_TODAY, -3),
      until: TEST_TODAY,
    });
    await store.close();
    path = tempPath();
    const older = openDatabase(path, { migrationsFolder: olderMigrations(1) });
    copyCommonColumns(older.sqlite, current.path);
    older.close();
  });

  it("upgrades a database from an older version in place with no data lost", () => {
    const before = new Database(path, { readonly: true });
    const counts = (db: Database.Database) =>
      ["orders", "order_items", "reports", "products", "devices"].map((t) =>
        db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get(),
      );
    const countsBefore = counts(before);
    expect(
      before.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'view'").pluck().get(),
    ).toBe(0);
    before.close();

    const upgraded = openDatabase(path);
    try {
      expect(counts(upgraded.sqlite)).toEqual(countsBefore);
      expect(scalar(upgraded, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'view'")).toBe(
        VIEWS.length,
      );
      const journal = JSON.parse(
        readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
      );
      expect(scalar(upgraded, "SELECT COUNT(*) FROM __drizzle_migrations")).toBe(
        journal.entries.length,
      );
      expect(
        scalar(upgraded, "SELECT COUNT(*) FROM v_report_reconciliation WHERE status <> 'ok'"),
      ).toBe(0);
    } finally {
      upgraded.close();
    }
  });

  it("opens an up-to-date database without changing it", () => {
    const first = openDatabase(path);
    const version = scalar(first, "PRAGMA schema_version");
    first.close();
    const second = openDatabase(path);
    expect(scalar(second, "PRAGMA schema_version")).toBe(version);
    second.close();
  });
});

describe("writers beside the writer", () => {
  it("waits for another connection's small writes instead of failing a page", async () => {
    const path = tempPath();
    const db = openDatabase(path);
    const store = new SqliteDestination(db);
    // Another connection commits a lease heartbeat every millisecond or so, in another thread.
    const beat = new Worker(
      `const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
       const { workerData } = require("node:worker_threads");
       const db = new Database(workerData.path, { timeout: 10000 });
       db.prepare("INSERT OR REPLACE INTO writer_lease VALUES (1, 'other', 1, 'h', 'daemon', 'x', 'x')").run();
       const beat = db.prepare("UPDATE writer_lease SET heartbeat_at = ? WHERE id = 1");
       const until = Date.now() + workerData.ms;
       while (Date.now() < until) beat.run(String(Date.now()));
       db.close();`,
      { eval: true, workerData: { path, ms: 3_000 } },
    );
    const { client } = testClient(sim.current);
    const totals = await loadLocation(client, store, sim.current.keys[0] as string, {
      since: addDays(TEST_TODAY, -6),
      until: TEST_TODAY,
    });
    expect(totals.orders.inserted).toBeGreaterThan(100);
    await new Promise((resolve) => beat.once("exit", resolve));
    await store.close();
  });
});

describe("readers beside the writer", () => {
  it("lets a long read transaction run while a sync writes, and neither breaks", async () => {
    const path = tempPath();
    const writer = openDatabase(path);
    const store = new SqliteDestination(writer);
    const { client } = testClient(sim.current);
    const apiKey = sim.current.keys[0] as string;
    await loadLocation(client, store, apiKey, {
      since: addDays(TEST_TODAY, -5),
      until: addDays(TEST_TODAY, -4),
    });

    const reader = new Database(path, { readonly: true });
    reader.prepare("BEGIN").run();
    const seen = reader.prepare("SELECT COUNT(*) FROM orders").pluck().get();
    const started = performance.now();
    const totals = await loadLocation(client, store, apiKey, {
      since: addDays(TEST_TODAY, -3),
      until: TEST_TODAY,
    });
    expect(totals.orders.inserted).toBeGreaterThan(0);
    await store.commit();
    expect(performance.now() - started).toBeLessThan(10_000);
    // The reader still sees its snapshot, then the new data once it ends its transaction.
    expect(reader.prepare("SELECT COUNT(*) FROM orders").pluck().get()).toBe(seen);
    reader.prepare("COMMIT").run();
    expect(reader.prepare("SELECT COUNT(*) FROM orders").pluck().get()).toBe(
      scalar(writer, "SELECT COUNT(*) FROM orders"),
    );
    reader.close();
    await store.close();
  });
});
