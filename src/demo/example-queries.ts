/** Three questions people ask of sales data first, answered in SQL over the views; the demo
 * prints them with their results, and docs/database.md shows more like them. The SQL is the
 * same on SQLite and PostgreSQL (test/docs-sql.test.ts runs it on both), so that it can be
 * copied to either. */
import type { Reader } from "../db/reads/reader.js";
import type { QueryResult } from "../db/sql/dialect.js";
import { formatTable } from "../ui/text-table.js";

/** The stores of reads this module reads. */
type QueryReader = Pick<Reader, "queries">;

export interface ExampleQuery {
  title: string;
  sql: string;
}

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  {
    title: "Sales per day, the last 7 days, all locations",
    sql: `SELECT business_date, SUM(orders) AS orders, ROUND(SUM(total_sales), 2) AS sales,
       ROUND(SUM(total_sales) / NULLIF(SUM(orders), 0), 2) AS average_order
FROM v_daily_sales
GROUP BY business_date
ORDER BY business_date DESC
LIMIT 7;`,
  },
  {
    title: "Top 5 products by sales, per location",
    sql: `WITH product_sales AS (
  SELECT location_id, location_name, MAX(product_name) AS product_name,
         SUM(quantity) AS quantity, ROUND(SUM(sales), 2) AS sales,
         ROW_NUMBER() OVER (PARTITION BY location_id ORDER BY SUM(sales) DESC) AS place
  FROM v_product_sales
  GROUP BY location_id, location_name, product_id
)
SELECT location_name, product_name, quantity, sales
FROM product_sales WHERE place <= 5
ORDER BY location_name, place;`,
  },
  {
    title: "Payment mix",
    sql: `SELECT payment_name, SUM(payments) AS payments, ROUND(SUM(amount), 2) AS amount,
       ROUND(100.0 * SUM(amount) / (SELECT SUM(amount) FROM v_payment_mix), 1) AS share_percent
FROM v_payment_mix
GROUP BY payment_name
ORDER BY SUM(amount) DESC;`,
  },
];

/** Decimals a column shows at most: amounts to the cent. */
const MAX_DECIMALS = 2;

const withDecimals = Array.from(
  { length: MAX_DECIMALS + 1 },
  (_, digits) =>
    new Intl.NumberFormat("en-US", {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }),
);
const whole = withDecimals[0] as Intl.NumberFormat;

/** The decimals a number is written with (12.5 → 1), at most MAX_DECIMALS. */
function decimalsOf(value: number): number {
  const fraction = String(value).split(".")[1] ?? "";
  return Math.min(fraction.length, MAX_DECIMALS);
}

/** Every number of a column with as many decimals as its most precise one: amounts to the cent
 * (12.50 beside 6,485.71), a share rounded to one decimal with one (52.1). */
function columnFormats(rows: readonly unknown[][], width: number): Intl.NumberFormat[] {
  return Array.from({ length: width }, (_, column) => {
    let decimals = 0;
    for (const row of rows) {
      const value = row[column];
      if (typeof value === "number") decimals = Math.max(decimals, decimalsOf(value));
    }
    return withDecimals[decimals] ?? whole;
  });
}

export function formatQueryResult(result: QueryResult): string[] {
  const formats = columnFormats(result.rows, result.columns.length);
  const cell = (value: unknown, column: number): string => {
    if (value === null) return "NULL";
    return typeof value === "number" ? (formats[column] ?? whole).format(value) : String(value);
  };
  return formatTable([result.columns, ...result.rows.map((row) => row.map(cell))]);
}

/** Each query: its title, its SQL, its result, indented under the title. */
export async function formatExampleQueries(facts: QueryReader): Promise<string> {
  const blocks: string[] = [];
  for (const [index, query] of EXAMPLE_QUERIES.entries()) {
    const result = formatQueryResult(await facts.queries.runQuery(query.sql));
    blocks.push(
      [
        `${index + 1}. ${query.title}`,
        "",
        ...query.sql.split("\n").map((line) => `   ${line}`),
        "",
        ...result.map((line) => `   ${line}`),
      ].join("\n"),
    );
  }
  return `Example queries\n\n${blocks.join("\n\n")}\n`;
}
