/** `status` and `verify` only read: they open the file read-only, wherever it lives, and never
 * create nor upgrade a database. */
import { chmodSync, copyFileSync, existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";
import { createOlderDatabase } from "./helpers/older-schema.js";
import { canMountReadOnly, spawnCli } from "./helpers/process.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
const sim = useSimulator({ today: simulatorToday(), days: 4, seed: 23, locations: 1 });

function env(dbPath: string): Record<string, string> {
  return simulatorEnv(sim.current, dbPath);
}

/** Runs the CLI as a user that file permissions bind, even when the tests run as root. */
function runWithoutOverride(args: string[], environment: Record<string, string>) {
  return spawnCli(args, environment, { ordinaryPermissions: true }).exited;
}

describe("a path where no database is", () => {
  it.each([["status"], ["verify"], ["changes"]])(
    "%s says there is no database there, exit 2, and creates nothing",
    async (command) => {
      const dbPath = join(dirname(tempPath()), "typo", "pos.sqlite");
      const result = await runCli([command], env(dbPath));
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split("\n")).toEqual([
        `pos-sync: no pos-sync database at ${dbPath}: check --db or POS_DB_PATH, or create one with pos-sync sync`,
      ]);
      expect(existsSync(dirname(dbPath))).toBe(false);
    },
  );
});

describe("a database in a directory this user may not write to", () => {
  it("is read by status and verify, and nothing is written beside it", async () => {
    const dbPath = tempPath();
    const sync = await runCli(["sync"], env(dbPath));
    expect(sync.code, sync.stderr).toBe(0);
    const directory = dirname(dbPath);
    const before = readdirSync(directory).sort();
    expect(before).not.toContain(`${dbPath.split("/").at(-1)}-wal`);
    chmodSync(directory, 0o555);
    try {
      // Proves the setting: this user cannot write there.
      const probe = await runWithoutOverride(["migrate"], { POS_DB_PATH: dbPath });
      expect(probe.code, probe.stdout).toBe(1);
      expect(probe.stderr).toContain("SQLITE_READONLY");

      const status = await runWithoutOverride(["status"], { POS_DB_PATH: dbPath });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/^Last run #1 succeeded \(cli\)/m);
      expect(status.stdout).toContain("Le Petit Zinc");

      const verify = await runWithoutOverride(["verify"], env(dbPath));
      expect(verify.code, verify.stderr + verify.stdout).toBe(0);
      expect(verify.stdout).toMatch(/^OK: \d+ requests$/m);
      expect(readdirSync(directory).sort()).toEqual(before);
    } finally {
      chmodSync(directory, 0o755);
    }
  });
});

describe.skipIf(!canMountReadOnly())("a database on a read-only mount", () => {
  it("is read by status when no -shm is beside it, and a -wal it cannot read is named", async () => {
    const dbPath = tempPath();
    expect((await runCli(["sync"], env(dbPath))).code).toBe(0);
    const mount = { readOnlyMount: dirname(dbPath) };
    const status = await spawnCli(["status"], { POS_DB_PATH: dbPath }, mount).exited;
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain("Le Petit Zinc");

    // Transactions still in the -wal, as a copy taken while a writer ran holds them.
    const copy = `${tempPath()}-copy.sqlite`;
    const writer = new Database(dbPath);
    writer.pragma("wal_autocheckpoint = 0");
    writer.exec("UPDATE sync_runs SET error = 'changed while the copy was taken'");
    for (const suffix of ["", "-wal"]) copyFileSync(`${dbPath}${suffix}`, `${copy}${suffix}`);
    writer.close();
    const stale = await spawnCli(["status"], { POS_DB_PATH: copy }, mount).exited;
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      `pos-sync: cannot read the database ${copy}: its directory cannot be written (a read-only ` +
        "mount?) and its -wal file holds transactions the file does not; open it once where it " +
        "can be written, or copy the file with its -wal to a writable place\n",
    );
  });
});

describe("a database an older pos-sync made", () => {
  it.each([["status"], ["verify"]])(
    "%s asks to run pos-sync migrate first, exit 2, and changes nothing",
    async (command) => {
      const dbPath = tempPath();
      createOlderDatabase(dbPath);
      const result = await runCli([command], env(dbPath));
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split("\n")).toEqual([
        `pos-sync: the database ${dbPath} lacks 1 schema migration(s) of this pos-sync version: run pos-sync migrate (as a user that may write it) first`,
      ]);
      const migrate = await runCli(["migrate"], { POS_DB_PATH: dbPath });
      expect(migrate.stdout).toContain("applied 1 migration");
    },
  );
});
