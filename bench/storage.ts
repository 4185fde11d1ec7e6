/**
 * Benchmark 6: storage at chain scale. The simulator (another process) serves a year of many
 * locations; `pos-sync sync` stores it; then the file's bytes per order (with the raw archive,
 * and without it), and six analyst questions timed warm and cold on this layout and on the
 * previous one (the same data with each order's and report's JSON back in a `raw` column of its
 * row, as pos-sync kept it before the raw archive).
 *
 * Cold: dropping the OS page cache needs root and a quiet machine, so cold here is a fresh
 * connection with a 2 MB page cache; the bytes it reads from the file (the process's `rchar`
 * from /proc, which counts reads served by the OS cache too) show how much of the file a
 * question touches, which is what a cold cache would have to fetch from disk.
 */
import { copyFileSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { rawRecordReader } from "../src/db/sqlite/raw-archive.js";
import { runSyncProcess, startSimulatorProcess } from "./e2e.js";
import { dec, int, log, mb, now, seconds } from "./lib.js";

/** What makes an order a sale, in the previous layout's SQL. */
const SALE =
  "o.deleted_at IS NULL AND o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0";

/**
 * Questions analysts ask first: on this layout through the views (which read the daily summary
 * tables), on the previous one with the SQL its views ran over the order tables.
 */
export const ANALYST_QUERIES: readonly { name: string; sql: string; previous: string }[] = [
  {
    name: "daily sales per location",
    sql: "SELECT location_name, business_date, orders, total_sales FROM v_daily_sales",
    previous: `SELECT o.location_id, o.business_date, COUNT(*) AS orders, ROUND(TOTAL(o.total), 2) AS sales
FROM orders o WHERE ${SALE} GROUP BY o.location_id, o.business_date`,
  },
  {
    name: "top 20 products per month",
    sql: `SELECT month, location_name, product_name, quantity, sales FROM (
  SELECT substr(business_date, 1, 7) AS month, location_name, MAX(product_name) AS product_name,
         SUM(quantity) AS quantity, ROUND(SUM(sales), 2) AS sales,
         ROW_NUMBER() OVER (PARTITION BY substr(business_date, 1, 7) ORDER BY SUM(sales) DESC) AS rank
  FROM v_product_sales GROUP BY month, location_id, product_id
) WHERE rank <= 20`,
    previous: `SELECT month, location_id, product_id, quantity, sales FROM (
  SELECT substr(o.business_date, 1, 7) AS month, i.location_id, i.item_catalog_id AS product_id,
         TOTAL(i.quantity) AS quantity, ROUND(TOTAL(i.total), 2) AS sales,
         ROW_NUMBER() OVER (PARTITION BY substr(o.business_date, 1, 7) ORDER BY TOTAL(i.total) DESC) AS rank
  FROM order_items i JOIN orders o ON o.id = i.order_id
  WHERE ${SALE} AND i.is_canceled = 0
  GROUP BY month, i.location_id, product_id
) WHERE rank <= 20`,
  },
  {
    name: "payment mix per month",
    sql: `SELECT substr(business_date, 1, 7) AS month, payment_name, SUM(payments) AS payments,
       ROUND(SUM(amount), 2) AS amount
FROM v_payment_mix GROUP BY month, payment_name`,
    previous: `SELECT substr(o.business_date, 1, 7) AS month, p.payment_name, COUNT(*) AS payments,
       ROUND(TOTAL(p.payment_amount), 2) AS amount
FROM order_payments p JOIN orders o ON o.id = p.order_id
WHERE ${SALE} GROUP BY month, p.payment_name`,
  },
  {
    name: "sales by hour and weekday",
    sql: `SELECT weekday, hour, SUM(orders) AS orders, ROUND(SUM(total_sales), 2) AS sales,
       ROUND(SUM(total_sales) / SUM(orders), 2) AS ticket
FROM v_hourly_sales GROUP BY weekday, hour`,
    previous: `SELECT strftime('%w', o.business_date) AS weekday, substr(o.closed_at, 12, 2) AS hour,
       COUNT(*) AS orders, ROUND(TOTAL(o.total), 2) AS sales, ROUND(AVG(o.total), 2) AS ticket
FROM orders o WHERE ${SALE} GROUP BY weekday, hour`,
  },
  {
    name: "cancellations and voids per operator",
    sql: `SELECT location_name, operator_id, MAX(operator_name) AS operator,
       SUM(cancelled_orders) AS cancelled_orders, SUM(cancelled_items) AS voided_items,
       ROUND(SUM(cancelled_items_total), 2) AS voided
FROM v_operator_sales GROUP BY location_id, operator_id`,
    previous: `SELECT o.location_id, o.operator_id, MAX(o.operator_name) AS operator,
       COUNT(DISTINCT o.id) FILTER (WHERE o.is_canceled = 1) AS cancelled_orders,
       COUNT(i.order_id) FILTER (WHERE o.is_canceled = 0 AND i.is_canceled = 1) AS voided_items,
       ROUND(TOTAL(i.total) FILTER (WHERE o.is_canceled = 0 AND i.is_canceled = 1), 2) AS voided
FROM orders o LEFT JOIN order_items i ON i.order_id = o.id
WHERE o.deleted_at IS NULL AND o.is_training = 0
GROUP BY o.location_id, o.operator_id`,
  },
  {
    name: "report reconciliation",
    sql: "SELECT report_id, location_name, difference, status FROM v_report_reconciliation",
    previous: `SELECT r.id, r.total_sales, ROUND(TOTAL(o.total), 2) AS stored,
       ROUND(r.total_sales - TOTAL(o.total), 2) AS difference
FROM reports r LEFT JOIN orders o ON o.report_id = r.id AND ${SALE}
WHERE r.deleted_at IS NULL
GROUP BY r.id`,
  },
];

export interface QueryTiming {
  name: string;
  warmSeconds: number;
  coldSeconds: number;
  coldBytesRead: number;
  rows: number;
}

export interface StorageResult {
  locations: number;
  days: number;
  orders: number;
  syncSeconds: number;
  fileBytes: number;
  archiveBytes: number;
  bytesPerOrder: number;
  bytesPerOrderRawOff: number;
  tables: { name: string; bytes: number }[];
  queries: QueryTiming[];
  previousLayout: { fileBytes: number; queries: QueryTiming[] };
}

/** Bytes this process has read through read(2) and friends, page cache hits included. */
function bytesRead(): number {
  return Number(/^rchar:\s+(\d+)/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1] ?? 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Each question: cold once on a fresh connection with a 2 MB cache, then warm (median of 3). */
function timeQueries(path: string, layout: "sql" | "previous"): QueryTiming[] {
  return ANALYST_QUERIES.map((query) => {
    const { name } = query;
    const sql = query[layout];
    const cold = new Database(path, { readonly: true });
    cold.pragma("cache_size = -2048");
    const readBefore = bytesRead();
    const coldStart = now();
    const rows = cold.prepare(sql).all().length;
    const coldSeconds = seconds(coldStart);
    const coldBytesRead = bytesRead() - readBefore;
    cold.close();
    const warm = new Database(path, { readonly: true });
    warm.pragma("cache_size = -262144");
    const statement = warm.prepare(sql);
    statement.all();
    const runs = [0, 1, 2].map(() => {
      const start = now();
      statement.all();
      return seconds(start);
    });
    warm.close();
    return { name, warmSeconds: median(runs), coldSeconds, coldBytesRead, rows };
  });
}

/** Bytes of each table and index, largest first (SQLite's dbstat). */
function tableSizes(db: Database.Database): { name: string; bytes: number }[] {
  return db
    .prepare<[], { name: string; bytes: number }>(
      "SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC",
    )
    .all();
}

/** The same data as the previous layout kept it: each order's and report's JSON in its row (the
 * archive stays in the file, unread; its pages are not counted in the size). */
function previousLayoutOf(path: string, copy: string): void {
  copyFileSync(path, copy);
  const db = new Database(copy);
  db.pragma("journal_mode = DELETE");
  const readRaw = rawRecordReader(db);
  // The relation, and the table that stores it.
  for (const [table, stored] of [
    ["orders", "order_rows"],
    ["reports", "reports"],
  ] as const) {
    db.exec(`ALTER TABLE ${stored} ADD COLUMN raw TEXT`);
    const ids = db.prepare(`SELECT id, location_id FROM ${table}`).all() as {
      id: string;
      location_id: string;
    }[];
    const update = db.prepare(`UPDATE ${stored} SET raw = ? WHERE id = ?`);
    const fill = db.transaction((batch: typeof ids) => {
      for (const { id, location_id } of batch)
        update.run(readRaw(table, id, location_id)[0]?.json ?? "{}", id);
    });
    for (let i = 0; i < ids.length; i += 5_000) fill(ids.slice(i, i + 5_000));
  }
  db.close();
}

function printQueries(label: string, timings: QueryTiming[]): void {
  log(`   ${label}`);
  for (const q of timings) {
    log(
      `     ${q.name.padEnd(38)} warm ${dec(q.warmSeconds).padStart(6)} s   cold ${dec(q.coldSeconds).padStart(6)} s, ${mb(q.coldBytesRead).padStart(11)} read   (${int(q.rows)} rows)`,
    );
  }
}

export async function benchStorage(options: {
  locations: number;
  days: number;
  dir: string;
}): Promise<StorageResult> {
  const { locations, days, dir } = options;
  log(
    `6. storage: ${locations} locations × ${days} days from the simulator, synced, then six questions…`,
  );
  const simulator = await startSimulatorProcess([
    "--seed",
    "15",
    "--locations",
    String(locations),
    "--days",
    String(days),
    "--today",
    "2026-11-22",
  ]);
  const path = join(dir, "storage.sqlite");
  let syncSeconds = 0;
  try {
    const started = now();
    const run = await runSyncProcess({
      POS_API_URL: simulator.url,
      POS_API_KEYS: simulator.key,
      POS_DB_PATH: path,
      POS_CONCURRENCY: "8",
      LOG_LEVEL: "warn",
    });
    syncSeconds = seconds(started);
    if (run.exitCode !== 0) throw new Error(`the sync failed:\n${run.summary}`);
  } finally {
    await simulator.stop();
  }
  log(`   synced in ${dec(syncSeconds)} s`);
  const figures = measureFile(path, dir);
  rmSync(path, { force: true });
  return { locations, days, syncSeconds, ...figures };
}

/** The figures of a synced file: its bytes per order, and the six questions on both layouts. */
export function measureFile(
  path: string,
  dir: string,
): Omit<StorageResult, "locations" | "days" | "syncSeconds"> {
  const db = new Database(path);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const orders = Number(db.prepare("SELECT COUNT(*) FROM orders").pluck().get());
  const tables = tableSizes(db);
  db.close();
  const fileBytes = statSync(path).size;
  const archiveBytes = tables
    .filter((t) => t.name.includes("raw_records") || t.name === "raw_dictionaries")
    .reduce((sum, t) => sum + t.bytes, 0);
  log(
    `   ${int(orders)} orders; ${mb(fileBytes)}: ${int(fileBytes / orders)} bytes per order with the raw archive, ${int((fileBytes - archiveBytes) / orders)} without it`,
  );
  for (const t of tables.slice(0, 8))
    log(`     ${t.name.padEnd(40)} ${int(t.bytes / orders).padStart(6)} bytes per order`);
  const queries = timeQueries(path, "sql");
  printQueries("this layout", queries);
  const previous = join(dir, "storage-previous.sqlite");
  previousLayoutOf(path, previous);
  const previousQueries = timeQueries(previous, "previous");
  const previousDb = new Database(previous, { readonly: true });
  const previousBytes =
    statSync(previous).size -
    tableSizes(previousDb)
      .filter((t) => t.name.includes("raw_records") || t.name === "raw_dictionaries")
      .reduce((sum, t) => sum + t.bytes, 0);
  previousDb.close();
  printQueries(
    `previous layout (JSON in the rows, ${int(previousBytes / orders)} bytes per order)`,
    previousQueries,
  );
  rmSync(previous, { force: true });
  return {
    orders,
    fileBytes,
    archiveBytes,
    bytesPerOrder: fileBytes / orders,
    bytesPerOrderRawOff: (fileBytes - archiveBytes) / orders,
    tables,
    queries,
    previousLayout: { fileBytes: previousBytes, queries: previousQueries },
  };
}
