/**
 * PostgreSQL for a test file: its own database on the run's server (postgres-global-setup.ts),
 * dropped after the file, with a fresh schema for each test that migrates one itself; a database
 * of its own, migrated, for each test that needs pos-sync's tables; and a schema as an earlier
 * release left it.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import type { PostgresTarget } from "../../src/config/config.js";
import { openPool } from "../../src/db/pg/connect.js";
import { migratePostgres, PG_MIGRATIONS_FOLDER } from "../../src/db/pg/migrate.js";
import { internalSchemaOf } from "../../src/db/pg/schemas.js";
import { onServer, withDatabase } from "./postgres-server.js";

export interface TestDatabase {
  /** A schema no test used yet, in this file's database. */
  target(): PostgresTarget;
  /** An empty database of its own: the URL. For a test whose settings hold database-wide. */
  database(): Promise<string>;
  /** A database of its own, migrated as a new install leaves it (a copy of the run's). */
  migrated(): Promise<PostgresTarget>;
  /** Runs SQL in this file's database; rows as the driver returns them. */
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary columns
  query(sql: string, params?: unknown[]): Promise<any[]>;
  url(): string;
}

export function usePostgres(): TestDatabase {
  const serverUrl = inject("pgUrl");
  const database = `pos_test_${randomBytes(6).toString("hex")}`;
  const url = withDatabase(serverUrl, database);
  const template = inject("pgTemplate");
  let schemas = 0;
  const copies: string[] = [];
  const client = new pg.Client({ connectionString: url });
  const ownDatabase = async (clause: string) => {
    const name = `${database}_${copies.length + 1}`;
    copies.push(name);
    await onServer(serverUrl, `CREATE DATABASE ${name}${clause}`);
    return withDatabase(serverUrl, name);
  };
  beforeAll(async () => {
    await onServer(serverUrl, `CREATE DATABASE ${database}`);
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    for (const name of [database, ...copies.splice(0)])
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
  return {
    target: () => ({ url, schema: `s${++schemas}` }),
    database: () => ownDatabase(""),
    migrated: async () => ({
      url: await ownDatabase(` TEMPLATE ${template.database}`),
      schema: template.schema,
    }),
    query: async (sql, params) => (await client.query(sql, params)).rows,
    url: () => url,
  };
}

/** Migrates `target` as an earlier release left it: the migrations up to `lastTag` alone. */
export async function migrateAsEarlierRelease(
  target: PostgresTarget,
  lastTag: string,
): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "pos-sync-pg-migrations-"));
  const pool = openPool(target, 1);
  try {
    mkdirSync(join(folder, "meta"));
    const journal = JSON.parse(
      readFileSync(join(PG_MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
    ) as { entries: { tag: string }[] };
    const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
    if (last < 0) throw new Error(`no migration ${lastTag}`);
    journal.entries = journal.entries.slice(0, last + 1);
    writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify(journal));
    for (const { tag } of journal.entries) {
      copyFileSync(join(PG_MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
    }
    const client = await pool.connect();
    try {
      await migratePostgres(client, target, folder);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Copies every row of the tables schema `to` (an earlier release's, all in one schema) has, in
 * the columns both have, from the tables or views of the same names in schema `from` or its
 * internal twin (parents before the tables that refer to them). */
export async function copyCommonColumnsBetweenSchemas(
  db: TestDatabase,
  from: string,
  to: string,
): Promise<void> {
  const tables: string[] = (
    await db.query(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> '__drizzle_migrations'`,
      [to],
    )
  ).map((row) => row.table_name);
  const references: { child: string; parent: string }[] = await db.query(
    `SELECT c.relname AS child, p.relname AS parent
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = k.connamespace
     WHERE k.contype = 'f' AND n.nspname = $1`,
    [to],
  );
  const ordered: string[] = [];
  const visit = (table: string) => {
    if (ordered.includes(table)) return;
    for (const { child, parent } of references)
      if (child === table && parent !== table) visit(parent);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  const columnsOf = async (schema: string, table: string): Promise<string[]> =>
    (
      await db.query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
        [schema, table],
      )
    ).map((row) => row.column_name);
  for (const table of ordered) {
    // A relation of the contract, or one of pos-sync's own tables in the schema's internal twin.
    const inContract = await columnsOf(from, table);
    const schema = inContract.length > 0 ? from : internalSchemaOf(from);
    const source = new Set(inContract.length > 0 ? inContract : await columnsOf(schema, table));
    const columns = (await columnsOf(to, table)).filter((c) => source.has(c)).map((c) => `"${c}"`);
    if (columns.length === 0) continue;
    await db.query(
      `INSERT INTO "${to}"."${table}" (${columns.join(", ")}) SELECT ${columns.join(", ")} FROM "${schema}"."${table}"`,
    );
  }
}
