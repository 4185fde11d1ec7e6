import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests run real servers, child processes and SQLite files: give them room on
    // small CI machines, and keep each file in its own process.
    pool: "forks",
    // One throwaway PostgreSQL server for the run (or POS_TEST_PG_URL's).
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
