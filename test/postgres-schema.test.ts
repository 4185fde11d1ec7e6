/**
 * The PostgreSQL destination's schema: the same tables, columns and views as SQLite's, in native
 * types, made by `pos-sync migrate` in the configured schema, safely when several processes
 * migrate at once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg_ from "pg";
import { describe, expect, it } from "vitest";
import { describePostgresUrl } from "../src/config/config.js";
import { PG_MIGRATIONS_FOLDER } from "../src/db/pg/migrate.js";
import { pgColumnType } from "../src/db/pg/types.js";
import { CHILD_RELATIONS, CONTRACT_TABLES, ORDERS_RELATION } from "../src/db/schema/relations.js";
import { BI_VIEWS } from "../src/db/sql/bi-views.js";
import { COLUMN_DECLARATIONS } from "../src/db/sql/view-columns.js";
import { packagePath } from "../src/package-root.js";
import { runCli } from "./helpers/cli.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { usePostgres } from "./helpers/postgres.js";

const pg = usePostgres();
const pgClient = pg_.Client;
const tempPath = useTempDir();

const migrations = (
  JSON.parse(readFileSync(join(PG_MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  }
).entries.length;

/** What SQLite keeps for itself alone: the types its views declare, its archive's dictionaries,
 * its single-writer lease, the upgrades of older files, drizzle's journal. */
const SQLITE_ONLY = new Set([
  "view_column_types",
  "raw_dictionaries",
  "writer_lease",
  "schema_upgrades",
  "__drizzle_migrations",
]);

/** What PostgreSQL keeps for itself alone: which worker synced which location when. */
const POSTGRES_ONLY = new Set(["location_claims"]);

function sqliteContract(): { tables: Map<string, string[]>; views: string[] } {
  const db = openTestDb(tempPath());
  try {
    const tables = new Map<string, string[]>();
    for (const { name } of rows(
      db,
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )) {
      if (SQLITE_ONLY.has(name)) continue;
      tables.set(
        name,
        rows(db, `SELECT name FROM pragma_table_info('${name}')`).map((c) => c.name as string),
      );
    }
    const views = rows(db, "SELECT name FROM sqlite_master WHERE type = 'view'").map(
      (v) => v.name as string,
    );
    return { tables, views };
  } finally {
    db.close();
  }
}

async function migrate(env: Record<string, string>) {
  return runCli(["migrate"], env);
}

async function columnTypes(schema: string, table: string): Promise<Record<string, string>> {
  const found = await pg.query(
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2",
    [schema, table],
  );
  return Object.fromEntries(found.map((c) => [c.column_name, c.data_type]));
}

describe("PostgreSQL schema", () => {
  it("creates every table, column and view of the contract, and is up to date the next time", async () => {
    const target = pg.target();
    const env = { POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema };
    const where = `the schema ${target.schema} of ${describePostgresUrl(target.url)}`;
    const first = await migrate(env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(`created ${where} (${migrations} migrations applied)`);
    const again = await migrate(env);
    expect(again.stdout.trim()).toBe(
      `${where} is already up to date (${migrations} migrations applied)`,
    );

    const sqlite = sqliteContract();
    const tables = await pg.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
      [target.schema],
    );
    const pgTables = tables
      .map((t) => t.table_name as string)
      .filter((t) => !SQLITE_ONLY.has(t) && !POSTGRES_ONLY.has(t));
    expect(pgTables.sort()).toEqual([...sqlite.tables.keys()].sort());
    for (const [table, columns] of sqlite.tables) {
      if (table === "raw_records") continue; // json documents instead of compressed payloads
      expect(Object.keys(await columnTypes(target.schema, table)).sort(), table).toEqual(
        [...columns].sort(),
      );
    }
    const views = await pg.query(
      "SELECT table_name FROM information_schema.views WHERE table_schema = $1",
      [target.schema],
    );
    expect(views.map((v) => v.table_name).sort()).toEqual([...sqlite.views].sort());
    for (const view of sqlite.views) {
      expect(await pg.query(`SELECT * FROM ${target.schema}.${view}`)).toEqual([]);
    }
  });

  it("stores flags, days, date-times, money, JSON and hashes in native types", async () => {
    const target = pg.target();
    const result = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(result.code, result.stderr).toBe(0);
    const orders = await columnTypes(target.schema, "orders");
    expect(orders).toMatchObject({
      is_canceled: "boolean",
      business_date: "date",
      created_at: "timestamp with time zone",
      total: "numeric",
      guests: "numeric",
      menus: "jsonb",
      tips: "jsonb",
      content_hash: "bigint",
      closed_hour: "bigint",
      order_number: "text",
    });
    // The archive keeps the text as received: json, not jsonb (which re-orders keys).
    expect(await columnTypes(target.schema, "raw_records")).toMatchObject({ document: "json" });
    expect(await columnTypes(target.schema, "sync_runs")).toMatchObject({
      id: "bigint",
      stats: "jsonb",
      started_at: "timestamp with time zone",
    });
    expect(await columnTypes(target.schema, "report_clerk_shifts")).toMatchObject({
      clock_in_date: "timestamp with time zone",
    });
  });

  it("declares every column of the BI views as its definition types it, money with its scale", async () => {
    const target = pg.target();
    const result = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(result.code, result.stderr).toBe(0);
    const spelled: Record<string, string> = {
      timestamptz: "timestamp with time zone",
      timestamp: "timestamp without time zone",
    };
    for (const view of BI_VIEWS) {
      const found = await pg.query(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 ORDER BY a.attnum`,
        [target.schema, view.name],
      );
      expect(
        found.map((c) => [c.name, c.type]),
        view.name,
      ).toEqual(
        view.columns.map((c) => {
          const type = COLUMN_DECLARATIONS[c.type].postgres;
          return [c.name, spelled[type] ?? type];
        }),
      );
    }
  });

  it("comments every relation and view of the contract, and each of their columns, in the data dictionary's words", async () => {
    const target = pg.target();
    const result = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(result.code, result.stderr).toBe(0);
    const uncommented = await pg.query(
      `SELECT c.relname AS relation, a.attname AS column,
              obj_description(c.oid, 'pg_class') AS relation_comment,
              col_description(c.oid, a.attnum) AS column_comment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE n.nspname = $1 AND c.relkind = 'v'
         AND (obj_description(c.oid, 'pg_class') IS NULL OR col_description(c.oid, a.attnum) IS NULL)`,
      [target.schema],
    );
    expect(uncommented).toEqual([]);
    const [orders] = await pg.query(
      `SELECT obj_description('${target.schema}.v_orders'::regclass, 'pg_class') AS view,
              col_description('${target.schema}.locations'::regclass, 1) AS column`,
    );
    expect(orders?.view).toMatch(/^Every order that stands/);
    expect(orders?.column).toBeTruthy();
  });

  it("gives the BI role the guide sets up the contract's relations and views, and none of pos-sync's own tables", async () => {
    const target = pg.target();
    const made = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(made.code, made.stderr).toBe(0);
    const role = `bi_${target.schema}_${process.pid}`;
    const guide = readFileSync(packagePath("docs", "scaling.md"), "utf8");
    const setup = /\*\*BI tools\*\*[\s\S]*?```postgresql\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(setup).toBeDefined();
    await pg.query(
      `SET search_path = ${target.schema}; ${(setup ?? "")
        .replaceAll("bi_reader", role)
        .replace("'…'", "'bi-pw'")}`,
    );
    const reader = new URL(target.url);
    reader.username = role;
    reader.password = "bi-pw";
    const client = new pgClient({ connectionString: reader.toString() });
    await client.connect();
    try {
      const seen = await client.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
        [target.schema],
      );
      const contract = [
        ...CONTRACT_TABLES,
        ORDERS_RELATION.name,
        ...CHILD_RELATIONS.map((relation) => relation.name),
        ...BI_VIEWS.map((view) => view.name),
      ];
      expect(seen.rows.map((row) => row.table_name)).toEqual([...contract].sort());
      const orders = await client.query(`SELECT COUNT(*) AS n FROM ${target.schema}.v_orders`);
      expect(orders.rows).toEqual([{ n: "0" }]);
      await expect(client.query(`SELECT * FROM ${target.schema}.raw_records`)).rejects.toThrow(
        /permission denied/,
      );
    } finally {
      await client.end();
    }
  });

  it("lets several processes migrate the same schema at once", async () => {
    const target = pg.target();
    const env = { POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema };
    const results = await Promise.all([migrate(env), migrate(env), migrate(env)]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const said = results.map((r) => r.stdout.trim().split(" ")[0]).sort();
    expect(said).toEqual(["created", "the", "the"]);
    const journal = await pg.query(
      `SELECT count(*)::int AS n FROM ${target.schema}.__drizzle_migrations`,
    );
    expect(journal[0].n).toBe(migrations);
  });

  it("lets a user with rights on the schema alone, not on the database, migrate and read it", async () => {
    const target = pg.target();
    const made = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(made.code, made.stderr).toBe(0);
    const role = `worker_${target.schema}_${process.pid}`;
    await pg.query(`CREATE ROLE ${role} LOGIN PASSWORD 'worker-pw'`);
    await pg.query(`GRANT USAGE, CREATE ON SCHEMA ${target.schema} TO ${role}`);
    await pg.query(`GRANT ALL ON ALL TABLES IN SCHEMA ${target.schema} TO ${role}`);
    await pg.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA ${target.schema} TO ${role}`);
    const worker = new URL(target.url);
    worker.username = role;
    worker.password = "worker-pw";
    const env = { POS_DB_URL: worker.toString(), POS_DB_SCHEMA: target.schema };
    const again = await migrate(env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("is already up to date");
    const status = await runCli(["status", "--json"], env);
    expect(status.code, status.stderr).toBe(0);
  });

  it("takes the destination from --db, and keeps SQLite for a path or sqlite:", async () => {
    const target = pg.target();
    const byFlag = await runCli(["migrate", "--db", target.url], { POS_DB_SCHEMA: target.schema });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(byFlag.stdout).toContain(`created the schema ${target.schema}`);
    const path = tempPath();
    const bySqliteUrl = await runCli(["migrate"], { POS_DB_URL: `sqlite:${path}` });
    expect(bySqliteUrl.stdout.trim()).toMatch(new RegExp(`^created the database ${path} `));
  });

  it("refuses a bad schema name, a system schema, a refused password and an absent server in one line, never showing the password", async () => {
    const target = pg.target();
    const badSchema = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: "Pos; DROP" });
    expect(badSchema.code).toBe(2);
    expect(badSchema.stderr.trim()).toMatch(/^pos-sync: POS_DB_SCHEMA must be a lower-case name/);

    for (const system of ["pg_catalog", "information_schema", "pg_toast", "pg_temp_3"]) {
      const refusedSchema = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: system });
      expect(refusedSchema.code, system).toBe(2);
      expect(refusedSchema.stderr).toBe(
        `pos-sync: POS_DB_SCHEMA ${system} is a PostgreSQL system schema: choose a schema of your own (such as pos)\n`,
      );
    }

    const wrong = new URL(target.url);
    wrong.password = "not-the-password-4711";
    const refused = await migrate({ POS_DB_URL: wrong.toString() });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("the password was refused");
    expect(refused.stderr).not.toContain("4711");

    const closed = new URL(target.url);
    closed.port = "1";
    const absent = await migrate({ POS_DB_URL: closed.toString() });
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain("nothing listens at that address");
    expect(absent.stderr).not.toContain(new URL(target.url).password);
  });
});

describe("PostgreSQL column types", () => {
  const flags = new Set(["is_canceled"]);
  const type = (name: string, sqlType: string, autoIncrement = false) =>
    pgColumnType({ name, sqlType, autoIncrement }, flags);

  it("maps each kind of SQLite column to its native PostgreSQL type", () => {
    expect(type("is_canceled", "integer")).toBe("boolean");
    expect(type("position", "integer")).toBe("bigint");
    expect(type("content_hash", "integer")).toBe("bigint");
    expect(type("id", "integer", true)).toBe("identity");
    expect(type("total", "real")).toBe("numeric");
    expect(type("quantity", "numeric")).toBe("numeric");
    expect(type("business_date", "text")).toBe("date");
    expect(type("day", "text")).toBe("date");
    expect(type("closed_at", "text")).toBe("timestamptz");
    expect(type("clock_out_date", "text")).toBe("timestamptz");
    expect(type("menus", "text")).toBe("jsonb");
    expect(type("name", "text")).toBe("text");
    expect(() => type("payload", "blob")).toThrow(/no PostgreSQL type/);
  });
});
