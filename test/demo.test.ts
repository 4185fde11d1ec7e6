/** `pos-sync demo` as a newcomer runs it: a built child process, the default data, a real file. */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { addDays, toEpochDay } from "../src/clock/days.js";
import { DEMO_DEFAULTS } from "../src/commands/demo.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { Dataset } from "../src/simulator/dataset.js";
import { runCli } from "./helpers/cli.js";
import { openTestDb, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";

const tempPath = useTempDir();

describe("pos-sync demo", () => {
  it("syncs two locations and 60 days, shows the summary and three queries, then runs incrementally", async () => {
    const dbPath = tempPath();
    const first = await runCli(["demo", "--db", dbPath]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("2 location(s) and 60 days of data");
    expect(first.stdout).toContain("First run: a full backfill");
    expect(first.stdout).toMatch(/pos-sync sync: succeeded in/);
    expect(first.stdout).toMatch(/^ {2}orders +\d{1,3}(,\d{3})+$/m);
    // Every day through the location's own today, which may already be tomorrow in UTC+1: the
    // days of data complete, and only that today open.
    const covered = [
      ...first.stdout.matchAll(
        /: \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, (\d+) of (\d+) days complete, 1 still open \(the location's today\)$/gm,
      ),
    ];
    expect(covered).toHaveLength(2);
    for (const [, complete, days] of covered) {
      expect([59, 60]).toContain(Number(complete));
      expect(Number(days)).toBe(Number(complete) + 1);
    }
    expect(first.stdout).toMatch(/Reconciliation: all \d+ reports add up/);
    // Each query is printed with its result: 7 days, 5 products, the payment methods.
    expect(first.stdout).toMatch(/^ {3}business_date +orders +sales +average_order$/m);
    expect(
      first.stdout.match(/^ {3}\d{4}-\d\d-\d\d +[\d,]+ +[\d,]+\.\d\d +[\d,]+\.\d\d$/gm),
    ).toHaveLength(7);
    expect(first.stdout).toMatch(/^ {3}location_name +product_name +quantity +sales$/m);
    expect(first.stdout).toMatch(/^ {3}payment_name +payments +amount +share_percent$/m);
    // The commands it names reach its database.
    expect(first.stdout).toMatch(
      /^Every command reads it with --db: npx pos-sync status --db \S+$/m,
    );
    // Amounts to the cent, a share rounded to one decimal with one.
    expect(first.stdout).toMatch(/^ {3}Card +[\d,]+ +[\d,]+\.\d\d +\d+\.\d$/m);
    // Progress per location, a quarter of its days at a time, both streams together.
    // The backfill reads the API as it was a week ago, both streams: 53 days each.
    expect(first.stderr).toMatch(/^Le Petit Zinc {2}\d+\/106 windows {2}[\d,]+ records$/m);
    // Then a run a day up to today, and the orders those runs saw change.
    expect(
      first.stdout.match(/^\d{4}-\d\d-\d\d: run #\d+ succeeded, \d+ requests, /gm),
    ).toHaveLength(7);
    expect(first.stdout).toMatch(
      /^Orders changed after the fact \(npx pos-sync changes --db [^;]+; v_order_changes\)\n\n(No order changed|\d+ order changes?) found by the 7 daily runs:?/m,
    );

    // The file holds the simulated API's data: field by field for the last week, and every
    // order of the 60 days.
    const dataset = new Dataset({ ...DEMO_DEFAULTS, today: simulatorToday() });
    const db = openTestDb(dbPath, { readonly: true });
    try {
      const lastWeek = { since: addDays(dataset.today, -6), until: dataset.today };
      expect(await compareWithDataset(db, dataset, lastWeek)).toEqual([]);
      let orders = 0;
      for (const location of dataset.locations)
        for (let day = toEpochDay(dataset.firstDay); day <= toEpochDay(dataset.today); day++)
          orders += dataset.ordersCreatedOn(location, day).length;
      expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBe(orders);
      const ordersBefore = scalar(db, "SELECT COUNT(*) FROM orders");
      // The chain's locations sell the same dishes under the same skus: one row of the chain's
      // product sales for each product sold on a day, however many locations sold it.
      const productDays = (view: string) =>
        scalar(
          db,
          `SELECT COUNT(*) FROM (SELECT DISTINCT business_date, product_name, category FROM ${view})`,
        );
      const chainRows = scalar(db, "SELECT COUNT(*) FROM v_chain_product_sales");
      expect(productDays("v_chain_product_sales")).toBe(chainRows);
      expect(productDays("v_product_sales")).toBe(chainRows);

      // Every day but each location's today (59 of 60 each, or 60 once a location is in tomorrow).
      const complete = scalar(
        db,
        "SELECT COUNT(*) FROM sync_windows WHERE stream = 'orders' AND status = 'complete'",
      );
      expect([118, 120]).toContain(complete);
      const second = await runCli(["demo", "--db", dbPath]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain(
        `Incremental run: ${complete} location-days of orders are already complete`,
      );
      expect(second.stdout).toMatch(
        /This incremental run read \d+ windows in \d+ requests and found 0 new or changed records/,
      );
      expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBe(ordersBefore);
    } finally {
      db.close();
    }
  }, 120_000);

  it("refuses a bad flag with one line and exit 2", async () => {
    const result = await runCli(["demo", "--days", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'pos-sync: --days must be a whole number from 1 to 730, got "0"',
    );
  });
});

/** The bytes of a file and its -wal and -shm, or "absent" for each that does not exist. */
function fingerprint(path: string): string[] {
  return ["", "-wal", "-shm"].map((suffix) =>
    existsSync(`${path}${suffix}`)
      ? createHash("sha256")
          .update(readFileSync(`${path}${suffix}`))
          .digest("hex")
      : "absent",
  );
}

/** Files the demo did not make, each as a user could pass it to --db by mistake. */
const FOREIGN_FILES: Record<string, (path: string) => void> = {
  "a pos-sync database": (path) => {
    const db = openTestDb(path);
    db.sqlite.prepare("INSERT INTO sync_state VALUES ('real', 'note', 'x', '2026-01-01')").run();
    db.close();
  },
  "another SQLite database": (path) => {
    const db = new Database(path);
    db.exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)");
    db.close();
  },
  "a text file": (path) => writeFileSync(path, "quarterly numbers, do not delete\n"),
  "an empty file": (path) => writeFileSync(path, ""),
};

describe("pos-sync demo and files it did not make", () => {
  for (const [kind, make] of Object.entries(FOREIGN_FILES)) {
    for (const fresh of [false, true]) {
      const args = fresh ? ["--fresh"] : [];
      it(`refuses ${kind}${fresh ? " even with --fresh" : ""} with one line and exit 2, and leaves it byte for byte`, async () => {
        const path = tempPath();
        make(path);
        const before = fingerprint(path);
        const result = await runCli(["demo", "--db", path, ...args]);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr.trim().split("\n")).toHaveLength(1);
        expect(result.stderr).toMatch(
          new RegExp(
            `^pos-sync: ${path} is not a database the demo made \\(.+\\), so the demo leaves it alone`,
          ),
        );
        expect(result.stdout).toBe("");
        expect(fingerprint(path)).toEqual(before);
      });
    }
  }

  it("refuses a pos-sync database that another connection has open, -wal and -shm included", async () => {
    const path = tempPath();
    const reader = openTestDb(path);
    try {
      reader.sqlite.prepare("INSERT INTO sync_state VALUES ('real', 'n', 'v', '2026-01-01')").run();
      const before = fingerprint(path);
      expect(before[1]).not.toBe("absent");
      const result = await runCli(["demo", "--fresh", "--db", path]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toBe(
        `pos-sync: ${path} is not a database the demo made (a SQLite database without the ` +
          "demo's mark), so the demo leaves it alone: choose another --db (a demo database from " +
          "an earlier pos-sync has no mark: delete it yourself)",
      );
      expect(fingerprint(path)).toEqual(before);
    } finally {
      reader.close();
    }
  });

  it("refuses a directory as --db with one line and exit 2", async () => {
    const dir = tempPath();
    mkdirSync(dir);
    for (const args of [[], ["--fresh"]]) {
      const result = await runCli(["demo", "--db", dir, ...args]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toBe(
        `pos-sync: ${dir} is a directory: give --db the path of a database file`,
      );
      expect(existsSync(dir)).toBe(true);
    }
  });

  it("marks the database it makes, and --fresh starts its own database over", async () => {
    const path = tempPath();
    const small = ["demo", "--db", path, "--days", "2", "--locations", "1"];
    const first = await runCli(small);
    expect(first.code, first.stderr).toBe(0);
    const db = new Database(path, { readonly: true });
    expect(db.pragma("application_id", { simple: true })).not.toBe(0);
    db.close();

    const again = await runCli([...small, "--fresh"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("First run: a full backfill");
  }, 60_000);
});
