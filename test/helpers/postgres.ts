/**
 * PostgreSQL for a test file: its own database on the run's server (postgres-global-setup.ts),
 * dropped after the file, and a fresh schema for each destination a test asks for; and a schema
 * as an earlier release left it.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import type { PostgresTarget } from "../../src/config.js";
import { openPool } from "../../src/db/pg/connect.js";
import { migratePostgres, PG_MIGRATIONS_FOLDER } from "../../src/db/pg/migrate.js";

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  /** A schema no test used yet, in this file's database. */
  target(): PostgresTarget;
  /** Runs SQL in this file's database; rows as the driver returns them. */
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary columns
  query(sql: string, params?: unknown[]): Promise<any[]>;
  url(): string;
}

export function usePostgres(): TestDatabase {
  const serverUrl = inject("pgUrl");
  const database = `pos_test_${randomBytes(6).toString("hex")}`;
  const url = withDatabase(serverUrl, database);
  let schemas = 0;
  const client = new pg.Client({ connectionString: url });
  beforeAll(async () => {
    await onServer(serverUrl, `CREATE DATABASE ${database}`);
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });
  return {
    target: () => ({ url, schema: `s${++schemas}` }),
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
