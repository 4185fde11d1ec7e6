/**
 * The lean layout reached in place: a database as the release before it left it (the rows of
 * orders' and reports' arrays in wide tables that repeat the parent's id and location) is
 * migrated, telling how far it is, and keeps every record, every row of every relation of the
 * contract, every version of the order history and every raw document, on both destinations.
 * The earlier database holds what this version synced (changes and history included), copied
 * column by column into the earlier schema.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresTarget } from "../src/config/config.js";
import type { SyncDestination } from "../src/db/destination.js";
import { PgDestination } from "../src/db/pg/destination.js";
import { internalSchemaOf } from "../src/db/pg/schemas.js";
import { CHILD_RELATIONS } from "../src/db/schema/relations.js";
import { SqliteDestination } from "../src/db/sqlite/destination.js";
import { openDatabase } from "../src/db/sqlite/open.js";
import { archiveRawColumns } from "../src/db/sqlite/upgrades/archive-raw-columns.js";
import type { UpgradeProgress } from "../src/db/upgrade-progress.js";
import { SCHEMA_MIGRATIONS } from "../src/db/upgrade-progress.js";
import { type Simulator, startSimulator } from "../src/simulator/server.js";
import { runCli } from "./helpers/cli.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import {
  copyCommonColumns,
  createOlderDatabase,
  migrationsFrom,
  pgMigrationsAfter,
} from "./helpers/older-schema.js";
import {
  copyCommonColumnsBetweenSchemas,
  migrateAsEarlierRelease,
  usePostgres,
} from "./helpers/postgres.js";
import { SMALL_DATASET } from "./helpers/simulator.js";
import { syncInto } from "./helpers/sync.js";

/** The migrations from the lean layout on (the parents' keys in the rows of their arrays, then
 * the keys of the catalog ids, each with their views; the proofs and row counts since): the
 * earlier release lacks them all, on each destination. */
const MIGRATIONS_SINCE = migrationsFrom("0013_lean_layout");
const PG_MIGRATIONS_SINCE = pgMigrationsAfter("0006_views");
const PG_RELEASE_BEFORE = "0006_views";
const ROW_COUNTS = "SELECT * FROM location_row_counts ORDER BY relation, location_id";

/** Every relation whose rows must survive, each in an order that tells its rows apart. */
const RELATIONS: { name: string; orderBy: string }[] = [
  { name: "orders", orderBy: "id" },
  { name: "reports", orderBy: "id" },
  ...CHILD_RELATIONS.map((r) => ({
    name: r.name,
    orderBy: r.name.startsWith("order_item_")
      ? `${r.parentId}, item_position, position`
      : `${r.parentId}, position`,
  })),
  { name: "order_versions", orderBy: "order_id, version" },
  { name: "raw_records", orderBy: "table_name, location_id, id" },
];

/** Each relation's rows (in `schema`, on PostgreSQL), less the integer keys the lean layout adds
 * and the typed twins SQLite computes for the views since (schema/columns.ts). */
async function contents(
  query: (sql: string) => Promise<Record<string, unknown>[]>,
  schema?: string,
): Promise<Record<string, Record<string, unknown>[]>> {
  const all: Record<string, Record<string, unknown>[]> = {};
  for (const { name, orderBy } of RELATIONS) {
    const relation = schema === undefined ? name : await qualified(query, schema, name);
    all[name] = (await query(`SELECT * FROM ${relation} ORDER BY ${orderBy}`)).map(
      ({ key: _key, ...row }) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => !/_(typed|utc)$/.test(column))),
    );
  }
  return all;
}

/** A relation of a PostgreSQL schema by its qualified name: in the schema, or (pos-sync's own
 * tables since they moved out of it) in its internal twin. */
async function qualified(
  query: (sql: string) => Promise<Record<string, unknown>[]>,
  schema: string,
  name: string,
): Promise<string> {
  const found = await query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = '${schema}' AND table_name = '${name}' LIMIT 1`,
  );
  return `"${found.length > 0 ? schema : internalSchemaOf(schema)}"."${name}"`;
}

/** Contents less the date-times' offsets, which a file of the release before had no column of:
 * the upgrade gives them (compared after it). */
function withoutOffsets(
  all: Record<string, Record<string, unknown>[]>,
): Record<string, Record<string, unknown>[]> {
  return Object.fromEntries(
    Object.entries(all).map(([name, relation]) => [
      name,
      relation.map((row) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => !column.endsWith("_offset"))),
      ),
    ]),
  );
}

const tempPath = useTempDir();
const postgres = usePostgres();
let simulator: Simulator;

/** Syncs what the simulator serves, with a day of late changes in between, so that the order
 * history has versions. */
async function syncWithHistory(open: () => Promise<SyncDestination>): Promise<void> {
  for (const round of [0, 1]) {
    if (round > 0) {
      simulator.dataset.advanceDay();
      simulator.dataset.applyLateUpdates(8, 3);
    }
    const destination = await open();
    try {
      const { result } = await syncInto(simulator, destination);
      expect(result.status).toBe("succeeded");
    } finally {
      await destination.close();
    }
  }
}

const sqlitePath = tempPath();

/** A copy of what was synced, in a file as the release before the lean layout left it. */
function earlierSqliteFile(): string {
  const path = tempPath();
  createOlderDatabase(path, MIGRATIONS_SINCE);
  const earlier = openTestDb(path, { migrate: false });
  copyCommonColumns(earlier.sqlite, sqlitePath);
  // As that release left its files: the typed tables' old `raw` columns dropped.
  archiveRawColumns(earlier.sqlite);
  earlier.close();
  return path;
}

const MY_LINES = `CREATE VIEW my_lines AS SELECT o.id, o.order_number, COUNT(i.position) AS lines
  FROM orders o JOIN order_items i ON i.order_id = o.id GROUP BY o.id`;
const MY_REPORTS = "CREATE VIEW my_reports AS SELECT id, total_sales FROM reports";
/** Over a table of the catalog, which a later migration makes again in the schema's order. */
const MY_PRODUCTS = "CREATE VIEW my_products AS SELECT location_id, id, name FROM products";
/** Over a BI view, which later migrations make again. */
const MY_CLOSINGS = "CREATE VIEW my_closings AS SELECT order_id, closed_at FROM v_orders";
const pgTarget: { current?: PostgresTarget } = {};

beforeAll(async () => {
  simulator = await startSimulator({ ...SMALL_DATASET, seed: 37, changeRate: 4 });
  await syncWithHistory(async () => SqliteDestination.open(sqlitePath, { keepRaw: true }));
  const target = postgres.target();
  pgTarget.current = target;
  await syncWithHistory(() => PgDestination.open(target, { keepRaw: true, poolSize: 4 }));
}, 240_000);

afterAll(async () => {
  await simulator?.close();
});

describe("upgrading to the lean layout", () => {
  it("keeps every record, relation row, version and raw document of a SQLite file, telling its progress", async () => {
    const synced = openTestDb(sqlitePath);
    const expected = await contents(async (sql) => rows(synced, sql));
    const counts = rows(synced, ROW_COUNTS);
    expect(counts.length).toBeGreaterThan(1);
    synced.close();
    expect(expected.order_versions?.length).toBeGreaterThan(0);

    const path = earlierSqliteFile();
    const earlier = openTestDb(path, { migrate: false });
    const wide = rows(earlier, "SELECT type FROM sqlite_master WHERE name = 'order_items'");
    expect(wide).toEqual([{ type: "table" }]);
    expect(await contents(async (sql) => rows(earlier, sql))).toEqual(withoutOffsets(expected));
    // Views of the user's own over the tables the migration rebuilds.
    earlier.sqlite.exec(`${MY_LINES}; ${MY_REPORTS}; ${MY_CLOSINGS}; ${MY_PRODUCTS}`);
    const myProducts = rows(earlier, "SELECT * FROM my_products ORDER BY location_id, id");
    expect(myProducts.length).toBeGreaterThan(0);
    const mine = rows(earlier, "SELECT * FROM my_lines ORDER BY id");
    const myReports = rows(earlier, "SELECT * FROM my_reports ORDER BY id");
    expect(mine.length).toBeGreaterThan(0);
    earlier.close();

    const progress: UpgradeProgress[] = [];
    const upgraded = openDatabase(path, { onUpgradeProgress: (p) => progress.push(p) });
    try {
      expect(await contents(async (sql) => rows(upgraded, sql))).toEqual(expected);
      expect(rows(upgraded, "SELECT type FROM sqlite_master WHERE name = 'order_items'")).toEqual([
        { type: "view" },
      ]);
      expect(rows(upgraded, "PRAGMA foreign_key_check")).toEqual([]);
      expect(rows(upgraded, "SELECT * FROM my_lines ORDER BY id")).toEqual(mine);
      expect(rows(upgraded, "SELECT * FROM my_reports ORDER BY id")).toEqual(myReports);
      expect(rows(upgraded, "SELECT * FROM my_products ORDER BY location_id, id")).toEqual(
        myProducts,
      );
      expect(rows(upgraded, "SELECT * FROM my_closings ORDER BY order_id")).toEqual(
        rows(upgraded, "SELECT order_id, closed_at FROM v_orders ORDER BY order_id"),
      );
      expect(rows(upgraded, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
      // Counted once by the upgrade, as the triggers keep them on a file synced since.
      expect(rows(upgraded, ROW_COUNTS)).toEqual(counts);
      const migrations = progress.filter((p) => p.upgrade === SCHEMA_MIGRATIONS);
      for (const part of ["0013_lean_layout", "0015_id_refs"])
        expect(migrations.some((p) => p.part === part && p.done > 0 && p.done < 1)).toBe(true);
      const shares = migrations.map((p) => p.done);
      expect(shares).toEqual([...shares].sort((a, b) => a - b));
      expect(migrations.at(-1)).toMatchObject({ done: 1, items: MIGRATIONS_SINCE });
    } finally {
      upgraded.close();
    }
  });

  it("leaves out the rows a client with foreign keys off left without their item", () => {
    const path = earlierSqliteFile();
    const earlier = openTestDb(path, { migrate: false });
    const [item] = rows(
      earlier,
      `SELECT i.order_id, i.position FROM order_items i
       JOIN order_item_modifiers m ON m.order_id = i.order_id AND m.item_position = i.position
       LIMIT 1`,
    );
    earlier.sqlite.pragma("foreign_keys = OFF");
    earlier.sqlite
      .prepare("DELETE FROM order_items WHERE order_id = ? AND position = ?")
      .run(item.order_id, item.position);
    const items = rows(earlier, "SELECT COUNT(*) AS n FROM order_items")[0].n;
    const modifiers = rows(
      earlier,
      `SELECT COUNT(*) AS n FROM order_item_modifiers m WHERE EXISTS (SELECT 1 FROM order_items i
         WHERE i.order_id = m.order_id AND i.position = m.item_position)`,
    )[0].n;
    earlier.close();

    const upgraded = openDatabase(path);
    try {
      expect(rows(upgraded, "SELECT COUNT(*) AS n FROM order_items")[0].n).toBe(items);
      expect(rows(upgraded, "SELECT COUNT(*) AS n FROM order_item_modifiers")[0].n).toBe(modifiers);
      expect(rows(upgraded, "PRAGMA foreign_key_check")).toEqual([]);
    } finally {
      upgraded.close();
    }
  });

  it("keeps every record, relation row, version and raw document of a PostgreSQL schema, telling its progress", async () => {
    const current = pgTarget.current as PostgresTarget;
    const expected = await contents((sql) => postgres.query(sql), current.schema);

    const earlier = postgres.target();
    await migrateAsEarlierRelease(earlier, PG_RELEASE_BEFORE);
    await copyCommonColumnsBetweenSchemas(postgres, current.schema, earlier.schema);
    expect(await contents((sql) => postgres.query(sql), earlier.schema)).toEqual(
      withoutOffsets(expected),
    );

    const migrated = await runCli(["migrate"], {
      POS_DB_URL: earlier.url,
      POS_DB_SCHEMA: earlier.schema,
    });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`applied ${PG_MIGRATIONS_SINCE} schema migrations\n`);
    expect(await contents((sql) => postgres.query(sql), earlier.schema)).toEqual(expected);
    const counts = (schema: string) =>
      postgres.query(ROW_COUNTS.replace("FROM ", `FROM ${internalSchemaOf(schema)}.`));
    expect(await counts(earlier.schema)).toEqual(await counts(current.schema));
    const [kind] = await postgres.query(
      "SELECT table_type FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'order_items'",
      [earlier.schema],
    );
    expect(kind.table_type).toBe("VIEW");
  });
});
