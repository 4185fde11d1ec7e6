/**
 * The raw archive: every record's JSON, compressed, apart from the typed tables; read back as
 * text by `pos-sync raw`; switched off by POS_KEEP_RAW=false or --no-raw.
 */
import { describe, expect, it } from "vitest";
import { orderSchema } from "../src/api/schemas.js";
import { validateRecords } from "../src/api/validate.js";
import { toEpochDay } from "../src/clock/days.js";
import { LocalClock } from "../src/clock/local-clock.js";
import { contentHash } from "../src/content-hash.js";
import { CpuLane } from "../src/cpu-lane.js";
import { headerOf, prepareRecord, rowContextOf } from "../src/db/normalize/page.js";
import {
  buildDictionary,
  compressRaw,
  DICTIONARY_BYTES,
  decompressRaw,
} from "../src/db/raw/codec.js";
import { dictionaryDeflater } from "../src/db/raw/deflater.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import type { Db } from "../src/db/sqlite/open.js";
import { readRawRecords } from "../src/db/sqlite/raw-archive.js";
import { ORDERS } from "../src/streams/index.js";
import { AheadCompressor } from "../src/sync/compress-ahead.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { loopTurnedDuring } from "./helpers/event-loop.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { storeDayPage } from "./helpers/pages.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const sim = useSimulator({ locations: 1, days: 4 });
const tempPath = useTempDir();
const range = { since: "2026-03-13", until: TEST_TODAY };

/** The orders the simulator serves for the synced days. */
function servedOrders() {
  const { dataset } = sim.current;
  const days = [toEpochDay(range.since), toEpochDay(range.since) + 1, toEpochDay(range.until)];
  return days.flatMap((day) => dataset.ordersCreatedOn(dataset.locations[0]!, day));
}

describe("the codec", () => {
  it("gives back exactly the JSON it was given, with or without a dictionary", () => {
    const samples = servedOrders().map((order) => JSON.stringify(order));
    const dictionary = buildDictionary(samples);
    expect(dictionary?.length).toBe(DICTIONARY_BYTES);
    const text = `${samples[0]}{"note":"é ✓ \\u0000"}`;
    expect(decompressRaw(compressRaw(text))).toBe(text);
    expect(decompressRaw(compressRaw(text, dictionary), dictionary)).toBe(text);
    // The dictionary is what makes small documents small.
    expect(compressRaw(text, dictionary).length).toBeLessThan(compressRaw(text).length * 0.7);
  });

  it("learns no dictionary from too little JSON", () => {
    expect(buildDictionary(['{"id":"a"}'])).toBeUndefined();
  });

  it("hashes content to a whole number that changes with the content", () => {
    const hash = contentHash('{"id":"a","total":1}');
    expect(Number.isSafeInteger(hash)).toBe(true);
    expect(hash).toBe(contentHash('{"id":"a","total":1}'));
    expect(hash).not.toBe(contentHash('{"id":"a","total":2}'));
  });
});

/** The served orders' JSON, and a dictionary learned from it. */
function documentsAndDictionary(): { samples: string[]; bytes: Buffer } {
  const samples = servedOrders().map((order) => JSON.stringify(order));
  const bytes = buildDictionary(samples);
  if (!bytes) throw new Error("no dictionary");
  return { samples, bytes };
}

describe("the deflater", () => {
  it("makes the payloads compressRaw makes, which read back as the JSON given", () => {
    const { samples, bytes } = documentsAndDictionary();
    const deflater = dictionaryDeflater(bytes);
    // zlib set up once for the dictionary, not once per document.
    expect(deflater.method).toBe("reused stream");
    // Larger than its first output area, and again after it: the reset keeps the dictionary.
    const large = JSON.stringify(samples);
    for (const text of [...samples, large, ...samples.slice(0, 3)]) {
      const payload = Buffer.from(deflater.deflate(text));
      expect(payload.equals(compressRaw(text, bytes))).toBe(true);
      expect(decompressRaw(payload, bytes)).toBe(text);
    }
  });
});

/** A page of these orders on the first synced day, and its records prepared as a sync's reading
 * thread prepares them. */
async function pageOfOrders(orders: readonly unknown[], syncedAt: string) {
  const { records, rejects } = await validateRecords(orderSchema, [...orders], new CpuLane());
  const page = {
    locationId: sim.current.dataset.locations[0]!.location.id,
    day: range.since,
    records,
    rejects,
    runId: null,
    syncedAt,
  };
  const context = rowContextOf(page, LocalClock.of(null));
  return { page, records, prepared: records.map((valid) => prepareRecord(ORDERS, valid, context)) };
}

/** A destination that lends the archive's dictionaries, as to a sync on another thread. */
const compressingAhead = (db: Db, keepRaw = true) =>
  new SqliteDestination(db, { keepRaw, compressAhead: true });

/** What SQLite does to a group of writes on a full disk: rolls it back whole, under the
 * destination's feet, and the write that meets it fails. */
async function loseGroup(db: Db, destination: SqliteDestination): Promise<void> {
  db.sqlite.exec("ROLLBACK");
  db.sqlite.exec(
    "CREATE TEMP TRIGGER full BEFORE INSERT ON main.rejected_records BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
  );
  const reject = { recordId: "x", reason: "test", raw: "{}" };
  const context = { locationId: "loc", runId: null, rejectedAt: "2026-03-16" };
  await expect(destination.recordRejects("orders", [reject], context)).rejects.toThrow();
  db.sqlite.exec("DROP TRIGGER temp.full");
}

describe("compressing ahead, where the page was read", () => {
  it("hands over one buffer of payloads and no text, and the archive stores them as they are", async () => {
    const db = openTestDb(tempPath());
    const store = compressingAhead(db);
    try {
      const orders = servedOrders();
      const first = await pageOfOrders(orders.slice(0, 20), "2026-03-16T12:00:00.000Z");
      // The first page comes as text: the table learns its dictionary from it.
      const compressor = new AheadCompressor(new CpuLane());
      const before = await store.archiveTerms(ORDERS);
      expect(before).toEqual({ keep: true, dictionary: null });
      expect(await compressor.prepare(first.prepared, before)).toBeUndefined();
      await store.writePage(ORDERS, headerOf(first.page), first.prepared);

      const second = await pageOfOrders(orders.slice(20), "2026-03-16T12:00:00.000Z");
      const terms = await store.archiveTerms(ORDERS);
      const buffer = await compressor.prepare(second.prepared, terms);
      expect(buffer).toBeInstanceOf(ArrayBuffer);
      for (const record of second.prepared) {
        expect(record.raw).toBeUndefined();
        expect(record.compressed?.payload.buffer).toBe(buffer);
      }
      const payloadOf = (id: string) =>
        scalar(db, "SELECT payload FROM raw_records WHERE id = ?", id) as Buffer;
      await store.writePage(ORDERS, headerOf(second.page), second.prepared);
      second.prepared.forEach((record, i) => {
        const stored = payloadOf(record.rows.parent.id);
        expect(stored.equals(Buffer.from(record.compressed?.payload ?? []))).toBe(true);
        expect(readRawRecords(db.sqlite, "orders", record.rows.parent.id)[0]?.json).toBe(
          second.records[i]?.raw,
        );
      });
    } finally {
      await store.close();
    }
  });

  it("lets replies in while it compresses a long page", async () => {
    const db = openTestDb(tempPath());
    const store = compressingAhead(db);
    try {
      const orders = servedOrders();
      const first = await pageOfOrders(orders.slice(0, 20), "2026-03-16T12:00:00.000Z");
      await store.writePage(ORDERS, headerOf(first.page), first.prepared);
      const terms = await store.archiveTerms(ORDERS);
      const { prepared } = await pageOfOrders([...orders, ...orders], "2026-03-16T12:00:00.000Z");
      const compressor = new AheadCompressor(new CpuLane());
      expect(await loopTurnedDuring(() => compressor.prepare(prepared, terms))).toBe(true);
      expect(prepared.every((record) => record.compressed !== undefined)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("sends neither text nor payloads when the archive keeps no JSON", async () => {
    const db = openTestDb(tempPath());
    const store = compressingAhead(db, false);
    try {
      const { page, prepared } = await pageOfOrders(servedOrders(), "2026-03-16T12:00:00.000Z");
      const terms = await store.archiveTerms(ORDERS);
      expect(terms).toEqual({ keep: false });
      expect(await new AheadCompressor(new CpuLane()).prepare(prepared, terms)).toBeUndefined();
      expect(prepared.every((record) => record.raw === undefined && !record.compressed)).toBe(true);
      expect((await store.writePage(ORDERS, headerOf(page), prepared)).inserted).toBe(
        prepared.length,
      );
      expect(scalar(db, "SELECT COUNT(*) FROM raw_records")).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("reads back and compresses again what was compressed with a dictionary rolled back since", async () => {
    const db = openTestDb(tempPath());
    const store = compressingAhead(db);
    try {
      const orders = servedOrders();
      const syncedAt = "2026-03-16T12:00:00.000Z";
      // Inside a group of writes that will be lost: the table learns a dictionary, lent at once.
      const early = await pageOfOrders(orders.slice(0, 20), syncedAt);
      await store.writePage(ORDERS, headerOf(early.page), early.prepared);
      const late = await pageOfOrders(orders.slice(40), syncedAt);
      await new AheadCompressor(new CpuLane()).prepare(
        late.prepared,
        await store.archiveTerms(ORDERS),
      );
      expect(late.prepared[0]?.compressed).toBeDefined();
      await loseGroup(db, store);

      // Another page teaches the table another dictionary, under the same row id.
      const other = await pageOfOrders(orders.slice(20, 40), syncedAt);
      await store.writePage(ORDERS, headerOf(other.page), other.prepared);
      expect(scalar(db, "SELECT COUNT(*) FROM raw_dictionaries")).toBe(1);
      await store.writePage(ORDERS, headerOf(late.page), late.prepared);
      late.records.forEach(({ record, raw }) => {
        expect(readRawRecords(db.sqlite, "orders", record.id)[0]?.json).toBe(raw);
      });
    } finally {
      await store.close();
    }
  });
});

describe("a page write that fails", () => {
  it("takes the dictionary and the ids it added along, and the next write adds them again", async () => {
    const db = openTestDb(tempPath());
    const store = new SqliteDestination(db);
    try {
      const { page, records } = await pageOfOrders(servedOrders(), "2026-03-16T12:00:00.000Z");
      // A real failure inside the page's transaction, after the archive learned its dictionary
      // and the first order's ids were added to api_ids (a key remembered from the rolled-back
      // write would fail the next one's foreign key).
      db.sqlite.exec(
        "CREATE TEMP TRIGGER fail_items BEFORE INSERT ON main.order_item_rows BEGIN SELECT RAISE(ABORT, 'disk trouble'); END",
      );
      await expect(storeDayPage(store, ORDERS, page)).rejects.toThrow(/disk trouble/);
      db.sqlite.exec("DROP TRIGGER temp.fail_items");
      expect(scalar(db, "SELECT COUNT(*) FROM raw_dictionaries")).toBe(0);
      expect(scalar(db, "SELECT COUNT(*) FROM api_ids")).toBe(0);

      expect((await storeDayPage(store, ORDERS, page)).inserted).toBe(records.length);
      for (const { record, raw } of records)
        expect(readRawRecords(db.sqlite, "orders", record.id)[0]?.json).toBe(raw);
    } finally {
      await store.close();
    }
  });
});

describe("a sync with the archive on (the default)", () => {
  it("archives every record's JSON as served, and pos-sync raw prints it back", async () => {
    const path = tempPath();
    const db = openTestDb(path);
    const { result } = await syncOnce(sim.current, db, { range });
    expect(result.status).toBe("succeeded");
    expect(await compareWithDataset(db, sim.current.dataset, range)).toEqual([]);
    // No typed table holds JSON text any more.
    for (const table of ["orders", "reports", "locations", "products", "devices"]) {
      const columns = rows(db, `SELECT name FROM pragma_table_info('${table}')`).map((c) => c.name);
      expect(columns, table).not.toContain("raw");
      expect(columns, table).toContain("content_hash");
    }
    const [order] = rows(db, "SELECT id, location_id FROM orders ORDER BY id LIMIT 1");
    db.close();

    const printed = await runCli(["raw", "orders", order.id], simulatorEnv(sim.current, path));
    expect(printed.stderr).toBe("");
    expect(printed.code).toBe(0);
    const served = servedOrders().find((o) => o.id === order.id);
    expect(printed.stdout).toBe(`${JSON.stringify(served)}\n`);
  });

  it("says so, in one line with exit 1, when a record is not in the archive", async () => {
    const path = tempPath();
    openTestDb(path).close();
    const missing = await runCli(["raw", "orders", "no-such-id"], { POS_DB_PATH: path });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "pos-sync: no raw JSON of orders no-such-id in the archive (not synced, or synced with POS_KEEP_RAW=false)\n",
    );
    const badTable = await runCli(["raw", "order_items", "x"], { POS_DB_PATH: path });
    expect(badTable.code).toBe(2);
    expect(badTable.stderr).toMatch(/^pos-sync: raw takes a table \(one of orders, reports/);
  });
});

describe("a sync with the archive off", () => {
  it("keeps no JSON, and removes the archived JSON of a record that changes", async () => {
    const db = openTestDb(tempPath());
    await syncOnce(sim.current, db, { range });
    const archived = scalar(db, "SELECT COUNT(*) FROM raw_records") as number;
    expect(archived).toBeGreaterThan(100);
    // An order whose stored version differs (its hash) is rewritten: with the archive off, its
    // earlier JSON goes rather than stay as a stale version.
    const [order] = rows(db, "SELECT id FROM orders ORDER BY id LIMIT 1");
    db.sqlite.prepare("UPDATE order_rows SET content_hash = 0 WHERE id = ?").run(order.id);
    const { result } = await syncOnce(sim.current, db, {
      range,
      configOverrides: { keepRaw: false },
    });
    expect(result.stats.totals("orders").updated).toBe(1);
    expect(readRawRecords(db.sqlite, "orders", order.id)).toEqual([]);
    expect(scalar(db, "SELECT COUNT(*) FROM raw_records")).toBe(archived - 1);
    db.close();

    const fresh = openTestDb(tempPath());
    await syncOnce(sim.current, fresh, { range, configOverrides: { keepRaw: false } });
    expect(scalar(fresh, "SELECT COUNT(*) FROM raw_records")).toBe(0);
    expect(
      await compareWithDataset(fresh, sim.current.dataset, { ...range, rawArchive: false }),
    ).toEqual([]);
    fresh.close();
  });

  it("is what sync --no-raw does", async () => {
    const path = tempPath();
    const run = await runCli(
      ["sync", "--no-raw", "--since", range.since, "--until", range.until],
      simulatorEnv(sim.current, path),
    );
    expect(run.code).toBe(0);
    const db = openTestDb(path);
    expect(scalar(db, "SELECT COUNT(*) FROM orders")).toBeGreaterThan(100);
    expect(scalar(db, "SELECT COUNT(*) FROM raw_records")).toBe(0);
    db.close();
  });
});
