/** `pos-sync verify` as users run it: what it compares, and how it words what differs. */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import type { VerifyResult } from "../src/proof/verify.js";
import { simulatorToday } from "../src/simulator/clock.js";
import { runCli, simulatorEnv } from "./helpers/cli.js";
import { localToday } from "./helpers/clock.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";

const tempPath = useTempDir();
// The command line runs on the real clock: the simulator ends on the today it picks from it.
const sim = useSimulator({ today: simulatorToday(), days: 5, seed: 29, locations: 1 });

function env(dbPath: string): Record<string, string> {
  return simulatorEnv(sim.current, dbPath);
}

async function syncedDatabase(): Promise<string> {
  const dbPath = tempPath();
  await runCli(["sync"], env(dbPath));
  return dbPath;
}

async function verifyJson(
  dbPath: string,
  args: string[] = [],
): Promise<{ code: number | null; result: VerifyResult }> {
  const run = await runCli(["verify", "--json", ...args], env(dbPath));
  return { code: run.code, result: JSON.parse(run.stdout) };
}

/** A stored order of a closed day (not the location's today), with its day. */
function someOrder(dbPath: string): { id: string; day: string } {
  const db = openTestDb(dbPath);
  try {
    const [order] = rows(
      db,
      "SELECT id, business_date AS day FROM orders WHERE business_date < ? ORDER BY id LIMIT 1",
      sim.current.dataset.today,
    );
    return order;
  } finally {
    db.close();
  }
}

describe("pos-sync verify --since", () => {
  it("alone checks from that day through today", async () => {
    const dbPath = await syncedDatabase();
    const day = localToday(sim.current);
    const since = addDays(day, -2);
    const result = await runCli(["verify", "--since", since], env(dbPath));
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toContain(`6 day counts checked, ${since} to ${day}`);
  });

  it("alone, after today, says there is nothing to check", async () => {
    const dbPath = await syncedDatabase();
    const after = addDays(localToday(sim.current), 3);
    const result = await runCli(["verify", "--since", after], env(dbPath));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `nothing to check: ${after} is after ${localToday(sim.current)}`,
    );
  });
});

describe("pos-sync verify: stored counts", () => {
  it("counts a record set aside under two keys once", async () => {
    const dbPath = await syncedDatabase();
    const order = someOrder(dbPath);
    const db = openTestDb(dbPath);
    db.sqlite.prepare("DELETE FROM order_rows WHERE id = ?").run(order.id);
    const reject = db.sqlite.prepare(
      `INSERT INTO rejected_records (location_id, stream, day, record_id, record_key, reason, raw, rejected_at)
       SELECT location_id, 'orders', ?, ?, ?, 'total: expected number', '{}', '2026-01-01T00:00:00Z' FROM locations`,
    );
    reject.run(order.day, order.id, order.id);
    reject.run(order.day, order.id, "sha1:0123456789abcdef");
    db.close();
    const { result } = await verifyJson(dbPath);
    expect(result.locations[0]?.mismatches).toEqual([]);
    // Its report misses it, and says why.
    for (const problem of result.locations[0]?.reconciliation ?? []) {
      expect(problem).toMatchObject({ ordersMissing: 1, ordersRejected: 1 });
    }
  });

  it("agrees with a day holding an order kept on purpose: no list shows it, a live report lists it, the API serves it by id", async () => {
    const dbPath = await syncedDatabase();
    const location = sim.current.dataset.locations[0];
    if (!location) throw new Error("no location");
    const day = addDays(localToday(sim.current), -2);
    const [kept] = sim.current.dataset.unlistOrders(location, day, 1);
    try {
      const { code, result } = await verifyJson(dbPath);
      expect(result.locations[0]?.mismatches).toEqual([]);
      expect(code).toBe(0);
      const db = openTestDb(dbPath);
      expect(scalar(db, "SELECT deleted_at FROM orders WHERE id = ?", kept)).toBeNull();
      db.close();
    } finally {
      sim.current.dataset.restoreVoidedOrders();
    }
  });
});

describe("pos-sync verify: reports", () => {
  it("says which of a report's missing orders were set aside in rejected_records", async () => {
    sim.current.faults.set({ malformedRate: 0.1 });
    try {
      const dbPath = await syncedDatabase();
      const { code, result } = await verifyJson(dbPath);
      expect(code).toBe(1);
      const problems = result.locations[0]?.reconciliation ?? [];
      const explained = problems.filter((p) => p.ordersRejected > 0);
      expect(explained.length).toBeGreaterThan(0);
      const text = (await runCli(["verify"], env(dbPath))).stdout;
      const [first] = explained;
      if (!first) throw new Error("no report misses a rejected order");
      const detail =
        first.ordersRejected === first.ordersMissing
          ? `${first.ordersMissing} of its orders are not stored: set aside in rejected_records`
          : `and ${first.ordersRejected} more set aside in rejected_records`;
      expect(text).toContain(`report #${first.reportNumber} (${first.businessDate}): `);
      expect(text).toContain(detail);

      // Acknowledged, the known rejects let verify gate a BI refresh again.
      const allowed = await verifyJson(dbPath, ["--allow-rejected"]);
      expect(allowed.code).toBe(0);
      expect(allowed.result.locations[0]?.reconciliation).toEqual(
        problems.map((p) => ({ ...p, allowed: true })),
      );
      const allowedText = (await runCli(["verify", "--allow-rejected"], env(dbPath))).stdout;
      expect(allowedText).toContain(
        `  - report #${first.reportNumber} (${first.businessDate}): ${first.ordersMissing}`,
      );
      expect(allowedText).toContain("(allowed: --allow-rejected)");
      expect(allowedText).toMatch(/\nOK: \d+ requests\n$/);

      // An order lost, not set aside, is no known reject: its report stays a mismatch.
      const lost = (() => {
        const db = openTestDb(dbPath);
        try {
          const [order] = rows(
            db,
            `SELECT o.id, r.id AS report_id FROM orders o
             JOIN report_orders ro ON ro.order_id = o.id JOIN reports r ON r.id = ro.report_id
             WHERE o.business_date < ? ORDER BY o.id LIMIT 1`,
            sim.current.dataset.today,
          );
          db.sqlite
            .prepare("UPDATE order_rows SET deleted_at = '2026-01-01T00:00:00Z' WHERE id = ?")
            .run(order.id);
          return order as { id: string; report_id: string };
        } finally {
          db.close();
        }
      })();
      const notAllowed = await verifyJson(dbPath, ["--allow-rejected"]);
      expect(notAllowed.code).toBe(1);
      const report = notAllowed.result.locations[0]?.reconciliation.find(
        (r) => r.reportId === lost.report_id,
      );
      expect(report).toMatchObject({ allowed: false });
    } finally {
      sim.current.faults.reset();
    }
  });
});
