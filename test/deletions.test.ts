/** Orders that vanish upstream: marked deleted (kept for audit, out of every view), back when
 * they come back, and never mass-deleted on a read that suddenly lists far fewer. */
import { afterEach, describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { judgeDisappearance } from "../src/sync/deletion-guard.js";
import { openTestDb, rows, scalar, useTempDir } from "./helpers/db.js";
import { useSimulator } from "./helpers/simulator.js";
import { syncOnce } from "./helpers/sync.js";

const tempPath = useTempDir();
const sim = useSimulator({ locations: 1, days: 6, seed: 91, ordersPerDay: [40, 60] });

afterEach(() => sim.current.dataset.restoreVoidedOrders());

function dayOf(offset: number): string {
  return addDays(sim.current.dataset.today, -offset);
}

function liveOrders(db: ReturnType<typeof openTestDb>, day: string): number {
  return scalar(
    db,
    "SELECT COUNT(*) FROM orders WHERE business_date = ? AND deleted_at IS NULL",
    day,
  ) as number;
}

function viewOrders(db: ReturnType<typeof openTestDb>, day: string): number {
  return scalar(
    db,
    "SELECT TOTAL(orders) FROM v_daily_sales WHERE business_date = ?",
    day,
  ) as number;
}

describe("orders voided upstream", () => {
  it("are marked deleted, leave the views, stay for audit, and come back when listed again", async () => {
    const db = openTestDb(tempPath());
    const day = dayOf(2);
    const range = { since: day, until: day };
    await syncOnce(sim.current, db, { range });
    const before = liveOrders(db, day);
    const salesBefore = viewOrders(db, day);
    const location = sim.current.dataset.locations[0]!;
    const voided = sim.current.dataset.voidOrders(location, day, 2);

    const second = await syncOnce(sim.current, db, { range });
    expect(second.result.status).toBe("succeeded");
    expect(second.result.stats.locations[0]?.streams.orders?.deleted).toBe(2);
    expect(liveOrders(db, day)).toBe(before - 2);
    const marked = rows(db, "SELECT id FROM orders WHERE deleted_at IS NOT NULL ORDER BY id");
    expect(marked.map((r) => r.id)).toEqual([...voided].sort());
    // Kept with their items for audit, counted in no view.
    expect(
      scalar(db, "SELECT COUNT(*) FROM order_items WHERE order_id = ?", voided[0]),
    ).toBeGreaterThan(0);
    expect(viewOrders(db, day)).toBeLessThan(salesBefore);
    expect(
      scalar(db, "SELECT status FROM sync_windows WHERE stream = 'orders' AND day = ?", day),
    ).toBe("complete");

    sim.current.dataset.restoreVoidedOrders();
    await syncOnce(sim.current, db, { range });
    expect(liveOrders(db, day)).toBe(before);
    expect(scalar(db, "SELECT COUNT(*) FROM orders WHERE deleted_at IS NOT NULL")).toBe(0);
    expect(viewOrders(db, day)).toBe(salesBefore);
    db.close();
  });

  it("are not mass-deleted when a day suddenly lists far fewer: the window is suspicious", async () => {
    const db = openTestDb(tempPath());
    const day = dayOf(3);
    const range = { since: day, until: day };
    await syncOnce(sim.current, db, { range });
    const before = liveOrders(db, day);
    const location = sim.current.dataset.locations[0]!;
    sim.current.dataset.voidOrders(location, day, before);

    const suspicious = await syncOnce(sim.current, db, { range });
    expect(liveOrders(db, day)).toBe(before);
    const window = rows(
      db,
      "SELECT status, last_error FROM sync_windows WHERE stream = 'orders' AND day = ?",
      day,
    )[0];
    expect(window.status).toBe("suspicious");
    expect(window.last_error).toContain(`no longer lists ${before} of the ${before} orders`);
    expect(window.last_error).toContain("--accept-deletions");
    expect(suspicious.result.status).toBe("partial");
    expect(suspicious.logs.text()).toContain("--accept-deletions");

    const accepted = await syncOnce(sim.current, db, { range, acceptDeletions: true });
    expect(accepted.result.status).toBe("succeeded");
    expect(liveOrders(db, day)).toBe(0);
    expect(scalar(db, "SELECT COUNT(*) FROM orders WHERE business_date = ?", day)).toBe(before);
    db.close();
  });
});

describe("orders no list shows but a report lists and the API serves by id", () => {
  it("are fetched by id once and stay live when their day is read again", async () => {
    const db = openTestDb(tempPath());
    const day = dayOf(3);
    const location = sim.current.dataset.locations[0]!;
    const [unlisted] = sim.current.dataset.unlistOrders(location, day, 1);
    await syncOnce(sim.current, db);
    expect(scalar(db, "SELECT deleted_at IS NULL FROM orders WHERE id = ?", unlisted)).toBe(1);

    sim.current.stats.reset();
    const again = await syncOnce(sim.current, db, { range: { since: day, until: day } });
    expect(again.result.stats.locations[0]?.streams.orders?.deleted).toBe(0);
    expect(scalar(db, "SELECT deleted_at IS NULL FROM orders WHERE id = ?", unlisted)).toBe(1);
    // Asked about once by id, since a report vouches for it.
    expect(sim.current.stats.snapshot().byOperation.getOrder).toBe(1);
    db.close();
  });
});

describe("the deletion guard", () => {
  it("accepts a few vanished records and suspects a day that lost most of them", () => {
    expect(judgeDisappearance({ stored: 100, unlisted: 0 }, false)).toBe("none");
    expect(judgeDisappearance({ stored: 2, unlisted: 1 }, false)).toBe("delete");
    expect(judgeDisappearance({ stored: 100, unlisted: 4 }, false)).toBe("delete");
    expect(judgeDisappearance({ stored: 100, unlisted: 25 }, false)).toBe("delete");
    expect(judgeDisappearance({ stored: 100, unlisted: 26 }, false)).toBe("suspicious");
    expect(judgeDisappearance({ stored: 120, unlisted: 120 }, false)).toBe("suspicious");
    expect(judgeDisappearance({ stored: 120, unlisted: 120 }, true)).toBe("delete");
  });

  it("suspects a day that lists nothing at all, however few it had", () => {
    expect(judgeDisappearance({ stored: 3, unlisted: 3 }, false)).toBe("suspicious");
    expect(judgeDisappearance({ stored: 1, unlisted: 1 }, false)).toBe("suspicious");
    expect(judgeDisappearance({ stored: 3, unlisted: 3 }, true)).toBe("delete");
  });

  it("defers when the read set aside records without an id, which may be the unlisted ones", () => {
    expect(judgeDisappearance({ stored: 100, unlisted: 2, unidentified: 1 }, false)).toBe(
      "deferred",
    );
    expect(judgeDisappearance({ stored: 100, unlisted: 2, unidentified: 0 }, false)).toBe("delete");
  });
});
