import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

/**
 * Two tiers. A test file that starts processes — the built command line, PostgreSQL, Chromium,
 * a shell — is `slow`, each file in a fresh process; every other one is `fast`, and the fast
 * files share their worker's process and modules one after another (`isolate: false`): none of
 * them mocks a module, stubs the environment or fakes the clock, and loading the sources afresh
 * for each of the 56 files cost more than their tests (measured under load: 191-197 s isolated,
 * 95-130 s shared; the modules' import time 67-73 s against 15-23 s).
 */
const STARTS_PROCESSES =
  /helpers\/(cli|daemon|kill|process|postgres|destinations|browser)\.js|node:child_process/;
const testFiles = readdirSync("test")
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `test/${name}`);
const slowFiles = testFiles.filter((file) => STARTS_PROCESSES.test(readFileSync(file, "utf8")));

export default defineConfig({
  test: {
    // Each file in a process of its own, two at a time: the 2-core machines the suite runs on
    // spend most of it waiting on child processes, servers and sockets.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          isolate: false,
          include: testFiles.filter((file) => !slowFiles.includes(file)),
        },
      },
      {
        extends: true,
        test: {
          name: "slow",
          isolate: false,
          include: slowFiles,
          // The command line as built, no older than its sources; one throwaway PostgreSQL
          // server for the run (or POS_TEST_PG_URL's).
          globalSetup: ["test/helpers/built-cli-setup.ts", "test/helpers/postgres-global-setup.ts"],
        },
      },
    ],
  },
});
