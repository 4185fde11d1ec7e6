/**
 * `pos-sync verify --repair` on both destinations: stored history that went wrong after it was
 * read (rows deleted by hand, a vendor's silent corrections) is found, read again and proven.
 */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import type { VerifyResult } from "../src/proof/verify.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { localToday } from "./helpers/clock.js";
import {
  DESTINATION_KINDS,
  type TestDestination,
  useDestinations,
} from "./helpers/destinations.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { contractContents, editByHand } from "./helpers/hand-edits.js";
import { useSimulator } from "./helpers/simulator.js";

const destinations = useDestinations();
// The command line runs on the real clock: the simulator ends on the today it picks from it.
const sim = useSimulator({ today: simulatorToday(), days: 10, seed: 43, locations: 1 });

function env(destination: TestDestination): Record<string, string> {
  const { POS_DB_PATH: _path, ...api } = simulatorEnv(sim.current, "");
  return { ...api, ...destination.env };
}

async function syncedDestination(kind: (typeof DESTINATION_KINDS)[number]) {
  const destination = await destinations.fresh(kind);
  const synced = await runCli(["sync"], env(destination));
  expect(synced.code, synced.stderr).toBe(0);
  return destination;
}

async function verify(destination: TestDestination, ...args: string[]) {
  const run = await runCli(["verify", ...args], env(destination));
  return {
    ...run,
    result: args.includes("--json") ? (JSON.parse(run.stdout) as VerifyResult) : undefined,
  };
}

/** What the database holds that the API does not serve, or the other way round. */
async function differencesFromApi(destination: TestDestination): Promise<string[]> {
  const stored = await destination.stored();
  return compareWithDataset(stored, sim.current.dataset, {
    since: sim.current.dataset.firstDay,
    until: addDays(localToday(sim.current), -1),
    catalog: false,
  });
}

// Each test runs the command line several times over.
describe.each(DESTINATION_KINDS)("verify --repair into %s", { timeout: 120_000 }, (kind) => {
  it("restores the rows of an old day deleted by hand, after which a plain verify agrees", async () => {
    const destination = await syncedDestination(kind);
    const stored = await destination.stored();
    // Orders no report of another day lists (a session may end after midnight, and its report
    // then lists the evening's orders under the next day): their repair reads their day alone.
    // The latest day a week or more back that has three, from the data: which days have them
    // moves with the date the suite runs on.
    const ownDay = `o.deleted_at IS NULL AND NOT EXISTS (
      SELECT 1 FROM report_order_rows ro JOIN reports r ON r.key = ro.report_key
      WHERE ro.order_id = o.id AND r.business_date <> o.business_date)`;
    const [chosen] = await stored.rows(
      `SELECT o.business_date AS day FROM order_rows o
       WHERE o.business_date <= ? AND ${ownDay}
       GROUP BY o.business_date HAVING COUNT(*) >= 3 ORDER BY o.business_date DESC LIMIT 1`,
      addDays(localToday(sim.current), -7),
    );
    const day = String(chosen?.day);
    const removed = await stored.rows(
      `SELECT o.id FROM order_rows o WHERE o.business_date = ? AND ${ownDay} ORDER BY o.id LIMIT 3`,
      day,
    );
    expect(removed).toHaveLength(3);
    for (const { id } of removed) await stored.execute("DELETE FROM order_rows WHERE id = ?", id);

    const found = await verify(destination);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(new RegExp(`! orders ${day}: the API counts (\\d+), stored`));

    const repaired = await verify(destination, "--repair");
    expect(repaired.code, repaired.stdout + repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(`orders: ${day}`);
    expect(repaired.stdout).toMatch(/pos-sync verify --repair: succeeded/);
    expect(repaired.stdout).toMatch(/ {2}orders +1\/1 +\d+ +3 /);
    const ids = await stored.rows("SELECT id FROM orders WHERE business_date = ?", day);
    expect(ids.map((r) => r.id)).toEqual(expect.arrayContaining(removed.map((r) => r.id)));
    const [repair] = await stored.rows(
      "SELECT found_by, api_count, stored_count, outcome, inserted FROM history_repairs WHERE stream = 'orders'",
    );
    expect(repair).toMatchObject({ found_by: "verify", outcome: "repaired" });
    expect(Number(repair?.api_count) - Number(repair?.stored_count)).toBe(3);
    expect(Number(repair?.inserted)).toBe(3);

    expect((await verify(destination)).code).toBe(0);
    expect(await differencesFromApi(destination)).toEqual([]);
  });

  it("finds an order changed, removed or added upstream without a new updatedAt, and repairs each", async () => {
    const destination = await syncedDestination(kind);
    const drifts = sim.current.dataset.driftPastDays(1, 4);
    expect(new Set(drifts.map((d) => d.kind))).toEqual(new Set(["change", "remove", "add"]));
    expect(await differencesFromApi(destination)).not.toEqual([]);

    // Counts alone miss the change: only --repair compares content.
    const counted = await verify(destination, "--json");
    const countedDays = counted.result?.locations[0]?.mismatches.map((m) => m.day) ?? [];
    for (const drift of drifts.filter((d) => d.kind !== "change"))
      expect(countedDays).toContain(drift.day);

    const repaired = await verify(destination, "--repair", "--json");
    expect(repaired.code, repaired.stderr).toBe(0);
    const report = JSON.parse(repaired.stdout) as VerifyResult & {
      before: VerifyResult;
      repair: { days: Record<string, { orders?: { day: string }[] }> };
    };
    expect(report.ok).toBe(true);
    const locationId = report.locations[0]?.locationId as string;
    const repairedDays = (report.repair.days[locationId]?.orders ?? []).map((f) => f.day);
    for (const drift of drifts) expect(repairedDays).toContain(drift.day);
    const changed = report.before.locations[0]?.mismatches.filter((m) => m.content?.changed);
    expect(changed?.length).toBeGreaterThan(0);

    // An order removed upstream is kept, marked deleted, as a sync keeps it.
    const stored = await destination.stored();
    for (const drift of drifts.filter((d) => d.kind === "remove"))
      expect(
        await stored.scalar(
          "SELECT deleted_at IS NOT NULL FROM orders WHERE id = ?",
          drift.orderId,
        ),
      ).toBeTruthy();
    // A correction found by proving its day again is told as one: no staff member, no time.
    const told = JSON.parse(
      (await runCli(["changes", "--json", "--since", "2000-01-01"], env(destination))).stdout,
    ) as { changes: { orderId: string; foundByRepair: boolean; message: string }[] };
    for (const drift of drifts.filter((d) => d.kind === "change")) {
      const change = told.changes.find((c) => c.orderId === drift.orderId);
      expect(change?.foundByRepair, drift.orderId).toBe(true);
      expect(change?.message).toMatch(
        / upstream without a new updatedAt \(found when the day was proved again, \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/,
      );
      expect(change?.message).not.toMatch(/ by /);
    }
    await stored.execute("DELETE FROM order_rows WHERE deleted_at IS NOT NULL");
    expect(await differencesFromApi(destination)).toEqual([]);
    expect((await verify(destination)).code).toBe(0);
  });

  it("proves rows, not hashes: every hand edit that leaves the content hash is found and put back as it was, and a second repair finds nothing", async () => {
    const destination = await syncedDestination(kind);
    const stored = await destination.stored();
    const untouched = await contractContents(stored);
    const versions = await stored.scalar("SELECT COUNT(*) FROM order_versions");
    const edits = await editByHand(stored, addDays(localToday(sim.current), -5));
    const { day } = edits;
    expect(await contractContents(stored)).not.toEqual(untouched);

    const repaired = await verify(destination, "--repair", "--json");
    expect(repaired.code, repaired.stdout + repaired.stderr).toBe(0);
    const report = JSON.parse(repaired.stdout) as VerifyResult & { before: VerifyResult };
    const found = report.before.locations[0]?.mismatches ?? [];
    expect(found.find((m) => m.stream === "orders" && m.day === day)?.rewrite?.sort()).toEqual(
      [...edits.orders].sort(),
    );
    expect(found.find((m) => m.stream === "reports" && m.day === day)?.rewrite).toEqual(
      edits.reports,
    );
    // Every relation as it was, keys and synced_at included; no version of an order was kept
    // for an edit the API never made.
    expect(await contractContents(stored)).toEqual(untouched);
    expect(await stored.scalar("SELECT COUNT(*) FROM order_versions")).toEqual(versions);
    const repairs = await stored.rows(
      "SELECT stream, outcome, changed, updated FROM history_repairs WHERE day = ? ORDER BY stream",
      day,
    );
    expect(repairs.map((r) => [r.stream, r.outcome, Number(r.changed), Number(r.updated)])).toEqual(
      [
        ["orders", "repaired", 4, 4],
        ["reports", "repaired", 1, 1],
      ],
    );

    const again = await verify(destination, "--repair");
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).not.toContain("--repair: succeeded");
    expect(Number(await stored.scalar("SELECT COUNT(*) FROM history_repairs"))).toBe(2);
  });

  it("records a read again that wrote nothing as unchanged, and counts no repair for it", async () => {
    const destination = await syncedDestination(kind);
    // Stored valid, now served breaking the spec: set aside, and no read can change the day.
    sim.current.faults.set({ malformedRate: 0.05 });
    try {
      // Three days hold some such order: enough, and a fraction of the whole history's reads.
      const until = addDays(localToday(sim.current), -1);
      const since = addDays(until, -2);
      const repaired = await verify(destination, "--repair", "--since", since, "--until", until);
      expect(repaired.code, repaired.stdout).toBe(1);
      const stored = await destination.stored();
      const outcomes = await stored.rows(
        "SELECT outcome, inserted, updated, deleted FROM history_repairs",
      );
      expect(outcomes.length).toBeGreaterThan(0);
      for (const row of outcomes)
        expect([
          row.outcome,
          Number(row.inserted),
          Number(row.updated),
          Number(row.deleted),
        ]).toEqual(["unchanged", 0, 0, 0]);
      const status = await runCli(["status"], env(destination));
      expect(status.stdout).toMatch(/; 0 days repaired in the last 30 days$/m);
    } finally {
      sim.current.faults.reset();
    }
  });

  it("with --location, checks only the location asked for, by name, and names a wrong one", async () => {
    const destination = await syncedDestination(kind);
    const name = sim.current.dataset.locations[0]?.location.name as string;
    const asked = await verify(destination, "--location", name.toUpperCase(), "--json");
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.result?.locations).toHaveLength(1);
    const wrong = await verify(destination, "--location", "no such place");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toMatch(
      /^pos-sync: --location "no such place" names no location in the database \(known: /,
    );
  });
});
