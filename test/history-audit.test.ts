/**
 * The daemon's audit on both destinations: stored days re-proved against the API's listing, and
 * a day that no longer agrees (rows deleted by hand, a vendor's silent corrections) read again
 * in the same run and recorded in history_repairs.
 */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { localToday } from "./helpers/clock.js";
import { logEvents, startDaemon } from "./helpers/daemon.js";
import {
  DESTINATION_KINDS,
  type DestinationKind,
  type TestDestination,
  useDestinations,
} from "./helpers/destinations.js";
import { contractContents, editByHand } from "./helpers/hand-edits.js";
import { useSimulator } from "./helpers/simulator.js";
import { until } from "./helpers/wait.js";

const destinations = useDestinations();
// The command line runs on the real clock: the simulator ends on the today it picks from it.
const sim = useSimulator({ today: simulatorToday(), days: 10, seed: 47, locations: 1 });

function env(destination: TestDestination, extra: Record<string, string> = {}) {
  const { POS_DB_PATH: _path, ...api } = simulatorEnv(sim.current, "");
  return { ...api, ...destination.env, ...extra };
}

async function syncedDestination(kind: DestinationKind): Promise<TestDestination> {
  const destination = await destinations.fresh(kind);
  const synced = await runCli(["sync"], env(destination));
  expect(synced.code, synced.stderr).toBe(0);
  return destination;
}

/** The stored history as if it had been proved, and the audit's pace started, a period and a day
 * ago: every window is due at the next run, whatever its request budget (audit-plan.ts). */
async function provedAPeriodAgo(destination: TestDestination, periodDays: number) {
  const stored = await destination.stored();
  const then = new Date(Date.now() - (periodDays + 1) * 86_400_000).toISOString();
  const pace = JSON.stringify({ cursor: then, periodDays, since: then });
  await stored.execute("UPDATE sync_windows SET proved_at = ? WHERE proved_at IS NOT NULL", then);
  for (const { id } of await stored.rows("SELECT id FROM locations"))
    await stored.execute(
      `INSERT INTO sync_state (location_id, name, value, updated_at) VALUES (?, 'audit_pace', ?, ?)
       ON CONFLICT (location_id, name) DO UPDATE SET value = excluded.value`,
      id,
      pace,
      then,
    );
}

/** Runs the daemon until its first run (at its start) has finished: the run's log event, and its
 * metrics. */
async function firstDaemonRun(destination: TestDestination, extra: Record<string, string>) {
  // A schedule that never comes round in a test: the run at the start is the only one.
  const daemon = await startDaemon(["--schedule", "0 0 1 1 *"], env(destination, extra));
  try {
    await until(() => logEvents(daemon.output()).some((e) => e.msg === "run finished"));
    const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
    const run = logEvents(daemon.output()).find((e) => e.msg === "run finished");
    return { run: run as Record<string, unknown>, metrics };
  } finally {
    daemon.child.kill("SIGTERM");
    await daemon.exited;
  }
}

// Each test starts the command line and the daemon several times over.
describe.each(DESTINATION_KINDS)("the daemon's audit into %s", { timeout: 120_000 }, (kind) => {
  it("with POS_AUDIT_PERIOD_DAYS=1 a period on, restores rows deleted by hand and repairs every drift in one run", async () => {
    const destination = await syncedDestination(kind);
    const stored = await destination.stored();
    const handDay = addDays(localToday(sim.current), -6);
    const drifts = sim.current.dataset.driftPastDays(1, 4);
    expect(new Set(drifts.map((d) => d.kind))).toEqual(new Set(["change", "remove", "add"]));
    // Two orders the API still lists, deleted by hand; on some dates a drift adds one to that day.
    const drifted = new Set(drifts.map((d) => d.orderId));
    const removed = (
      await stored.rows("SELECT id FROM order_rows WHERE business_date = ? ORDER BY id", handDay)
    )
      .filter((r) => !drifted.has(String(r.id)))
      .slice(0, 2);
    for (const { id } of removed) await stored.execute("DELETE FROM order_rows WHERE id = ?", id);
    const added = drifts.filter((d) => d.day === handDay && d.kind === "add").length;

    await provedAPeriodAgo(destination, 1);
    const { run, metrics } = await firstDaemonRun(destination, { POS_AUDIT_PERIOD_DAYS: "1" });
    expect(run).toMatchObject({ status: "succeeded" });
    const audit = run.audit as { windows: number; repairs: number; requests: number };
    expect(audit.windows).toBeGreaterThan(0);
    // Every day drifted or emptied by hand, its orders at least (a report changes with them).
    const days = new Set([handDay, ...drifts.map((d) => d.day)]);
    expect(audit.repairs).toBeGreaterThanOrEqual(days.size);

    const verified = await runCli(["verify", "--repair"], env(destination));
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).not.toContain("Reading");
    const repairs = await stored.rows(
      "SELECT stream, day, found_by, outcome, inserted, updated, deleted FROM history_repairs WHERE stream = 'orders' ORDER BY day",
    );
    const repairedDays = repairs.map((r) => String(r.day));
    for (const day of [handDay, ...drifts.map((d) => d.day)]) expect(repairedDays).toContain(day);
    expect(repairs.every((r) => r.found_by === "audit" && r.outcome === "repaired")).toBe(true);
    const hand = repairs.find((r) => String(r.day) === handDay);
    expect(Number(hand?.inserted)).toBe(2 + added);
    const ids = await stored.rows("SELECT id FROM orders WHERE business_date = ?", handDay);
    expect(ids.map((r) => r.id)).toEqual(expect.arrayContaining(removed.map((r) => r.id)));

    const locationId = sim.current.dataset.locations[0]?.location.id as string;
    expect(metrics).toMatch(
      new RegExp(
        `^pos_sync_audit_days_total\\{location="${locationId}",outcome="repaired"\\} ${audit.repairs}$`,
        "m",
      ),
    );
    expect(metrics).toMatch(
      new RegExp(`^pos_sync_audit_requests_total\\{location="${locationId}"\\} [1-9]\\d*`, "m"),
    );

    const status = await runCli(["status"], env(destination));
    expect(status.stdout).toMatch(
      /history {2}every stored day proved since \d{4}-\d\d-\d\d \d\d:\d\d \(\d+ of \d+ by the audit\); [1-9]\d* days repaired in the last 30 days$/m,
    );
  });

  it("finds rows edited by hand under an unchanged content hash and puts them back in the same run, with no staff change to show", async () => {
    const destination = await syncedDestination(kind);
    const stored = await destination.stored();
    const untouched = await contractContents(stored);
    await editByHand(stored, addDays(localToday(sim.current), -4));

    await provedAPeriodAgo(destination, 1);
    const { run } = await firstDaemonRun(destination, { POS_AUDIT_PERIOD_DAYS: "1" });
    expect(run).toMatchObject({ status: "succeeded" });
    expect(run.audit).toMatchObject({ repairs: 2, failed: 0 });
    expect(await contractContents(stored)).toEqual(untouched);
    const repairs = await stored.rows(
      "SELECT stream, found_by, outcome FROM history_repairs ORDER BY stream",
    );
    expect(repairs).toEqual([
      { stream: "orders", found_by: "audit", outcome: "repaired" },
      { stream: "reports", found_by: "audit", outcome: "repaired" },
    ]);
    const changes = await runCli(["changes", "--json"], env(destination));
    expect(JSON.parse(changes.stdout)).toMatchObject({ changes: [] });
  });

  it("starts its pace at a location's first audit, and again under a changed period: nothing at once", async () => {
    const destination = await syncedDestination(kind);
    const stored = await destination.stored();
    const pace = async () =>
      JSON.parse(
        String(await stored.scalar("SELECT value FROM sync_state WHERE name = 'audit_pace'")),
      );
    // A first audit proves nothing at once: its pace starts with its run.
    const first = await firstDaemonRun(destination, {});
    expect(first.run.audit).toMatchObject({ windows: 0, repairs: 0 });
    expect(await pace()).toMatchObject({ periodDays: 30 });
    // A period on, the whole history is due.
    await provedAPeriodAgo(destination, 30);
    const behind = await firstDaemonRun(destination, {});
    expect((behind.run.audit as { windows: number }).windows).toBeGreaterThan(0);
    // Under another period, the pace starts over: nothing at once again.
    const changed = await firstDaemonRun(destination, { POS_AUDIT_PERIOD_DAYS: "1" });
    expect(changed.run.audit).toMatchObject({ windows: 0 });
    const restarted = await pace();
    expect(restarted).toMatchObject({ periodDays: 1 });
    expect(Date.now() - Date.parse(restarted.since)).toBeLessThan(10 * 60_000);
  });

  it("leaves alone an order no list shows that a live report lists and the API still serves", async () => {
    const destination = await syncedDestination(kind);
    const location = sim.current.dataset.locations[0];
    if (!location) throw new Error("no location");
    const day = addDays(localToday(sim.current), -6);
    const [unlisted] = sim.current.dataset.unlistOrders(location, day, 1);
    try {
      await provedAPeriodAgo(destination, 1);
      const { run } = await firstDaemonRun(destination, { POS_AUDIT_PERIOD_DAYS: "1" });
      expect((run.audit as { windows: number }).windows).toBeGreaterThan(0);
      expect(run.audit).toMatchObject({ repairs: 0, failed: 0 });
      const stored = await destination.stored();
      expect(Number(await stored.scalar("SELECT COUNT(*) FROM history_repairs"))).toBe(0);
      expect(
        await stored.scalar("SELECT deleted_at FROM orders WHERE id = ?", unlisted),
      ).toBeNull();
    } finally {
      sim.current.dataset.restoreVoidedOrders();
    }
  });

  it("with POS_AUDIT_PERIOD_DAYS=0, proves nothing again", async () => {
    const destination = await syncedDestination(kind);
    const { run } = await firstDaemonRun(destination, { POS_AUDIT_PERIOD_DAYS: "0" });
    expect(run).toMatchObject({ status: "succeeded" });
    expect(run.audit).toBeUndefined();
    const stored = await destination.stored();
    expect(
      Number(await stored.scalar("SELECT COUNT(*) FROM sync_windows WHERE proved_by = 'audit'")),
    ).toBe(0);
  });
});
