/**
 * A BI tool's filter by day reads the days asked, not the history: every view with a
 * `business_date`, filtered by a week (and by a week of one location), searches an index of the
 * orders, reports, versions, lines and payments on both databases. Asserted on the plans the
 * databases make, so that it holds at any size: SQLite's bytecode, and PostgreSQL's plan with
 * sequential scans priced out (one remains only where no index can serve). The summary tables
 * alone are read whole (schema/columns.ts, dayIndex): a row per location and day.
 */
import type pg_ from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { biRoleSettings } from "../scripts/bi-role-settings.js";
import { openPool } from "../src/db/pg/connect.js";
import {
  dailyOperatorSales,
  dailyPaymentSales,
  dailyProductSales,
  dailySales,
  dailyTaxSales,
  hourlySales,
} from "../src/db/schema/index.js";
import { BI_VIEWS } from "../src/db/sql/bi-views.js";
import { tableName } from "../src/db/sql/table.js";
import { VIEW_COLUMN_TYPES } from "../src/db/sql/view-columns.js";
import type { Db } from "../src/db/sqlite/open.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { usePostgres } from "./helpers/postgres.js";

/** What a filter by day may read whole: the empty table of SQLite's typed rows, and the
 * summaries. */
const READ_WHOLE = new Set([
  VIEW_COLUMN_TYPES,
  ...[
    dailySales,
    dailyProductSales,
    dailyPaymentSales,
    dailyTaxSales,
    hourlySales,
    dailyOperatorSales,
  ].map(tableName),
]);

/** The filters a BI tool adds to a view with a day: a week, and a week of one location. */
const FILTERS = [
  { name: "a week", where: "business_date BETWEEN ? AND ?", params: ["2026-11-02", "2026-11-08"] },
  {
    name: "a week of one location",
    where: "business_date BETWEEN ? AND ? AND location_id = ?",
    params: ["2026-11-02", "2026-11-08", "loc-1"],
  },
];

/** Each view filtered as a BI tool does, and a view joined to a relation by its id, as a BI tool
 * joins what the foreign keys name: a week's orders with their lines. */
const QUERIES = [
  ...BI_VIEWS.flatMap((view) => {
    const names = new Set(view.columns.map((column) => column.name));
    if (!names.has("business_date")) return [];
    return FILTERS.filter((f) => names.has("location_id") || !f.where.includes("location_id")).map(
      (filter) => ({
        view: view.name,
        name: `${view.name}, ${filter.name}`,
        sql: `SELECT * FROM ${view.name} WHERE ${filter.where}`,
        params: filter.params,
      }),
    );
  }),
  {
    view: "v_orders",
    name: "v_orders joined to order_items, a week",
    sql: `SELECT o.order_id, i.* FROM v_orders o JOIN order_items i ON i.order_id = o.order_id
      WHERE o.business_date BETWEEN ? AND ?`,
    params: FILTERS[0]?.params ?? [],
  },
];

it("covers every view: each has a day", () => {
  expect(new Set(QUERIES.map((q) => q.view)).size).toBe(BI_VIEWS.length);
});

describe("SQLite", () => {
  const tempPath = useTempDir();
  let db: Db;
  beforeAll(() => {
    db = openTestDb(tempPath());
  });
  afterAll(() => db.close());

  /** The tables (and their indexes) a statement reads from the first row on rather than by a
   * key: in the bytecode, a cursor opened on a table's or an index's pages, then rewound. */
  function tablesScanned(sql: string, params: readonly string[] = []): string[] {
    const roots = new Map<number, string>(
      rows(db, "SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0").map((r) => [
        r.rootpage,
        r.tbl_name,
      ]),
    );
    const program: { opcode: string; p1: number; p2: number }[] = rows(
      db,
      `EXPLAIN ${sql}`,
      ...params,
    );
    const tableOf = new Map<number, string>();
    for (const step of program) {
      if (step.opcode === "OpenRead") tableOf.set(step.p1, roots.get(step.p2) ?? `page ${step.p2}`);
    }
    return program
      .filter((step) => step.opcode === "Rewind" || step.opcode === "Last")
      .map((step) => tableOf.get(step.p1) ?? `cursor ${step.p1}, opened otherwise`)
      .filter((table) => !READ_WHOLE.has(table));
  }

  it("reads the scans it is meant to find", () => {
    expect(tablesScanned("SELECT * FROM order_rows WHERE business_date = '2026-11-02'")).toEqual([
      "order_rows",
    ]);
    expect(
      tablesScanned("SELECT * FROM order_rows WHERE business_date_typed = '2026-11-02'"),
    ).toEqual([]);
  });

  it.each(QUERIES)("searches an index for $name", ({ sql, params }) => {
    expect(tablesScanned(sql, params)).toEqual([]);
  });
});

describe("PostgreSQL", () => {
  const pg = usePostgres();
  let client: pg_.PoolClient;
  let pool: pg_.Pool;
  beforeAll(async () => {
    pool = openPool(await pg.migrated(), 1);
    client = await pool.connect();
    // As the guide's BI role reads (a join of views planned as one query), and with sequential
    // scans priced out: one is still made where no index can serve, and is what the test finds.
    for (const setting of biRoleSettings()) await client.query(setting);
    await client.query("SET enable_seqscan = off");
  });
  afterAll(async () => {
    client.release();
    await pool.end();
  });

  /** The tables a statement's plan reads whole: by a sequential scan, or through an index with
   * no condition on it (which is what a priced-out sequential scan turns into). */
  async function tablesScanned(sql: string, params: string[]): Promise<string[]> {
    let n = 0;
    const numbered = sql.replace(/\?/g, () => `$${++n}`);
    const { rows: plan } = await client.query(`EXPLAIN (FORMAT JSON) ${numbered}`, params);
    const scanned: string[] = [];
    const visit = (node: {
      "Node Type": string;
      "Relation Name"?: string;
      "Index Cond"?: string;
      Plans?: unknown[];
    }) => {
      const type = node["Node Type"];
      const whole =
        type === "Seq Scan" ||
        ((type === "Index Scan" || type === "Index Only Scan") && !node["Index Cond"]);
      const relation = node["Relation Name"] ?? "?";
      if (whole && !READ_WHOLE.has(relation)) scanned.push(relation);
      for (const child of node.Plans ?? []) visit(child as typeof node);
    };
    visit(plan[0]["QUERY PLAN"][0].Plan);
    return scanned;
  }

  it("reads the scans it is meant to find", async () => {
    expect(await tablesScanned("SELECT * FROM order_rows WHERE total > ?", ["1"])).toEqual([
      "order_rows",
    ]);
    expect(await tablesScanned("SELECT * FROM order_rows ORDER BY key", [])).toEqual([
      "order_rows",
    ]);
  });

  it.each(QUERIES)("searches an index for $name", async ({ sql, params }) => {
    expect(await tablesScanned(sql, params)).toEqual([]);
  });
});
