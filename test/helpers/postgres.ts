/**
 * PostgreSQL for a test file: its own database on the run's server (postgres-global-setup.ts),
 * dropped after the file, and a fresh schema for each destination a test asks for.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import type { PostgresTarget } from "../../src/config.js";

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
