/** The daemon over days of service: the WAL does not keep what a long reader made it grow, and
 * files deleted under it do not break every later run. Real child processes. */
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";

import { openDatabase } from "../src/db/sqlite/open.js";
import { walSize } from "../src/db/sqlite/wal.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv, startCli } from "./helpers/cli.js";
import { useTempDir } from "./helpers/db.js";
import { spawnCli } from "./helpers/process.js";
import { useSimulator } from "./helpers/simulator.js";
import { until } from "./helpers/wait.js";

const tempPath = useTempDir();
const sim = useSimulator({ today: simulatorToday(), days: 30, seed: 23, locations: 1 });

interface LogEvent {
  msg: string;
  status?: string;
  runId?: number;
  url?: string;
}

function events(output: string): LogEvent[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogEvent);
}

function messages(output: string): string[] {
  return events(output).map((e) => e.msg);
}

/** A BI tool holding one read transaction: the WAL cannot be truncated behind it. */
function holdReadSnapshot(dbPath: string): ReturnType<typeof openDatabase> {
  const reader = openDatabase(dbPath, { readonly: true });
  reader.sqlite.exec("BEGIN");
  reader.sqlite.prepare("SELECT COUNT(*) FROM orders").get();
  return reader;
}

function finishedRuns(output: string): number {
  return messages(output).filter((m) => m === "run finished").length;
}

describe("a one-shot sync's WAL", () => {
  it("is kept by a reader past the run's end, which the run says in one line; the next run cuts it back", async () => {
    const dbPath = tempPath();
    expect((await runCli(["migrate"], { POS_DB_PATH: dbPath })).code).toBe(0);
    const reader = holdReadSnapshot(dbPath);
    try {
      const held = await runCli(["sync"], simulatorEnv(sim.current, dbPath));
      expect(held.code, held.stderr).toBe(0);
      expect(held.stderr).toMatch(
        new RegExp(
          `a reader of ${dbPath} holds an old snapshot, so its -wal file stays at \\d+\\.\\d MB: the next run \\(or the daemon, while idle\\) cuts it back once that reader is done`,
        ),
      );
      expect(walSize(dbPath)).toBeGreaterThan(1_000_000);
    } finally {
      reader.sqlite.exec("COMMIT");
      reader.close();
    }
    const next = await runCli(["sync"], simulatorEnv(sim.current, dbPath));
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toContain("holds an old snapshot");
    expect(walSize(dbPath)).toBe(0);
  });
});

describe("the daemon's WAL", () => {
  it("is truncated after a run, as soon as a reader that held it back lets go", async () => {
    const dbPath = tempPath();
    expect((await runCli(["migrate"], { POS_DB_PATH: dbPath })).code).toBe(0);
    // From before the run to after it.
    const reader = holdReadSnapshot(dbPath);
    const daemon = await startCli(
      ["daemon", "--schedule", "0 0 1 1 *"],
      /daemon started/,
      simulatorEnv(sim.current, dbPath),
    );
    try {
      await until(() => finishedRuns(daemon.output()) >= 1, "the first run");
      await until(
        () => messages(daemon.output()).some((m) => m.includes("WAL cannot be truncated yet")),
        "the blocked truncation to be reported",
      );
      expect(walSize(dbPath)).toBeGreaterThan(1_000_000);

      reader.sqlite.exec("COMMIT");
      reader.close();
      await until(
        () =>
          messages(daemon.output()).includes(
            "the WAL is truncated: the reader that held it back is done",
          ),
        "the truncation to be reported",
      );
      expect(walSize(dbPath)).toBe(0);
    } finally {
      if (reader.sqlite.open) reader.close();
      daemon.child.kill("SIGTERM");
      expect((await daemon.exited).code).toBe(0);
    }
  });
});

describe("a daemon whose database files were deleted under it", () => {
  it("opens the database afresh, keeps syncing, and exits on SIGTERM", async () => {
    const dbPath = tempPath();
    const daemon = await startCli(
      ["daemon", "--schedule", "*/2 * * * * *"],
      /daemon started/,
      simulatorEnv(sim.current, dbPath),
    );
    try {
      await until(() => finishedRuns(daemon.output()) >= 1, "the first run");
      const before = finishedRuns(daemon.output());
      for (const suffix of ["-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
      await until(() => finishedRuns(daemon.output()) >= before + 2, "two more runs");
      const after = events(daemon.output())
        .filter((e) => e.msg === "run finished")
        .slice(before);
      expect(after.every((e) => e.status === "succeeded")).toBe(true);
      expect(daemon.output()).not.toContain("SQLITE_IOERR");
    } finally {
      const signalled = Date.now();
      daemon.child.kill("SIGTERM");
      const exit = await daemon.exited;
      expect(exit.code).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(messages(exit.stdout)).toContain("daemon stopped");
    }
  });
});

describe("a daemon whose WAL was deleted while a reader held it full", () => {
  it("writes runs that other processes see once it opened the database again", async () => {
    const dbPath = tempPath();
    expect((await runCli(["migrate"], { POS_DB_PATH: dbPath })).code).toBe(0);
    // The reader keeps the first run's pages in the WAL: its index then describes frames that
    // the deleted files took away.
    const reader = holdReadSnapshot(dbPath);
    const daemon = await startCli(
      ["daemon", "--schedule", "*/2 * * * * *"],
      /daemon started/,
      simulatorEnv(sim.current, dbPath),
    );
    try {
      await until(
        () => messages(daemon.output()).some((m) => m.includes("WAL cannot be truncated yet")),
        "the blocked truncation to be reported",
      );
      // The files go while the daemon is idle, just after a run and long before the next tick:
      // a tick that checked the files just before they went would start a run in this process
      // beside the stale connection, which this test is not about.
      const idleAfter = finishedRuns(daemon.output());
      await until(() => finishedRuns(daemon.output()) > idleAfter, "the next run to finish");
      for (const suffix of ["-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
      const before = finishedRuns(daemon.output());
      reader.sqlite.exec("COMMIT");
      reader.close();
      await until(() => finishedRuns(daemon.output()) >= before + 2, "two more runs");
      const runIds = events(daemon.output())
        .filter((e) => e.msg === "run finished")
        .slice(before + 1)
        .map((e) => e.runId);
      expect(daemon.output()).not.toContain("SQLITE_IOERR");
      // Another process, opening the files as they are now, sees what the daemon wrote.
      const check = await runCli(["status", "--json"], { POS_DB_PATH: dbPath });
      expect(check.stderr).toBe("");
      const seen = openDatabase(dbPath, { readonly: true });
      try {
        const stored = seen.sqlite
          .prepare("SELECT id FROM sync_runs WHERE status = 'succeeded'")
          .pluck()
          .all();
        expect(stored).toEqual(expect.arrayContaining(runIds));
      } finally {
        seen.close();
      }
    } finally {
      if (reader.sqlite.open) reader.close();
      daemon.child.kill("SIGTERM");
      expect((await daemon.exited).code).toBe(0);
    }
  });
});

describe("a daemon on a full disk", () => {
  it("reports the same clear line as sync, in its log and on /healthz, without a stack", async () => {
    const dbPath = tempPath();
    const day = sim.current.dataset.today;
    const env = simulatorEnv(sim.current, dbPath);
    expect((await runCli(["sync", "--since", day, "--until", day], env)).code).toBe(0);
    // The files may grow by a few hundred KiB, not by the whole history.
    const daemon = spawnCli(["daemon", "--schedule", "0 0 1 1 *", "--port", "0"], env, {
      fileSizeLimitKb: 1_500,
    });
    let output = "";
    daemon.stdout?.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    try {
      await until(() => /"msg":"run (finished|failed)/.test(output), "the first run to end");
      const url = (
        events(output).find((e) => e.msg === "serving the status page at /, /healthz and /metrics")
          ?.url ?? ""
      ).replace(/\/$/, "");
      const health = (await (await fetch(`${url}/healthz`)).json()) as { reason?: string };
      const clearLine =
        /cannot write to the database .+: (the disk is full|a disk input\/output error occurred) \(SQLITE_(FULL|IOERR)\w*\)/;
      expect(health.reason, output).toMatch(clearLine);
      expect(health.reason).not.toContain("without a result");
      expect(output).toMatch(clearLine);
      expect(output).not.toMatch(/\n\s+at /);
      expect(output).not.toContain('"stack"');
    } finally {
      daemon.kill("SIGTERM");
      await daemon.exited;
    }
  });
});
