/** Disk trouble: a read-only directory, a full disk. A clear error, a non-zero exit, and the
 * data already stored left intact. */
import { chmodSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { openTestDb, scalar, useTempDir } from "./helpers/db.js";
import { spawnCli } from "./helpers/process.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
const sim = useSimulator({ today: simulatorToday(), days: 12, seed: 31, locations: 1 });

function env(dbPath: string): Record<string, string> {
  return simulatorEnv(sim.current, dbPath);
}

function counts(dbPath: string): { orders: number; reports: number; integrity: unknown } {
  const db = openTestDb(dbPath, { readonly: true });
  try {
    return {
      orders: scalar(db, "SELECT COUNT(*) FROM orders") as number,
      reports: scalar(db, "SELECT COUNT(*) FROM reports") as number,
      integrity: scalar(db, "PRAGMA integrity_check"),
    };
  } finally {
    db.close();
  }
}

describe("a database pos-sync may not write", () => {
  it("fails with one clear line and exit 1, and leaves the data as it was", async () => {
    const dbPath = tempPath();
    const day = sim.current.dataset.today;
    expect((await runCli(["sync", "--since", day, "--until", day], env(dbPath))).code).toBe(0);
    const before = counts(dbPath);
    for (const path of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
      try {
        chmodSync(path, 0o444);
      } catch {
        // -wal and -shm exist only while a connection is open
      }
    }
    chmodSync(dirname(dbPath), 0o555);
    try {
      // Root would write anyway: the sync runs with root's power to override file modes
      // dropped, wherever the checkout lives.
      const child = spawnCli(["sync"], env(dbPath), { ordinaryPermissions: true });
      const result = await child.exited;
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `^pos-sync: cannot (open|prepare|write to) the database ${dbPath}: .+\\(SQLITE_`,
        ),
      );
    } finally {
      chmodSync(dirname(dbPath), 0o755);
    }
    expect(counts(dbPath)).toEqual(before);
  });
});

describe("a full disk", () => {
  it("fails with a clear error and exit 1, keeps what was stored, and the next run completes", async () => {
    const dbPath = tempPath();
    const yesterday = sim.current.dataset.today;
    expect(
      (await runCli(["sync", "--since", yesterday, "--until", yesterday], env(dbPath))).code,
    ).toBe(0);
    const before = counts(dbPath);
    // The files may grow by a few hundred KiB, not by the whole history.
    const child = spawnCli(["sync"], env(dbPath), { fileSizeLimitKb: 1_500 });
    const result = await child.exited;
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n").at(-1)).toMatch(
      /^pos-sync: cannot write to the database .+: (the disk is full|a disk input\/output error occurred) \(SQLITE_(FULL|IOERR)\w*\)$/,
    );
    const after = counts(dbPath);
    expect(after.integrity).toBe("ok");
    expect(after.orders).toBeGreaterThanOrEqual(before.orders);

    const next = await runCli(["sync"], env(dbPath));
    expect(next.code, next.stderr).toBe(0);
    // Every day recorded complete holds its rows: none was proven by a count the full disk undid.
    const verified = await runCli(["verify"], env(dbPath));
    expect(verified.code, verified.stdout).toBe(0);
  });
});
