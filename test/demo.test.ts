/** `pos-sync demo` as a newcomer runs it: a built child process, the default data, a real file. */
import { describe, expect, it } from "vitest";
import { DEMO_DEFAULTS } from "../src/commands/demo.js";
import { addDays, today, toEpochDay } from "../src/dates.js";
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
    expect(first.stdout).toMatch(/: \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, 60 of 60 days complete$/m);
    expect(first.stdout).toMatch(/Reconciliation: all \d+ reports add up/);
    // Each query is printed with its result: 7 days, 5 products, the payment methods.
    expect(first.stdout).toMatch(/^ {3}business_date +orders +sales +average_order$/m);
    expect(
      first.stdout.match(/^ {3}\d{4}-\d\d-\d\d +[\d,]+ +[\d,]+\.\d\d +[\d,]+\.\d\d$/gm),
    ).toHaveLength(7);
    expect(first.stdout).toMatch(/^ {3}product_name +quantity +sales$/m);
    expect(first.stdout).toMatch(/^ {3}payment_name +payments +amount +share_percent$/m);
    expect(first.stderr).toMatch(/^orders +\d+\/120 days/m);

    // The file holds the simulated API's data: field by field for the last week, and every
    // order of the 60 days.
    const dataset = new Dataset({ ...DEMO_DEFAULTS, today: today() });
    const db = openTestDb(dbPath, { readonly: true });
    try {
      const lastWeek = { since: addDays(dataset.today, -6), until: dataset.today };
      expect(compareWithDataset(db, dataset, lastWeek)).toEqual([]);
      let orders = 0;
      for (const location of dataset.locations)
        for (let day = toEpochDay(dataset.firstDay); day <= toEpochDay(dataset.today); day++)
          orders += dataset.ordersCreatedOn(location, day).length;
      expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBe(orders);
      const ordersBefore = scalar(db, "SELECT COUNT(*) FROM orders");

      const second = await runCli(["demo", "--db", dbPath]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain(
        "Incremental run: 118 location-days of orders are already complete",
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
