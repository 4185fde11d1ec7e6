/** Vitest's global setup: one throwaway PostgreSQL server for the whole run (or the one
 * POS_TEST_PG_URL names), handed to the test files as `inject("pgUrl")`; and one database
 * migrated as a new install leaves it, which the files copy (`inject("pgTemplate")`) where a
 * test needs an empty pos-sync database: a copy costs a fifth of migrating one. */
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startThrowawayPostgres } from "../../scripts/throwaway-postgres.js";
import { openPostgres } from "../../src/db/pg/open.js";
import { onServer, withDatabase } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
    /** The migrated database to copy, and the schema pos-sync's tables are in. */
    pgTemplate: { database: string; schema: string };
  }
}

async function migratedTemplate(serverUrl: string, database: string, schema: string) {
  await onServer(serverUrl, `CREATE DATABASE ${database}`);
  const { pool } = await openPostgres({ url: withDatabase(serverUrl, database), schema }, 1);
  // A database is copied only while no one is connected to it.
  await pool.end();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startThrowawayPostgres({ given: process.env.POS_TEST_PG_URL });
  // Named for this run: runs sharing POS_TEST_PG_URL's server keep apart.
  const template = { database: `pos_template_${randomBytes(6).toString("hex")}`, schema: "pos" };
  await migratedTemplate(server.url, template.database, template.schema);
  project.provide("pgUrl", server.url);
  project.provide("pgTemplate", template);
  return async () => {
    await onServer(server.url, `DROP DATABASE IF EXISTS ${template.database} WITH (FORCE)`);
    await server.stop();
  };
}
