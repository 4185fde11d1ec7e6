/**
 * Several workers share one PostgreSQL database and one key list, with no coordinator but the
 * server's locks: every location synced completely, never by two workers at once (proved from the
 * history of turns), and the locations of a worker killed mid-run finished by the others, who
 * record its run and its turns as interrupted, each turn with its location.
 */
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { startSimulator } from "../src/simulator/server.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { usePostgres } from "./helpers/postgres.js";
import { spawnCli } from "./helpers/process.js";
import { postgresData } from "./helpers/stored-data.js";

const pg = usePostgres();

interface Turn {
  key_fingerprint: string;
  worker: string;
  status: string;
  started_at: string;
  finished_at: string | null;
}

/** Pairs of turns on one location that overlap in time. */
function overlaps(turns: readonly Turn[]): string[] {
  const found: string[] = [];
  for (const [i, a] of turns.entries()) {
    for (const b of turns.slice(i + 1)) {
      if (a.key_fingerprint !== b.key_fingerprint) continue;
      const aEnd = Date.parse(a.finished_at ?? "9999-12-31");
      const bEnd = Date.parse(b.finished_at ?? "9999-12-31");
      if (Date.parse(a.started_at) < bEnd && Date.parse(b.started_at) < aEnd)
        found.push(`${a.key_fingerprint}: ${a.worker} and ${b.worker}`);
    }
  }
  return found;
}

describe("several workers", () => {
  it("share 12 locations: each synced by one worker at a time, a killed worker's finished by the others", async () => {
    const simulator = await startSimulator({
      seed: 77,
      locations: 12,
      days: 4,
      today: simulatorToday(),
      ordersPerDay: [40, 80],
    });
    const target = pg.target();
    const stored = postgresData(target);
    try {
      // Slow enough answers that the three runs overlap.
      simulator.faults.set({ latencyMs: 20 });
      const { POS_DB_PATH: _path, ...api } = simulatorEnv(simulator, "");
      const env = {
        ...api,
        POS_DB_URL: target.url,
        POS_DB_SCHEMA: target.schema,
        POS_CONCURRENCY: "2",
      };
      const migrated = await runCli(["migrate"], env);
      expect(migrated.code, migrated.stderr).toBe(0);

      const workers = [0, 1, 2].map(() => spawnCli(["sync"], env));
      const doomed = workers[0]!;
      // Killed once it holds a location, mid-way through it: the turn names the location as soon
      // as the worker has read it.
      for (;;) {
        const holding = await stored.scalar(
          `SELECT COUNT(*) FROM location_claims
           WHERE worker LIKE ? AND status = 'running' AND location_id IS NOT NULL`,
          `%:${doomed.pid}`,
        );
        if (Number(holding) > 0) break;
        if (doomed.exitCode !== null) throw new Error("the worker ended before it could be killed");
        await new Promise((r) => setTimeout(r, 20));
      }
      doomed.kill("SIGKILL");
      expect((await doomed.exited).signal).toBe("SIGKILL");
      for (const survivor of workers.slice(1)) {
        const exit = await survivor.exited;
        expect(exit.code, exit.stdout + exit.stderr).toBe(0);
        // Locations claimed side by side share one session connection, and wait on one stop
        // signal: neither may cost the user a warning from node or the driver.
        expect(exit.stderr).not.toMatch(/\(node:\d+\) \w*Warning/);
      }

      const { dataset } = simulator;
      expect(
        await compareWithDataset(stored, dataset, {
          since: dataset.firstDay,
          until: dataset.today,
        }),
      ).toEqual([]);
      const turns = (await stored.rows(
        "SELECT key_fingerprint, worker, status, started_at, finished_at FROM location_claims ORDER BY id",
      )) as unknown as Turn[];
      expect(overlaps(turns)).toEqual([]);
      const killed = turns.filter((t) => t.worker.endsWith(`:${doomed.pid}`));
      expect(killed.some((t) => t.status === "interrupted")).toBe(true);
      // Every turn names its location, the killed worker's included.
      expect(
        await stored.scalar("SELECT COUNT(*) FROM location_claims WHERE location_id IS NULL"),
      ).toBe(0);
      // The survivors saw the killed worker's locks gone: its run is over, without another run.
      expect(
        await stored.rows("SELECT status, error FROM sync_runs WHERE pid = ?", doomed.pid),
      ).toEqual([{ status: "interrupted", error: "the process ended before the run finished" }]);
      expect(await stored.scalar("SELECT COUNT(*) FROM sync_runs WHERE status = 'running'")).toBe(
        0,
      );
      // Each survivor's run says that it left some locations to the others.
      const notices = await stored.rows(
        "SELECT stats -> 'notices' AS notices FROM sync_runs WHERE pid <> ?",
        doomed.pid,
      );
      expect(notices).toEqual(
        workers.slice(1).map(() => ({
          notices: [
            expect.stringMatching(/^\d+ of 12 locations were synced by another worker \(.+\)$/),
          ],
        })),
      );
      // Every location has a finished turn, by a worker that survived.
      const done = new Set(turns.filter((t) => t.status === "done").map((t) => t.key_fingerprint));
      expect(done.size).toBe(12);
      // The survivors shared the work.
      const doers = new Set(turns.filter((t) => t.status === "done").map((t) => t.worker));
      expect(doers.size).toBe(2);
      // Nothing duplicated: one row per order id, as many as the API has.
      const orders = await stored.rows(
        "SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM orders",
      );
      expect(orders[0]!.n).toBe(orders[0]!.ids);
    } finally {
      await stored.close();
      await simulator.close();
    }
  });
});
