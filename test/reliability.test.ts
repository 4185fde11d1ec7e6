/**
 * Nothing lost under faults and hostile data: every scenario ends with the ground-truth
 * comparison, record by record and field by field.
 */
import { describe, expect, it } from "vitest";
import { orderSchema } from "../src/api/schemas.js";
import { addDays } from "../src/dates.js";
import { readRawRecords } from "../src/db/raw/archive.js";
import { NASTY_TEXT } from "../src/simulator/hostile.js";
import type { Simulator } from "../src/simulator/server.js";
import { startSimulator } from "../src/simulator/server.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { compareWithDataset } from "./helpers/ground-truth.js";
import { SMALL_DATASET, TEST_TODAY } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
const history = { since: addDays(TEST_TODAY, -(SMALL_DATASET.days - 1)), until: TEST_TODAY };
/** Enough retries that a request failing a third of the time still gets through. */
const PATIENT = { retries: 10, minDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 2_000 };

async function withSimulator(
  options: Parameters<typeof startSimulator>[0],
  test: (sim: Simulator) => Promise<void>,
) {
  const simulator = await startSimulator(options);
  try {
    await test(simulator);
  } finally {
    await simulator.close();
  }
}

/** Syncs until a run succeeds (at most three), as the daemon would across ticks. */
async function syncUntilComplete(simulator: Simulator, db: ReturnType<typeof openTestDb>) {
  for (let run = 1; run <= 3; run++) {
    const { result } = await syncOnce(simulator, db, {
      transport: {
        retry: PATIENT,
        timeouts: { connectMs: 2_000, headersMs: 1_000, bodyMs: 2_000 },
      },
    });
    if (result.status === "succeeded") return run;
  }
  throw new Error("three runs did not complete the data");
}

describe("faults", () => {
  it.each(["seconds", "http-date"] as const)(
    "stores complete data through 503s, 429s (Retry-After as %s), cut connections and slow answers",
    async (retryAfterForm) => {
      await withSimulator({ ...SMALL_DATASET, seed: 101 }, async (simulator) => {
        simulator.faults.set({
          serverErrorRate: 0.1,
          rateLimitRate: 0.05,
          retryAfterForm,
          retryAfterSeconds: 1,
          dropRate: 0.06,
          slowRate: 0.01,
          slowMs: 2_500,
        });
        const db = openTestDb(tempPath());
        const runs = await syncUntilComplete(simulator, db);
        expect(runs).toBe(1);
        const { faults } = simulator.stats.snapshot();
        expect(faults.serverError).toBeGreaterThan(3);
        expect(faults.rateLimited).toBeGreaterThan(1);
        expect(faults.dropped).toBeGreaterThan(2);
        expect(faults.delayed).toBeGreaterThan(0);
        expect(await compareWithDataset(db, simulator.dataset, history)).toEqual([]);
        db.close();
      });
    },
  );
});

describe("pages that repeat and change", () => {
  it("stores every order once, and the newer version of one that changed between two pages", async () => {
    await withSimulator(
      { ...SMALL_DATASET, seed: 102, ordersPerDay: [250, 350] },
      async (simulator) => {
        simulator.faults.set({ duplicatesAcrossPages: true, changesBetweenPages: true });
        const db = openTestDb(tempPath());
        const { result } = await syncOnce(simulator, db);
        expect(result.status).toBe("succeeded");
        // Reports whose orders changed after the report was read are behind until their day is
        // read again; the orders themselves are exact.
        expect(
          await compareWithDataset(db, simulator.dataset, { ...history, reports: false }),
        ).toEqual([]);
        const changed = rows(
          db,
          "SELECT id FROM orders WHERE updated_at > created_at AND updated_at >= ?",
          "2026-11-01",
        );
        expect(changed.length).toBeGreaterThan(5);
        // A re-read of the days, with the pages steady again, catches up the reports.
        simulator.faults.reset();
        const reread = await syncOnce(simulator, db, { range: history });
        expect(reread.result.status).toBe("succeeded");
        expect(await compareWithDataset(db, simulator.dataset, history)).toEqual([]);
        db.close();
      },
    );
  });
});

describe("hostile data", () => {
  it("stores what the spec allows exactly, and sets aside with a reason what it forbids", async () => {
    await withSimulator({ ...SMALL_DATASET, seed: 103, hostile: true }, async (simulator) => {
      const db = openTestDb(tempPath());
      const { result } = await syncOnce(simulator, db);
      expect(result.status).toBe("succeeded");
      const forbidden = (id: string) => {
        const location = simulator.dataset.locations.find((l) => simulator.dataset.order(l, id));
        const order = location ? simulator.dataset.order(location, id) : undefined;
        return order !== undefined && !orderSchema.safeParse(order).success;
      };
      expect(
        await compareWithDataset(db, simulator.dataset, {
          ...history,
          isMalformed: forbidden,
          limit: 10,
        }),
      ).toEqual([]);

      const rejected = rows(
        db,
        "SELECT record_id, reason FROM rejected_records WHERE stream = 'orders'",
      );
      expect(rejected.length).toBeGreaterThan(0);
      for (const reject of rejected)
        expect(reject.reason).toBe("guests: Too small: expected number to be >=0");

      // Text survives byte for byte, however long or strange.
      expect(
        scalar(db, "SELECT COUNT(*) FROM orders WHERE operator_name = ?", NASTY_TEXT),
      ).toBeGreaterThan(0);
      expect(scalar(db, "SELECT MAX(length(order_place)) FROM orders")).toBe(20_000);
      // Amounts as sent: zero, negative, huge.
      expect(scalar(db, "SELECT COUNT(*) FROM orders WHERE total = 1e15")).toBeGreaterThan(0);
      expect(scalar(db, "SELECT COUNT(*) FROM orders WHERE total < 0")).toBeGreaterThan(0);
      // Fields the spec does not know (schema drift) are kept in the raw archive and fail nothing.
      const extended = rows(db, "SELECT location_id, id FROM orders").filter((order) => {
        const [archived] = readRawRecords(db.sqlite, "orders", order.id, order.location_id);
        return JSON.parse(archived?.json ?? "{}").loyaltyProgram?.points === 1234;
      });
      expect(extended.length).toBeGreaterThan(0);
      db.close();
    });
  });
});
