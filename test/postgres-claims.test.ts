/**
 * What workers' turns on locations leave in the run log: a worker that died is recorded as soon
 * as another sees its locks gone, not at some later run's start; a worker that found every
 * location taken by another says so in its run's stats, rather than a bare "succeeded".
 */

import { describe, expect, it } from "vitest";
import { startRun } from "../src/db/pg/checkpoints.js";
import { PgLocationClaims } from "../src/db/pg/claims.js";
import { openPool } from "../src/db/pg/connect.js";
import { PgDestination } from "../src/db/pg/destination.js";
import { internalSchemaOf } from "../src/db/pg/schemas.js";
import { LockSession } from "../src/db/pg/session.js";
import { startSimulator } from "../src/simulator/server.js";
import { formatSummary } from "../src/ui/summary.js";
import { usePostgres } from "./helpers/postgres.js";
import { SMALL_DATASET } from "./helpers/simulator.js";
import { syncInto } from "./helpers/sync.js";
import { until } from "./helpers/wait.js";

const pg = usePostgres();

describe("location claims on PostgreSQL", () => {
  it("a worker whose session died mid-turn has its run and turn interrupted by the next claim", async () => {
    const target = pg.target();
    const survivor = await PgDestination.open(target, { keepRaw: true, poolSize: 2 });
    // The doomed worker: its session holds its run's lock and the location's, as a sync's does.
    const doomedPool = openPool(target, 2);
    const session = await doomedPool.connect();
    session.on("error", () => {}); // its connection is about to be cut
    try {
      const doomedRun = await startRun(session, "cli", new Date().toISOString());
      const doomedClaims = new PgLocationClaims(new LockSession(session), async (work) => {
        const client = await doomedPool.connect();
        try {
          return await work(client);
        } finally {
          client.release();
        }
      });
      doomedClaims.startRun(doomedRun.serverStartedAt);
      expect(await doomedClaims.claim("key#doomed", doomedRun.runId)).toMatchObject({
        outcome: "granted",
      });
      // The survivor's run started while the doomed one still ran: its start closed nothing.
      const runId = await survivor.startRun("cli", new Date().toISOString());
      const backend = (session as unknown as { processID: number }).processID;
      await pg.query("SELECT pg_terminate_backend($1, 10000)", [backend]);

      expect(await survivor.claims.claim("key#doomed", runId)).toMatchObject({
        outcome: "granted",
      });
      const runs = await pg.query(
        `SELECT status, error FROM ${target.schema}.sync_runs WHERE id = $1`,
        [doomedRun.runId],
      );
      expect(runs).toEqual([
        { status: "interrupted", error: "the process ended before the run finished" },
      ]);
      const turns = await pg.query(
        `SELECT run_id, status FROM ${internalSchemaOf(target.schema)}.location_claims ORDER BY id`,
      );
      expect(turns).toEqual([
        { run_id: String(doomedRun.runId), status: "interrupted" },
        { run_id: String(runId), status: "running" },
      ]);
    } finally {
      session.release(true);
      await doomedPool.end();
      await survivor.close();
    }
  });

  it("a run that found every location synced by another worker says why it did nothing", async () => {
    const simulator = await startSimulator({ ...SMALL_DATASET, days: 4 });
    const target = pg.target();
    // Slow answers, so that the first worker still holds both locations when the second starts.
    simulator.faults.set({ latencyMs: 20 });
    const first = await PgDestination.open(target, { keepRaw: true, poolSize: 4 });
    const second = await PgDestination.open(target, { keepRaw: true, poolSize: 4 });
    try {
      let firstDone = false;
      const firstRun = syncInto(simulator, first).finally(() => {
        firstDone = true;
      });
      await until(async () => {
        if (firstDone) throw new Error("the first worker finished before the second started");
        const [{ n }] = await pg.query(
          `SELECT COUNT(*)::int AS n FROM ${internalSchemaOf(target.schema)}.location_claims WHERE status = 'running'`,
        );
        return n === simulator.keys.length;
      }, "the first worker holds every location");
      const { result } = await syncInto(simulator, second);
      expect((await firstRun).result.status).toBe("succeeded");

      expect(result).toMatchObject({ status: "succeeded", requests: 0 });
      // The summary says why, under its first line.
      expect(formatSummary(result)).toMatch(
        /^pos-sync sync: succeeded .+\n {2}every location was being synced by another worker \(.+:\d+\): none was left\n/,
      );
      const runs = await pg.query(
        `SELECT id, stats -> 'notices' AS notices FROM ${target.schema}.sync_runs ORDER BY id`,
      );
      expect(runs.map((run) => run.notices)).toEqual([
        null,
        [
          expect.stringMatching(
            /^every location was being synced by another worker \(.+:\d+\): none was left$/,
          ),
        ],
      ]);
    } finally {
      await first.close();
      await second.close();
      await simulator.close();
    }
  });
});
