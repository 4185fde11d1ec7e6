/**
 * Benchmarks 1 and 2: the real write path (JSON → validation → normalization → compression of
 * the raw JSON → upsert, one transaction per 100-order page, through the sync's destination) against hand-written prepared statements inserting the same
 * rows with the same schema, pragmas and transaction size; then the same orders offered again
 * (the no-change re-sync); and the machine's plain floor.
 */

import { rmSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { orderSchema } from "../src/api/schemas.js";
import { validateRecords } from "../src/api/validate.js";
import { LocalClock } from "../src/clock/local-clock.js";
import { CpuLane } from "../src/cpu-lane.js";
import { normalizeOrder, type OrderRows } from "../src/db/normalize/order.js";
import { buildDictionary, compressRaw } from "../src/db/raw/codec.js";
import {
  idRefsOf,
  orderItemDiscountRows,
  orderItemModifierRows,
  orderItemRows,
  orderPaymentRows,
  orderRows,
} from "../src/db/schema/index.js";
import { tableName, writtenColumnNames } from "../src/db/sql/table.js";
import { ApiIds } from "../src/db/sqlite/api-ids.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { openDatabase } from "../src/db/sqlite/open.js";
import { Dataset } from "../src/simulator/dataset.js";
import { ORDERS } from "../src/streams/index.js";
import { PageNormalizer } from "../src/sync/normalize-page.js";
import { dec, int, log, now, seconds } from "./lib.js";

const PAGE_SIZE = 100;
const LOCATION_ID = "bench-location";
const DAY = "2026-01-01";

export interface IngestResult {
  orders: number;
  rowsPerOrder: number;
  real: {
    seconds: number;
    ordersPerSecond: number;
    rowsPerSecond: number;
    parseMicrosPerOrder: number;
  };
  baseline: { seconds: number; ordersPerSecond: number; rowsPerSecond: number };
  ratio: number;
  resync: { seconds: number; ordersPerSecond: number; rowsWritten: number };
  floor: { rows: number; seconds: number; rowsPerSecond: number };
}

/** Pages of orders as the API sends them (the JSON of `data`), generated before any timing. */
export function pagesOf(count: number): string[] {
  const perDay = 1_000;
  const dataset = new Dataset({
    seed: 2026,
    locations: 1,
    days: Math.ceil(count / perDay) + 2,
    today: "2026-11-22",
    ordersPerDay: [perDay, perDay],
    itemsPerOrder: [5, 9],
  });
  const location = dataset.locations[0];
  if (!location) throw new Error("no location");
  const pages: string[] = [];
  let page: unknown[] = [];
  let made = 0;
  for (const order of dataset.allOrders(location)) {
    page.push(order);
    if (++made === count) break;
    if (page.length === PAGE_SIZE) {
      pages.push(JSON.stringify(page));
      page = [];
    }
  }
  if (page.length > 0) pages.push(JSON.stringify(page));
  return pages;
}

function freshDatabase(path: string) {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  return openDatabase(path);
}

/** Pages in flight at once, as the sync's windows overlap. */
const PAGES_IN_FLIGHT = 2;

/**
 * The real path, page by page, through the destination the sync writes to: validation,
 * normalization, compression and upsert, timed together as wall time;
 * JSON.parse, which the transport does on arrival, timed apart (the hand-written baseline has no
 * parsing either) and taken out.
 */
async function realPath(
  destination: SqliteDestination,
  pages: readonly string[],
): Promise<{ seconds: number; parseSeconds: number; rows: number; changes: number }> {
  const { sqlite } = destination.db;
  const changesBefore = sqlite.prepare("SELECT total_changes()").pluck().get() as number;
  const syncedAt = new Date().toISOString();
  const normalizer = new PageNormalizer(destination);
  let rows = 0;
  let parseSeconds = 0;
  const inFlight: Promise<unknown>[] = [];
  const start = now();
  for (const text of pages) {
    const parseStart = now();
    const data = JSON.parse(text) as unknown[];
    parseSeconds += seconds(parseStart);
    const { records, rejects } = await validateRecords(orderSchema, data, new CpuLane());
    const page = { locationId: LOCATION_ID, day: DAY, records, rejects, runId: null, syncedAt };
    inFlight.push(
      normalizer.store(ORDERS, page).then((counts) => {
        rows += counts.rowsWritten;
      }),
    );
    if (inFlight.length >= PAGES_IN_FLIGHT) await inFlight.shift();
  }
  await Promise.all(inFlight);
  // The daily summaries, as the engine sums them at the end of each day window.
  await destination.settleSummaries();
  // Durable, as at the end of a run: the writes commit in groups (group-commit.ts).
  await destination.commit();
  const elapsed = seconds(start) - parseSeconds;
  const changes =
    (sqlite.prepare("SELECT total_changes()").pluck().get() as number) - changesBefore;
  return { seconds: elapsed, parseSeconds, rows, changes };
}

/** INSERT INTO t (a, b, …) VALUES (?, ?, …), written out for one table; the positions of its
 * ids kept by their keys (api_ids), which rows bring as ids (relations.ts). */
function handWritten(sqlite: Database.Database, table: Parameters<typeof tableName>[0]) {
  const columns = writtenColumnNames(table);
  const statement = sqlite.prepare(
    `INSERT INTO ${tableName(table)} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  const idRefs = idRefsOf(table);
  return {
    statement,
    fields: columns.map((c) => idRefs.find((k) => k.stored === c)?.shown ?? c),
    keyedAt: idRefs.map((k) => columns.indexOf(k.stored)),
  };
}

/**
 * The same rows, inserted with hand-written positional statements; only the inserts timed, and
 * the compression of each order's JSON into the raw archive (the same codec and dictionary as
 * the real path: a hand-written writer that keeps the JSON has that work too).
 */
function baseline(
  sqlite: Database.Database,
  pages: readonly string[],
): { seconds: number; rows: number } {
  const parent = handWritten(sqlite, orderRows);
  const children = [
    orderItemRows,
    orderItemModifierRows,
    orderItemDiscountRows,
    orderPaymentRows,
  ].map((t) => handWritten(sqlite, t));
  const apiIds = new ApiIds(sqlite);
  const archive = sqlite.prepare(
    "INSERT INTO raw_records (table_name, location_id, id, dictionary_id, payload, synced_at) VALUES ('orders', ?, ?, 1, ?, ?)",
  );
  const dictionary = buildDictionary(pages[0] ? [pages[0]] : []);
  if (!dictionary) throw new Error("no dictionary from the first page");
  sqlite
    .prepare(
      "INSERT INTO raw_dictionaries (id, table_name, dictionary, created_at) VALUES (1, 'orders', ?, ?)",
    )
    .run(dictionary, new Date().toISOString());
  const syncedAt = new Date().toISOString();
  let elapsed = 0;
  let rows = 0;
  for (const text of pages) {
    // Untimed: turning the page into rows (as positional arrays) is the real path's job, not the
    // baseline's. A child row's first value, its order's key, is filled in as the order is.
    const pageOrders: { order: unknown[]; children: unknown[][][] }[] = [];
    const raws: { id: string; raw: string }[] = [];
    for (const value of JSON.parse(text) as unknown[]) {
      const record = orderSchema.parse(value);
      raws.push({ id: record.id, raw: JSON.stringify(value) });
      const normalized: OrderRows = normalizeOrder(record, JSON.stringify(value), {
        locationId: LOCATION_ID,
        businessDate: DAY,
        clock: LocalClock.AS_SENT,
        syncedAt,
      });
      const positional = (fields: string[], row: object) =>
        fields.map((c) => (row as Record<string, unknown>)[c]);
      const groups = [
        normalized.items,
        normalized.modifiers,
        normalized.discounts,
        normalized.payments,
      ];
      pageOrders.push({
        order: positional(parent.fields, normalized.order),
        children: groups.map((group, i) =>
          group.map((row) => positional((children[i] as (typeof children)[number]).fields, row)),
        ),
      });
    }
    const insertPage = sqlite.transaction(() => {
      for (const { order, children: groups } of pageOrders) {
        for (const at of parent.keyedAt) {
          const id = order[at];
          order[at] = id == null ? null : apiIds.keyOf(id as string);
        }
        const key = parent.statement.run(order).lastInsertRowid;
        groups.forEach((group, i) => {
          const { statement, keyedAt } = children[i] as (typeof children)[number];
          for (const values of group) {
            values[0] = key;
            for (const at of keyedAt) values[at] = apiIds.keyOf(values[at] as string);
            statement.run(values);
          }
        });
      }
      for (const { id, raw } of raws)
        archive.run(LOCATION_ID, id, compressRaw(raw, dictionary), syncedAt);
    });
    const start = now();
    insertPage();
    elapsed += seconds(start);
    rows +=
      pageOrders.reduce(
        (sum, { children: groups }) => sum + 1 + groups.reduce((n, g) => n + g.length, 0),
        0,
      ) + raws.length;
  }
  return { seconds: elapsed, rows };
}

/** The machine's floor: one-row inserts of a small table, 10,000 per transaction. */
function floor(path: string, rows: number): { seconds: number } {
  const db = freshDatabase(path);
  db.sqlite.exec(
    "CREATE TABLE floor (id INTEGER PRIMARY KEY, label TEXT NOT NULL, amount REAL NOT NULL)",
  );
  const insert = db.sqlite.prepare("INSERT INTO floor (id, label, amount) VALUES (?, ?, ?)");
  const batch = db.sqlite.transaction((from: number) => {
    for (let id = from; id < from + 10_000; id++) insert.run(id, "row", id * 0.01);
  });
  const start = now();
  for (let from = 0; from < rows; from += 10_000) batch(from);
  const elapsed = seconds(start);
  db.close();
  return { seconds: elapsed };
}

export async function benchIngest(options: {
  orders: number;
  floorRows: number;
  dir: string;
}): Promise<IngestResult> {
  log(`1. ingest: generating ${int(options.orders)} orders…`);
  const pages = pagesOf(options.orders);

  const destination = new SqliteDestination(freshDatabase(join(options.dir, "ingest-real.sqlite")));
  const real = await realPath(destination, pages);
  const baseDb = freshDatabase(join(options.dir, "ingest-baseline.sqlite"));
  const base = baseline(baseDb.sqlite, pages);
  baseDb.close();
  log("2. re-sync of unchanged data…");
  const resync = await realPath(destination, pages);
  await destination.close();
  const floorResult = floor(join(options.dir, "floor.sqlite"), options.floorRows);

  const result: IngestResult = {
    orders: options.orders,
    rowsPerOrder: real.rows / options.orders,
    real: {
      seconds: real.seconds,
      ordersPerSecond: options.orders / real.seconds,
      rowsPerSecond: real.rows / real.seconds,
      parseMicrosPerOrder: (real.parseSeconds * 1e6) / options.orders,
    },
    baseline: {
      seconds: base.seconds,
      ordersPerSecond: options.orders / base.seconds,
      rowsPerSecond: base.rows / base.seconds,
    },
    ratio: base.seconds / real.seconds,
    resync: {
      seconds: resync.seconds,
      ordersPerSecond: options.orders / resync.seconds,
      rowsWritten: resync.changes,
    },
    floor: {
      rows: options.floorRows,
      seconds: floorResult.seconds,
      rowsPerSecond: options.floorRows / floorResult.seconds,
    },
  };
  log(`   ${int(result.orders)} orders, ${dec(result.rowsPerOrder)} rows per order`);
  log(
    `   real path:   ${int(result.real.ordersPerSecond)} orders/s, ${int(result.real.rowsPerSecond)} rows/s (${dec(result.real.seconds)} s)`,
  );
  log(
    `   hand-written: ${int(result.baseline.ordersPerSecond)} orders/s, ${int(result.baseline.rowsPerSecond)} rows/s (${dec(result.baseline.seconds)} s)`,
  );
  log(
    `   ratio: ${dec(result.ratio)} (target >= 0.60); JSON.parse on arrival, apart: ${dec(result.real.parseMicrosPerOrder)} µs per order`,
  );
  log(
    `   floor: ${int(result.floor.rows)} one-row inserts, ${int(result.floor.rowsPerSecond)} rows/s`,
  );
  log(
    `   re-sync: ${int(result.resync.ordersPerSecond)} orders/s, ${int(result.resync.rowsWritten)} rows written (must be 0)`,
  );
  return result;
}
