import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

/**
 * Two projects. A test file that starts processes — the built command line, PostgreSQL, Chromium,
 * a shell — is `slow`: it needs the run's global setup (a current build, a PostgreSQL server and
 * its migrated template). Every other one is `fast` and needs no more than a migrated SQLite file
 * to copy, so that `npx vitest run` of a fast file starts nothing. In both, the files share their worker's process and modules one after
 * another (`isolate: false`): none of them mocks a module, stubs the environment, fakes the clock
 * or changes the process's directory, and loading the sources afresh for each file cost more than
 * many files' tests (measured under load: the fast files 191-197 s isolated against 95-130 s
 * shared; the whole suite 346 s against 291 s once the slow files shared too).
 */
const STARTS_PROCESSES =
  /helpers\/(cli|daemon|kill|process|postgres|destinations|browser)\.js|node:child_process/;
const testFiles = readdirSync("test")
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `test/${name}`);
const slowFiles = testFiles.filter((file) => STARTS_PROCESSES.test(readFileSync(file, "utf8")));

export default defineConfig({
  test: {
    // Three worker processes on the suite's two cores: a test spends much of its time waiting on
    // a child process, a server or a socket, and a third file fills those waits (measured back
    // to back: 254 s against 277 s with two; the CPU's work the same, 477 s and 482 s).
    pool: "forks",
    maxWorkers: 3,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: testFiles.filter((file) => !slowFiles.includes(file)),
          // A migrated SQLite file that tests copy rather than migrate a new one (helpers/db.ts).
          globalSetup: ["test/helpers/sqlite-global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "slow",
          include: slowFiles,
          // The command line as built, no older than its sources; one throwaway PostgreSQL
          // server for the run (or POS_TEST_PG_URL's).
          globalSetup: [
            "test/helpers/sqlite-global-setup.ts",
            "test/helpers/built-cli-setup.ts",
            "test/helpers/postgres-global-setup.ts",
          ],
        },
      },
    ],
  },
});
