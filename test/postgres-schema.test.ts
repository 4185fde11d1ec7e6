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
import { internalSchemaOf } from "../src/db/pg/schemas.js";
import { pgColumnType } from "../src/db/pg/types.js";
import { CHILD_RELATIONS, CONTRACT_TABLES, STORED_RELATIONS } from "../src/db/schema/relations.js";
import { BI_VIEWS } from "../src/db/sql/bi-views.js";
import { COLUMN_DECLARATIONS } from "../src/db/sql/view-columns.js";
import { packagePath } from "../src/package-root.js";
import { runCli } from "./helpers/cli.js";
import { openTestDb, rows, useTempDir } from "./helpers/db.js";
import { migrateAsEarlierRelease, usePostgres } from "./helpers/postgres.js";

const pg = usePostgres();
/** Every relation and view of the contract (design.md): what a BI tool reads. */
const CONTRACT = [
  ...CONTRACT_TABLES,
  ...STORED_RELATIONS.map((relation) => relation.name),
  ...CHILD_RELATIONS.map((relation) => relation.name),
  ...BI_VIEWS.map((view) => view.name),
];
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

/** A relation's columns and their types, whichever of the schema and its internal twin holds it. */
async function columnTypes(schema: string, table: string): Promise<Record<string, string>> {
  const found = await pg.query(
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema IN ($1, $2) AND table_name = $3",
    [schema, internalSchemaOf(schema), table],
  );
  return Object.fromEntries(found.map((c) => [c.column_name, c.data_type]));
}

function asUser(url: string, user: string, password: string): string {
  const as = new URL(url);
  as.username = user;
  as.password = password;
  return as.toString();
}

async function asClient<T>(url: string, use: (client: pg_.Client) => Promise<T>): Promise<T> {
  const client = new pgClient({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** docs/scaling.md's set-up of a BI role: its SQL blocks, each with who the text before it says
 * runs it, an administrator (a superuser) or the user pos-sync writes with. */
function biRoleSetup(): { by: "administrator" | "writer"; sql: string }[] {
  const guide = readFileSync(packagePath("docs", "scaling.md"), "utf8");
  const section = /\*\*BI tools\*\*[\s\S]*?(?=\n\*\*|$)/.exec(guide)?.[0] ?? "";
  const blocks = [...section.matchAll(/([^\n]+(?:\n[^\n]+)*)\n\n```postgresql\n([\s\S]*?)```/g)];
  expect(blocks.length).toBeGreaterThan(0);
  return blocks.map(([, said = "", sql = ""]) => {
    if (/superuser/.test(said)) return { by: "administrator", sql };
    if (/pos-sync writes with/.test(said)) return { by: "writer", sql };
    throw new Error(`docs/scaling.md does not say who runs\n${sql}`);
  });
}

describe("PostgreSQL schema", () => {
  it("creates every table, column and view of the contract, its own tables in the internal schema beside it, and is up to date the next time", async () => {
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
      "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ($1, $2) AND table_type = 'BASE TABLE'",
      [target.schema, internalSchemaOf(target.schema)],
    );
    // The contract's tables alone in the schema a BI tool reads; the rest beside it.
    expect(
      tables
        .filter((t) => t.table_schema === target.schema)
        .map((t) => t.table_name)
        .sort(),
    ).toEqual([...CONTRACT_TABLES].sort());
    // Nothing else there: every table, view and sequence belongs to the contract and every
    // relation is commented (what the BI role is granted); no function.
    const uncommented = await pg.query(
      `SELECT c.relname, c.relkind FROM pg_class c
       WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
         AND obj_description(c.oid, 'pg_class') IS NULL`,
      [target.schema],
    );
    expect(uncommented).toEqual([]);
    const strays = await pg.query(
      `SELECT c.relname FROM pg_class c
       WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('S', 'i')
         AND NOT EXISTS (
           SELECT 1 FROM pg_depend d JOIN pg_class t ON t.oid = d.refobjid
           WHERE d.objid = c.oid AND t.relnamespace = c.relnamespace AND t.relkind = 'r')
         AND NOT EXISTS (SELECT 1 FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
           WHERE x.indexrelid = c.oid AND t.relnamespace = c.relnamespace)
       UNION ALL SELECT p.proname FROM pg_proc p WHERE p.pronamespace = $1::regnamespace`,
      [target.schema],
    );
    expect(strays).toEqual([]);
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

  it("gives every relation and view of the contract the same columns in the same order as SQLite", async () => {
    const target = pg.target();
    const result = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(result.code, result.stderr).toBe(0);
    const db = openTestDb(tempPath());
    try {
      for (const relation of CONTRACT) {
        const onSqlite = db.sqlite
          .prepare(`SELECT * FROM ${relation} LIMIT 0`)
          .columns()
          .map((c) => c.name);
        const onPostgres = (
          await pg.query(
            `SELECT a.attname AS name FROM pg_attribute a
             WHERE a.attrelid = '${target.schema}.${relation}'::regclass AND a.attnum > 0
               AND NOT a.attisdropped ORDER BY a.attnum`,
          )
        ).map((c) => c.name);
        expect(onPostgres, relation).toEqual(onSqlite);
      }
    } finally {
      db.close();
    }
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

  it("words flags as true or false and date-times as instants in its comments, not as SQLite stores them", async () => {
    const target = pg.target();
    const result = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(result.code, result.stderr).toBe(0);
    const commented = await pg.query(
      `SELECT c.relname || '.' || a.attname AS column, format_type(a.atttypid, NULL) AS type,
              col_description(c.oid, a.attnum) AS comment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE n.nspname = $1 AND a.atttypid IN ('boolean'::regtype, 'timestamptz'::regtype)
         AND col_description(c.oid, a.attnum) IS NOT NULL`,
      [target.schema],
    );
    const flags = commented.filter((c) => c.type === "boolean");
    const instants = commented.filter((c) => c.type !== "boolean");
    expect(flags.length).toBeGreaterThan(0);
    expect(instants.length).toBeGreaterThan(0);
    expect(flags.filter((c) => /\b[01] (when|for|otherwise)\b/.test(c.comment))).toEqual([]);
    expect(flags.filter((c) => !/^True (when|for)\b/.test(c.comment))).toEqual([]);
    expect(instants.filter((c) => /as sent|ISO 8601/.test(c.comment))).toEqual([]);
  });

  it("lets an administrator create the guide's BI role, read-only, without temporary tables or advisory locks, its joins of views planned whole, and pos-sync's user grant it the contract's relations and views, none of pos-sync's own tables, before and after an upgrade", async () => {
    // A database of its own: the guide's set-up holds database-wide.
    const target = { url: await pg.database(), schema: "pos" };
    const database = new URL(target.url).pathname.slice(1);
    // pos-sync's user as the guide has it: no superuser, CREATE on the database for its schema.
    const writer = `writer_${target.schema}_${process.pid}`;
    await pg.query(`CREATE ROLE ${writer} LOGIN PASSWORD 'writer-pw'`);
    await pg.query(`GRANT CREATE ON DATABASE ${database} TO ${writer}`);
    const writerUrl = asUser(target.url, writer, "writer-pw");
    // As the release before reports and order_versions became views of their stored tables.
    await migrateAsEarlierRelease({ url: writerUrl, schema: target.schema }, "0018_views");

    const role = `bi_${target.schema}_${process.pid}`;
    const steps = biRoleSetup().map((step) => ({
      ...step,
      sql: step.sql
        .replaceAll("bi_reader", role)
        .replace("'…'", "'bi-pw'")
        .replaceAll("DATABASE analytics", `DATABASE ${database}`)
        .replaceAll("TO pos_sync", `TO ${writer}`),
    }));
    const run = async (step: (typeof steps)[number]) => {
      if (step.by === "administrator")
        await asClient(target.url, (client) => client.query(step.sql));
      else
        await asClient(writerUrl, (client) =>
          client.query(`SET search_path = ${target.schema}; ${step.sql}`),
        );
    };
    for (const step of steps) await run(step);
    // The upgrade, then the owner's grant again, as the guide says.
    const upgraded = await migrate({ POS_DB_URL: writerUrl, POS_DB_SCHEMA: target.schema });
    expect(upgraded.code, upgraded.stderr).toBe(0);
    for (const step of steps.filter((s) => s.by !== "administrator")) await run(step);

    await asClient(asUser(target.url, role, "bi-pw"), async (client) => {
      const seen = await client.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
        [target.schema],
      );
      expect(seen.rows.map((row) => row.table_name)).toEqual([...CONTRACT].sort());
      const orders = await client.query(`SELECT COUNT(*) AS n FROM ${target.schema}.v_orders`);
      expect(orders.rows).toEqual([{ n: "0" }]);
      // pos-sync's own tables are beside the contract; those that store reports and versions
      // were the contract before the upgrade.
      for (const internal of ["raw_records", "report_rows", "order_version_rows"])
        await expect(
          client.query(`SELECT * FROM ${internalSchemaOf(target.schema)}.${internal}`),
          internal,
        ).rejects.toThrow(/permission denied/);
      await client.query(`SELECT * FROM ${target.schema}.reports LIMIT 1`);
      // Read-only by default, no temporary table, and none of the locks the workers take
      // turns by: the key of a location's turn (claims.ts) is a hash of text anyone can read.
      expect((await client.query("SHOW default_transaction_read_only")).rows).toEqual([
        { default_transaction_read_only: "on" },
      ]);
      // A join of views planned as one query (benchmark 11: a week's orders with their lines).
      for (const limit of ["from_collapse_limit", "join_collapse_limit"])
        expect((await client.query(`SHOW ${limit}`)).rows).toEqual([{ [limit]: "20" }]);
      await expect(client.query("CREATE TEMP TABLE scratch (n integer)")).rejects.toThrow(
        /read-only transaction/,
      );
      // A session may ask for writes (the default is not a privilege); it still has none.
      await client.query("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
      await expect(client.query("CREATE TEMP TABLE scratch (n integer)")).rejects.toThrow(
        /permission denied/,
      );
      for (const lock of [
        "pg_advisory_lock(1)",
        "pg_try_advisory_lock(1)",
        "pg_advisory_xact_lock(1)",
        "pg_try_advisory_xact_lock(1, 2)",
        "pg_advisory_lock_shared(1)",
      ])
        await expect(client.query(`SELECT ${lock}`), lock).rejects.toThrow(/permission denied/);
    });
    // pos-sync's user still takes them: it migrates again (under the migrations' lock) and syncs.
    const again = await migrate({ POS_DB_URL: writerUrl, POS_DB_SCHEMA: target.schema });
    expect(again.code, again.stderr).toBe(0);
    await asClient(writerUrl, async (client) => {
      expect((await client.query("SELECT pg_try_advisory_lock(1) AS taken")).rows).toEqual([
        { taken: true },
      ]);
    });
  });

  it("tells a user who may no longer create schemas how to have the internal one made, then upgrades", async () => {
    // A database of its own: CREATE on it is what this is about.
    const target = { url: await pg.database(), schema: "pos" };
    const database = new URL(target.url).pathname.slice(1);
    const writer = `creator_${process.pid}`;
    await pg.query(`CREATE ROLE ${writer} LOGIN PASSWORD 'writer-pw'`);
    await pg.query(`GRANT CREATE ON DATABASE ${database} TO ${writer}`);
    const writerUrl = asUser(target.url, writer, "writer-pw");
    // Made by the release before the internal schema, then CREATE on the database taken back.
    await migrateAsEarlierRelease({ url: writerUrl, schema: target.schema }, "0018_views");
    await pg.query(`REVOKE CREATE ON DATABASE ${database} FROM ${writer}`);
    const env = { POS_DB_URL: writerUrl, POS_DB_SCHEMA: target.schema };
    const refused = await migrate(env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `have an administrator run CREATE SCHEMA pos_internal AUTHORIZATION ${writer}`,
    );
    await asClient(target.url, (client) =>
      client.query(`CREATE SCHEMA pos_internal AUTHORIZATION ${writer}`),
    );
    const upgraded = await migrate(env);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    await asClient(writerUrl, async (client) => {
      const { rows } = await client.query(
        "SELECT to_regclass('pos_internal.raw_records') IS NOT NULL AS moved",
      );
      expect(rows).toEqual([{ moved: true }]);
    });
  });

  it("lets several processes migrate the same schema at once", async () => {
    const target = pg.target();
    const env = { POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema };
    const results = await Promise.all([migrate(env), migrate(env), migrate(env)]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const said = results.map((r) => r.stdout.trim().split(" ")[0]).sort();
    expect(said).toEqual(["created", "the", "the"]);
    const journal = await pg.query(
      `SELECT count(*)::int AS n FROM ${internalSchemaOf(target.schema)}.__drizzle_migrations`,
    );
    expect(journal[0].n).toBe(migrations);
  });

  it("lets a user with rights on the schema and its internal twin alone, not on the database, migrate and read it", async () => {
    const target = pg.target();
    const made = await migrate({ POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema });
    expect(made.code, made.stderr).toBe(0);
    const role = `worker_${target.schema}_${process.pid}`;
    await pg.query(`CREATE ROLE ${role} LOGIN PASSWORD 'worker-pw'`);
    const grant = async (schema: string) => {
      await pg.query(`GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${role}`);
      await pg.query(`GRANT ALL ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
      await pg.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
    };
    await grant(target.schema);
    const worker = new URL(target.url);
    worker.username = role;
    worker.password = "worker-pw";
    const env = { POS_DB_URL: worker.toString(), POS_DB_SCHEMA: target.schema };
    // Granted the contract's schema alone, it says which one it lacks, and touches nothing.
    const refused = await migrate(env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `this user may not use the schema ${internalSchemaOf(target.schema)}, which holds pos-sync's own tables`,
    );
    await grant(internalSchemaOf(target.schema));
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
