/**
 * What a BI tool's SQLite driver reads of the views: every column of every `v_` view declares the
 * type its definition gives it (sql/views.ts), both where drivers look for it: the view's columns
 * (PRAGMA table_xinfo, what JDBC's getColumns answers) and a query's result (the declared type of
 * each result column). A view added without a type, or whose SQL loses one, fails here. And the
 * tables a BI tool lists beside the contract, which docs/database.md names to hide.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTRACT_TABLES } from "../src/db/schema/relations.js";
import { BI_VIEWS } from "../src/db/sql/bi-views.js";
import { COLUMN_DECLARATIONS } from "../src/db/sql/view-columns.js";
import type { Db } from "../src/db/sqlite/open.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";

const tempPath = useTempDir();
let db: Db;

beforeAll(() => {
  db = openTestDb(tempPath());
});
afterAll(() => db.sqlite.close());

/** The types a BI tool maps (Metabase's SQLite driver matches these names). */
const MAPPED = /^(TEXT|INTEGER|REAL|NUMERIC|DATE|BOOLEAN|TIMESTAMP)$/;

describe("the BI views' column types", () => {
  it("has a typed definition for every view whose name starts with v_", () => {
    const views = rows(
      db,
      "SELECT name FROM sqlite_schema WHERE type = 'view' AND name LIKE 'v\\_%' ESCAPE '\\' ORDER BY name",
    ).map((row) => row.name);
    expect(views).toEqual(BI_VIEWS.map((view) => view.name).sort());
  });

  it.each(BI_VIEWS.map((view) => [view.name, view] as const))(
    "declares every column of %s as its definition types it, in the view and in a query's result",
    (name, view) => {
      const expected = view.columns.map((c) => [c.name, COLUMN_DECLARATIONS[c.type].sqlite]);
      const declared = rows(db, `PRAGMA table_xinfo(${name})`).map((c) => [
        c.name,
        String(c.type).toUpperCase(),
      ]);
      const inResult = db.sqlite
        .prepare(`SELECT * FROM ${name}`)
        .columns()
        .map((c) => [c.name, String(c.type).toUpperCase()]);
      expect(declared).toEqual(expected);
      expect(inResult).toEqual(expected);
      expect(declared.every(([, type]) => MAPPED.test(type ?? ""))).toBe(true);
    },
  );

  it("calls days DATE, flags BOOLEAN and date-times TIMESTAMP, each on the wall clock, in UTC (_utc) and as sent (_sent)", () => {
    for (const view of BI_VIEWS) {
      const types = new Map(view.columns.map((c) => [c.name, c.type]));
      expect(types.get("business_date"), view.name).toBe("date");
      for (const [column, type] of types) {
        if (/^(is|was)_|^seen_paid$/.test(column))
          expect(type, `${view.name}.${column}`).toBe("boolean");
        if (column.endsWith("_at")) {
          expect(type, `${view.name}.${column}`).toBe("local");
          expect(types.get(`${column}_utc`), `${view.name}.${column}_utc`).toBe("utc");
          expect(types.get(`${column}_sent`), `${view.name}.${column}_sent`).toBe("sent");
        }
      }
    }
  });
});

describe("the tables a BI tool lists on SQLite", () => {
  it("names in docs/database.md, to hide, every table of a new database that is not the contract's", () => {
    const doc = readFileSync(new URL("../docs/database.md", import.meta.url), "utf8");
    const list = /<!-- internal-tables -->([\s\S]*?)<!-- \/internal-tables -->/.exec(doc)?.[1];
    const documented = [...(list ?? "").matchAll(/`(\w+)`/g)].map((match) => match[1]);
    const internal = rows(
      db,
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
      .map((row) => row.name as string)
      .filter((name) => !CONTRACT_TABLES.includes(name));
    expect(documented).toEqual(internal);
    expect(internal.length).toBeGreaterThan(20);
  });
});
