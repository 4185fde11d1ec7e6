/** docs/data-dictionary.md describes the whole schema, with real API paths, and is up to date. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkDataDictionary,
  DATA_DICTIONARY_FILE,
  readSchema,
  renderDataDictionary,
  resolveApiPath,
} from "../scripts/data-dictionary/data-dictionary.js";
import {
  TABLE_DOCS,
  type TableDoc,
  VIEW_DOCS,
  type ViewDoc,
} from "../scripts/data-dictionary/dictionary/index.js";
import { orderSchema } from "../src/api/schemas.js";

const schema = readSchema();
const docs = { tables: TABLE_DOCS, views: VIEW_DOCS };

/** A deep copy of the dictionary that a test may spoil. */
function tamperedDocs(): { tables: Record<string, TableDoc>; views: Record<string, ViewDoc> } {
  return structuredClone({ tables: TABLE_DOCS, views: VIEW_DOCS });
}

/** The problems the check finds in spoiled docs, in a stable order. */
function problemsIn(spoiled: ReturnType<typeof tamperedDocs>): string[] {
  return checkDataDictionary(schema, spoiled).sort();
}

describe("the data dictionary", () => {
  it("documents every table, column and view of the schema, with API paths that exist", () => {
    expect(checkDataDictionary(schema, docs)).toEqual([]);
  });

  it("covers the 45 tables and 19 views of the contract", () => {
    const tables = schema.groups.flatMap((group) => group.tables);
    expect(tables).toHaveLength(45);
    expect(schema.views.map((view) => view.name)).toEqual([
      "v_cancelled_after_payment",
      "v_chain_operator_sales",
      "v_chain_product_sales",
      "v_changed_after_report",
      "v_daily_sales",
      "v_discounts_by_operator",
      "v_hourly_sales",
      "v_items_voided_after_close",
      "v_operator_sales",
      "v_order_changes",
      "v_order_tips",
      "v_orders",
      "v_payment_mismatches",
      "v_payment_mix",
      "v_product_sales",
      "v_report_reconciliation",
      "v_room_transfers",
      "v_tax_summary",
      "v_training_with_payments",
    ]);
  });

  it("is committed exactly as freshly rendered", () => {
    const committed = readFileSync(DATA_DICTIONARY_FILE, "utf8");
    expect(
      committed,
      "docs/data-dictionary.md is out of date: run `npm run docs:schema` and commit the result",
    ).toBe(renderDataDictionary(schema, docs));
  });

  it("renders the same text every time", () => {
    expect(renderDataDictionary(readSchema(), docs)).toBe(renderDataDictionary(schema, docs));
  });

  it("shows keys, foreign keys and API paths in the column tables", () => {
    const text = renderDataDictionary(schema, docs);
    expect(text).toContain(
      "| `order_id` | TEXT NOT NULL | text | PK, FK → orders.id | `id` | The order (orders.id). |",
    );
    expect(text).toContain("| `tax_rate` | REAL NOT NULL | numeric |  | `items[].tax.taxRate` |");
    expect(text).toContain("- `rejected_records_record` (unique) on `location_id`, `stream`");
  });
});

describe("checking the data dictionary", () => {
  it("reports a column without a doc, an unknown column and an API path that does not exist", () => {
    const spoiled = tamperedDocs();
    const orders = spoiled.tables.orders!;
    const items = spoiled.tables.order_items!;
    delete orders.columns.total;
    orders.columns.no_such_column = { from: null, meaning: "Nothing." };
    items.columns.tax_rate = { from: "items[].tax.rate", meaning: "A field the API lacks." };
    expect(problemsIn(spoiled)).toEqual(
      [
        "column orders.total is in the schema but has no documentation",
        "column orders.no_such_column is documented but is not in the schema",
        'order_items.tax_rate: API field "items[].tax.rate" is not a field of the order record',
      ].sort(),
    );
  });

  it("reports tables and views missing from the docs or from the schema", () => {
    const spoiled = tamperedDocs();
    delete spoiled.tables.sync_state;
    spoiled.tables.no_such_table = { record: null, meaning: "Nothing.", columns: {} };
    delete spoiled.views.v_hourly_sales;
    expect(problemsIn(spoiled)).toEqual(
      [
        "table sync_state is in the schema but has no documentation",
        "table no_such_table is documented but is not in the schema",
        "view v_hourly_sales is in the database but has no documentation",
      ].sort(),
    );
  });

  it("reports view columns missing or extra, and empty meanings", () => {
    const spoiled = tamperedDocs();
    const daily = spoiled.views.v_daily_sales!;
    delete daily.columns.net_sales;
    daily.columns.gross_margin = "Not a column.";
    spoiled.tables.taxes!.columns.name!.meaning = " ";
    expect(problemsIn(spoiled)).toEqual(
      [
        "taxes.name: empty meaning",
        "view column v_daily_sales.net_sales is in the database but has no documentation",
        "view column v_daily_sales.gross_margin is documented but is not in the view",
      ].sort(),
    );
  });

  it("reports elements that are not an array, and API fields on a table without a record", () => {
    const spoiled = tamperedDocs();
    spoiled.tables.order_payments!.elements = "payments";
    spoiled.tables.sync_runs!.columns.status!.from = "status";
    expect(problemsIn(spoiled)).toEqual(
      [
        'order_payments: elements "payments" is not a field of the order record (or not an array)',
        'sync_runs.status: names API field "status" but the table has no record',
      ].sort(),
    );
  });
});

describe("resolving an API path", () => {
  it("steps through objects, into array elements, and past optional and nullable wrappers", () => {
    expect(resolveApiPath(orderSchema, "items[].tax.taxRate")).toBeDefined();
    expect(resolveApiPath(orderSchema, "items[].lossReason")).toBeDefined();
    expect(resolveApiPath(orderSchema, "tips[]")).toBeDefined();
  });

  it("finds nothing for unknown fields, a missing [] or a [] on a non-array", () => {
    expect(resolveApiPath(orderSchema, "items[].tax.rate")).toBeUndefined();
    expect(resolveApiPath(orderSchema, "items.description")).toBeUndefined();
    expect(resolveApiPath(orderSchema, "total[]")).toBeUndefined();
    expect(resolveApiPath(orderSchema, "")).toBeUndefined();
  });
});
