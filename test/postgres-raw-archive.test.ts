/**
 * The raw archive on PostgreSQL keeps each record's JSON as the API sent it, as SQLite does: the
 * same text, byte for byte (keys in the API's order, numbers as written), through `pos-sync raw`
 * and the SQL that reads fields out of it, however many documents one write brings; and a schema
 * an earlier release made (jsonb documents) migrates in place.
 */
import { describe, expect, it } from "vitest";
import { utcOffsetOf } from "../src/clock/offsets.js";
import { openPool } from "../src/db/pg/connect.js";
import { PgDestination } from "../src/db/pg/destination.js";
import { PgRawArchive } from "../src/db/pg/raw-archive.js";
import { openPgRawDocuments } from "../src/db/pg/reader.js";
import { internalSchemaOf } from "../src/db/pg/schemas.js";
import { readRawRecords } from "../src/db/sqlite/raw-archive.js";
import { startSimulator } from "../src/simulator/server.js";
import { runCli } from "./helpers/cli.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { migrateAsEarlierRelease, usePostgres } from "./helpers/postgres.js";
import { SMALL_DATASET } from "./helpers/simulator.js";
import { syncInto, syncOnce } from "./helpers/sync.js";

const pg = usePostgres();
const tempPath = useTempDir();

/** The release before raw_records.document became json. */
const JSONB_RELEASE = "0004_loss_prevention_views";

/** What PostgreSQL keeps of an escaped NUL (src/db/pg/text.ts): the rest is the text as sent. */
function withoutNul(json: string): string {
  return json.replaceAll("\\u0000", "\\ufffd");
}

function env(target: { url: string; schema: string }) {
  return { POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema };
}

describe("the raw archive on PostgreSQL", () => {
  it("keeps every record's JSON byte for byte as SQLite does, and pos-sync raw prints it so", async () => {
    const simulator = await startSimulator({ ...SMALL_DATASET, days: 4, seed: 103, hostile: true });
    const db = openTestDb(tempPath());
    const target = pg.target();
    try {
      expect((await syncOnce(simulator, db)).result.status).toBe("succeeded");
      const destination = await PgDestination.open(target, { keepRaw: true, poolSize: 4 });
      try {
        expect((await syncInto(simulator, destination)).result.status).toBe("succeeded");
      } finally {
        await destination.close();
      }

      // SQLite's archive holds the text as received: PostgreSQL's must read back the same.
      const archived = rows(db, "SELECT table_name, id, location_id FROM raw_records");
      expect(archived.length).toBeGreaterThan(100);
      const reader = await openPgRawDocuments(target);
      const differing: string[] = [];
      try {
        for (const { table_name: table, id, location_id: locationId } of archived) {
          const [sent] = readRawRecords(db.sqlite, table, id, locationId).map((d) => d.json);
          const kept = await reader.documents(table, id, locationId);
          if (sent === undefined || kept.length !== 1 || kept[0] !== withoutNul(sent))
            differing.push(`${table} ${id}`);
        }
      } finally {
        await reader.close();
      }
      expect(differing).toEqual([]);
      // jsonb would have kept the content only: every document's text would differ.
      const [{ normalised }] = await pg.query(
        `SELECT COUNT(*) FILTER (WHERE document::jsonb::text <> document::text)::int AS normalised
         FROM ${internalSchemaOf(target.schema)}.raw_records`,
      );
      expect(normalised).toBe(archived.length);

      // An order with an amount in exponent form (1e-9), which jsonb writes out as a decimal.
      const tiny = archived
        .filter((r) => r.table_name === "orders")
        .map((r) => readRawRecords(db.sqlite, "orders", r.id, r.location_id)[0]!.json)
        .find((json) => json.includes('"total":1e-9'));
      expect(tiny).toBeDefined();
      const order = JSON.parse(tiny!) as { id: string };
      const printed = await runCli(["raw", "orders", order.id], env(target));
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toBe(`${tiny}\n`);
    } finally {
      db.close();
      await simulator.close();
    }
  });

  it("reads the fields the sync needs out of the archived text (time zone, UTC offset)", async () => {
    const simulator = await startSimulator({ ...SMALL_DATASET, days: 3, seed: 103, hostile: true });
    const target = pg.target();
    try {
      const destination = await PgDestination.open(target, { keepRaw: true, poolSize: 2 });
      try {
        expect((await syncInto(simulator, destination)).result.status).toBe("succeeded");
        const [order] = await pg.query(
          `SELECT o.location_id, r.document ->> 'closedAt' AS sent, r.document::text AS text
           FROM ${target.schema}.orders o JOIN ${internalSchemaOf(target.schema)}.raw_records r
             ON r.table_name = 'orders' AND r.id = o.id AND r.location_id = o.location_id
           LIMIT 1`,
        );
        expect(order.sent).toBe(JSON.parse(order.text).closedAt);
        // The offset the API wrote lives in the archive alone (the stored instants are UTC's).
        const written = utcOffsetOf(order.sent);
        expect(written).not.toBe(0);
        expect(await destination.utcOffsetMinutes(order.location_id, new Date())).toBe(written);
        // Reads closedAt out of every order of the location, the hostile ones included: hours
        // written with an offset stay as written, where the stored UTC instants would move.
        const change = await destination.useTimeZone(order.location_id, "Pacific/Kiritimati");
        expect(change).toMatchObject({ rows: 0 });
      } finally {
        await destination.close();
      }
    } finally {
      await simulator.close();
    }
  });

  it("keeps the offsets an API wrote when a time zone is set with the archive off, and moves those of UTC text", async () => {
    const local = await startSimulator({ ...SMALL_DATASET, days: 2, seed: 107 });
    const utc = await startSimulator({ ...SMALL_DATASET, days: 2, seed: 107, utcTimestamps: true });
    try {
      for (const [simulator, moves] of [
        [local, false],
        [utc, true],
      ] as const) {
        const target = pg.target();
        const destination = await PgDestination.open(target, { keepRaw: false, poolSize: 2 });
        try {
          expect((await syncInto(simulator, destination)).result.status).toBe("succeeded");
          const locationId = simulator.dataset.locations[0]?.location.id as string;
          const wallClocks = () =>
            pg.query(
              `SELECT order_id, closed_at FROM ${target.schema}.v_orders
               WHERE location_id = $1 ORDER BY order_id`,
              [locationId],
            );
          const before = await wallClocks();
          expect(before.length).toBeGreaterThan(0);
          const change = await destination.useTimeZone(locationId, "Pacific/Kiritimati");
          if (moves) {
            // UTC text: every wall clock moves onto the zone's (+14:00).
            expect(change?.rows).toBeGreaterThan(0);
            expect(await wallClocks()).not.toEqual(before);
          } else {
            // The API's own offsets: no setting moves them, archive or not.
            expect(change).toMatchObject({ rows: 0 });
            expect(await wallClocks()).toEqual(before);
          }
        } finally {
          await destination.close();
        }
      }
    } finally {
      await local.close();
      await utc.close();
    }
  });

  it("migrates an earlier release's jsonb archive in place, its documents keeping jsonb's text", async () => {
    const target = pg.target();
    await migrateAsEarlierRelease(target, JSONB_RELEASE);
    const sent = '{"id":"r-1","total":1e-9,"b":1,"a":[1,2]}';
    await pg.query(
      `INSERT INTO ${target.schema}.raw_records (table_name, location_id, id, document, synced_at)
       VALUES ('orders', 'loc-1', 'r-1', $1::jsonb, now())`,
      [sent],
    );
    const [{ normalised }] = await pg.query("SELECT $1::jsonb::text AS normalised", [sent]);

    const migrated = await runCli(["migrate"], env(target));
    expect(migrated.code, migrated.stderr).toBe(0);
    const [column] = await pg.query(
      `SELECT data_type FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = 'raw_records' AND column_name = 'document'`,
      [internalSchemaOf(target.schema)],
    );
    expect(column.data_type).toBe("json");
    const old = await runCli(["raw", "orders", "r-1"], env(target));
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toBe(`${normalised}\n`);
  });
  it("archives more documents than one statement takes, each whole, and replaces them so", async () => {
    const target = pg.target();
    await (await PgDestination.open(target, { keepRaw: true, poolSize: 1 })).close();
    // A catalog of 17,000 records is one call: more than one statement of 65,535 parameters takes.
    const documents = (version: number) =>
      Array.from({ length: 17_000 }, (_, i) => ({
        tableName: "products",
        locationId: "location-1",
        id: `product-${String(i).padStart(5, "0")}`,
        raw: `{ "id":"product-${i}",  "name":"Café \\"n°${i}\\"", "version":${version}, "note":"\\u0000" }`,
      }));
    const pool = openPool(target, 1);
    const client = await pool.connect();
    try {
      for (const version of [1, 2]) {
        await client.query("BEGIN");
        const written = await new PgRawArchive(true).put(
          client,
          documents(version),
          "2026-11-26T10:00:00Z",
        );
        await client.query("COMMIT");
        expect(written).toBe(17_000);
      }
    } finally {
      client.release();
      await pool.end();
    }
    const kept = await pg.query(
      `SELECT id, document::text AS text FROM ${internalSchemaOf(target.schema)}.raw_records ORDER BY id`,
    );
    expect(kept.map((row) => ({ id: row.id, text: row.text }))).toEqual(
      documents(2).map((d) => ({ id: d.id, text: withoutNul(d.raw) })),
    );
  });
});
