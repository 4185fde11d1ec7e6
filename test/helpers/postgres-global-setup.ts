/** Vitest's global setup: one throwaway PostgreSQL server for the whole run (or the one
 * POS_TEST_PG_URL names), handed to the test files as `inject("pgUrl")`. */
import type { TestProject } from "vitest/node";
import { startThrowawayPostgres } from "../../scripts/throwaway-postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startThrowawayPostgres({ given: process.env.POS_TEST_PG_URL });
  project.provide("pgUrl", server.url);
  return () => server.stop();
}
