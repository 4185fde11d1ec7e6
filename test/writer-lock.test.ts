/** One writer per database, enforced by a lock the kernel drops when its holder dies, however it
 * dies: real child processes, SIGKILL, and a parent that never reaps. */
import { spawn } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { WriterBusyError, WriterLease } from "../src/db/sqlite/writer-lease.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { CLI_PATH, childEnv, runCli, simulatorEnv } from "./helpers/cli.js";
import { openTestDb, scalar, useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { eventually } from "./helpers/wait.js";

const tempPath = useTempDir();
const sim = useSimulator({ today: simulatorToday(), days: 20, seed: 77, locations: 1 });

function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/** The pid of the run in progress, once the sync has recorded it. */
function runningPid(dbPath: string): number | undefined {
  try {
    const db = openTestDb(dbPath, { readonly: true });
    try {
      const pid = scalar(db, "SELECT pid FROM sync_runs WHERE status = 'running'");
      return typeof pid === "number" ? pid : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

describe("a writer killed while its parent never reaps it", () => {
  const parents: number[] = [];
  afterAll(() => {
    for (const pid of parents) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });

  it("lets the next run write at once, although the dead writer is a zombie", async () => {
    const dbPath = tempPath();
    const env = simulatorEnv(sim.current, dbPath);
    // Slow enough that the run is still going when it is killed, on a loaded machine too.
    sim.current.faults.set({ latencyMs: 200 });
    // The shell starts the sync and becomes `sleep`, which never waits for its children: a
    // supervisor that does not reap, as a container whose PID 1 is a shell.
    const parent = spawn(
      "sh",
      ["-c", `"${process.execPath}" "${CLI_PATH}" sync >/dev/null 2>&1 & exec sleep 120`],
      { env: childEnv(env), detached: true, stdio: "ignore" },
    );
    if (parent.pid === undefined) throw new Error("the parent did not start");
    parents.push(parent.pid);
    const writerPid = await eventually(() => runningPid(dbPath), "the sync to start");
    process.kill(writerPid, "SIGKILL");
    await eventually(
      () => (processState(writerPid) === "Z" ? true : undefined),
      "the writer to become a zombie",
    );
    sim.current.faults.set({ latencyMs: 0 });

    const next = await runCli(["sync"], env);
    expect(next.stderr).not.toContain("another pos-sync is writing");
    expect(next.code, next.stderr).toBe(0);
    expect(processState(writerPid)).toBe("Z");
  });
});

describe("the lock file", () => {
  it("refuses a second writer while the first holds it, from another connection", () => {
    const path = tempPath();
    const first = openTestDb(path);
    const second = openTestDb(path);
    const lease = WriterLease.acquire(first, { command: "daemon" });
    // Even with the lease row gone (a client deleted it), the lock still refuses.
    second.sqlite.prepare("DELETE FROM writer_lease").run();
    expect(() => WriterLease.acquire(second, { command: "sync" })).toThrow(WriterBusyError);
    lease.release();
    WriterLease.acquire(second, { command: "sync" }).release();
    first.close();
    second.close();
  });

  it("refuses a second writer that reaches the database through a symlink", () => {
    const path = tempPath();
    const link = `${path}-link`;
    const first = openTestDb(path);
    symlinkSync(path, link);
    const second = openTestDb(link);
    const lease = WriterLease.acquire(first, { command: "daemon" });
    second.sqlite.prepare("DELETE FROM writer_lease").run();
    expect(() => WriterLease.acquire(second, { command: "sync" })).toThrow(WriterBusyError);
    lease.release();
    first.close();
    second.close();
  });

  it("takes over a fresh lease row of this host whose holder no longer holds the lock", () => {
    const db = openTestDb(tempPath());
    const now = new Date().toISOString();
    // The test runner's own parent is alive: only the lock tells that it does not write.
    db.sqlite
      .prepare("INSERT INTO writer_lease VALUES (1, 'old', ?, ?, 'daemon', ?, ?)")
      .run(process.ppid, (require("node:os") as typeof import("node:os")).hostname(), now, now);
    const lease = WriterLease.acquire(db, { command: "sync" });
    expect(scalar(db, "SELECT pid FROM writer_lease")).toBe(process.pid);
    lease.release();
    db.close();
  });
});
