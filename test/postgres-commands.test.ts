/**
 * The commands on a PostgreSQL database, as real child processes: status (with the worker of each
 * location), verify, raw, and several daemons sharing one database.
 */
import { describe, expect, it } from "vitest";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv, startCli } from "./helpers/cli.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { startMailServer } from "./helpers/mail-server.js";
import { usePostgres } from "./helpers/postgres.js";
import { useSimulator } from "./helpers/simulator.js";
import { postgresData } from "./helpers/stored-data.js";
import { until } from "./helpers/wait.js";

const pg = usePostgres();
const sim = useSimulator({ today: simulatorToday(), days: 5, seed: 31, locations: 2 });

function env(target: { url: string; schema: string }, extra: Record<string, string> = {}) {
  const { POS_DB_PATH: _path, ...api } = simulatorEnv(sim.current, "");
  return { ...api, POS_DB_URL: target.url, POS_DB_SCHEMA: target.schema, ...extra };
}

function finishedRuns(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .filter((event) => event.msg === "run finished");
}

describe("commands on PostgreSQL", () => {
  it("status shows complete days and the worker that synced each location; verify and raw read it; report --send records there", async () => {
    const target = pg.target();
    const synced = await runCli(["sync"], env(target));
    expect(synced.code, synced.stderr).toBe(0);

    const status = await runCli(["status", "--json"], env(target));
    expect(status.code, status.stderr).toBe(0);
    const report = JSON.parse(status.stdout);
    expect(report.database).toContain(`(schema ${target.schema})`);
    expect(report.database).not.toContain(new URL(target.url).password);
    expect(report.locations).toHaveLength(2);
    for (const location of report.locations) {
      const orders = location.streams.find((s: { stream: string }) => s.stream === "orders");
      expect(orders.gaps).toEqual([]);
      expect(orders.rows).toBeGreaterThan(0);
      expect(location.turn).toMatchObject({
        heldBy: null,
        lastDoneBy: expect.stringMatching(/:\d+$/),
      });
    }
    const text = await runCli(["status"], env(target));
    expect(text.stdout).toMatch(/worker {3}no worker on it now; last done by .+:\d+ at /);

    const verify = await runCli(["verify", "--json"], env(target));
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout).ok).toBe(true);

    const location = sim.current.dataset.locations[0]!;
    const order = [...sim.current.dataset.allOrders(location)][0]!;
    const raw = await runCli(["raw", "orders", order.id], env(target));
    expect(raw.code, raw.stderr).toBe(0);
    expect(JSON.parse(raw.stdout)).toEqual(order);

    // Recorded in the schema, as on SQLite: a second --send of the day sends nothing new.
    const mail = await startMailServer();
    try {
      const send = () =>
        runCli(
          ["report", "--send"],
          env(target, {
            POS_REPORT_SMTP_URL: mail.url,
            POS_REPORT_FROM: "reports@example.com",
            POS_REPORT_TO: "owner@example.com",
          }),
        );
      const sent = await send();
      expect(sent.code, sent.stderr).toBe(0);
      expect(mail.received).toHaveLength(1);
      const again = await send();
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain("Nothing new: every recipient had it already");
      expect(mail.received).toHaveLength(1);
    } finally {
      await mail.close();
    }
  });

  it("status and verify refuse a schema pos-sync never made, in one line", async () => {
    const target = pg.target();
    for (const command of ["status", "verify"]) {
      const result = await runCli([command], env(target));
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(
        `pos-sync: no pos-sync database in the schema ${target.schema} of ${new URL(target.url).protocol}//${new URL(target.url).username}@${new URL(target.url).host}/${new URL(target.url).pathname.slice(1)}: check POS_DB_URL and POS_DB_SCHEMA, or create one with pos-sync migrate`,
      );
    }
  });

  it("runs as several daemons on one database, each location synced by one at a time, all complete", async () => {
    const target = pg.target();
    const daemons = await Promise.all(
      [0, 1].map(() => startCli(["daemon", "--port", "0"], /serving the status page/, env(target))),
    );
    try {
      await until(() => daemons.every((d) => finishedRuns(d.output()).length >= 1));
      for (const daemon of daemons)
        expect(finishedRuns(daemon.output())[0]).toMatchObject({ status: "succeeded" });
      const stored = postgresData(target);
      try {
        const { dataset } = sim.current;
        expect(
          await compareWithDataset(stored, dataset, {
            since: dataset.firstDay,
            until: dataset.today,
          }),
        ).toEqual([]);
        // Each location synced by one daemon at a time (a daemon whose run starts after the
        // other's turn ended reads it again, incrementally).
        const overlapping = await stored.scalar(
          `SELECT COUNT(*) FROM location_claims a JOIN location_claims b
             ON a.key_fingerprint = b.key_fingerprint AND a.id < b.id
            AND a.started_at < COALESCE(b.finished_at, 'infinity')
            AND b.started_at < COALESCE(a.finished_at, 'infinity')`,
        );
        expect(overlapping).toBe(0);
        const done = await stored.scalar(
          "SELECT COUNT(DISTINCT key_fingerprint) FROM location_claims WHERE status = 'done'",
        );
        expect(done).toBe(2);
      } finally {
        await stored.close();
      }
    } finally {
      for (const daemon of daemons) daemon.child.kill("SIGTERM");
      for (const daemon of daemons) expect((await daemon.exited).code).toBe(0);
    }
  });
});
