/** Walking list endpoints: complete, bounded, and honest about pages that move or lie. */

import { afterEach, describe, expect, it } from "vitest";
import { PageWalk } from "../src/api/pagination.js";
import { orderSchema } from "../src/api/schemas.js";
import { validateRecords } from "../src/api/validate.js";
import { addDays, toEpochDay } from "../src/clock/days.js";
import { CpuLane } from "../src/cpu-lane.js";
import { ORDERS, REPORTS, readDays } from "../src/streams/index.js";
import { testClient } from "./helpers/client.js";
import { loopTurnedDuring } from "./helpers/event-loop.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";

const sim = useSimulator({ ordersPerDay: [150, 250] });
const day = addDays(TEST_TODAY, -2);
const range = { since: day, until: day };

afterEach(() => {
  sim.current.faults.reset();
  sim.current.stats.reset();
});

async function readAll<
  W extends AsyncIterable<{
    records: { record: { id: string } }[];
    rejects: { recordId: string | null }[];
  }>,
>(walk: W) {
  const ids: string[] = [];
  const rejected: (string | null)[] = [];
  for await (const page of walk) {
    ids.push(...page.records.map((r) => r.record.id));
    rejected.push(...page.rejects.map((r) => r.recordId));
  }
  return { ids, rejected };
}

function groundTruth(onDay: string): string[] {
  const location = sim.current.dataset.locations[0]!;
  return sim.current.dataset.ordersCreatedOn(location, toEpochDay(onDay)).map((o) => o.id);
}

describe("a day's walk", () => {
  it("reads every page with size=100 from index 0 and stops after the last", async () => {
    const { client } = testClient(sim.current);
    const walk = readDays(ORDERS, client, range);
    const { ids } = await readAll(walk);
    const expected = groundTruth(day);
    expect(expected.length).toBeGreaterThan(100);
    expect(ids.sort()).toEqual([...expected].sort());
    expect(walk.summary).toMatchObject({
      pages: Math.ceil(expected.length / 100),
      endedBy: "last-page",
      countChanged: false,
      distinctRecords: expected.length,
      firstTotalCount: expected.length,
    });
    expect(sim.current.stats.snapshot().byOperation.listOrders).toBe(
      Math.ceil(expected.length / 100),
    );
  });

  it("reads a day with no records in one request", async () => {
    const { client } = testClient(sim.current);
    const walk = readDays(ORDERS, client, { since: "2020-01-01", until: "2020-01-01" });
    expect((await readAll(walk)).ids).toEqual([]);
    expect(walk.summary).toMatchObject({ pages: 1, endedBy: "empty-page", firstTotalCount: 0 });
  });

  it("walks reports the same way", async () => {
    const { client } = testClient(sim.current);
    const walk = readDays(REPORTS, client, { since: addDays(TEST_TODAY, -11), until: TEST_TODAY });
    const { ids } = await readAll(walk);
    expect(ids).toHaveLength(11);
    expect(walk.summary.endedBy).toBe("last-page");
  });

  it("holds no record's parsed JSON once its page is validated", async () => {
    const location = sim.current.dataset.locations[0]!;
    const ids = groundTruth(day).slice(0, 5);
    const orders = ids.map((id) => sim.current.dataset.order(location, id));
    const body: { data?: unknown[]; meta: unknown } = {
      data: [...orders],
      meta: { totalCount: 5, currentPageIndex: 0, totalPage: 1, pageSize: 100 },
    };
    const walk = new PageWalk(
      async () => body,
      orderSchema,
      () => ({ operation: "listOrders", target: "/v1/orders/" }),
      new CpuLane(),
    );
    expect((await readAll(walk)).ids).toEqual(ids);
    // Held until the page was stored, the records' JSON outlived the reading thread's young
    // generation, page after page (docs/benchmarks.md).
    expect(body.data).toBeUndefined();
  });

  it("lets go of each record of a list as soon as it is validated", async () => {
    const location = sim.current.dataset.locations[0]!;
    const list: unknown[] = groundTruth(day)
      .slice(0, 5)
      .map((id) => sim.current.dataset.order(location, id));
    const { records } = await validateRecords(orderSchema, list, new CpuLane());
    expect(records).toHaveLength(5);
    expect(list).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it("lets replies in while it validates a long list", async () => {
    const location = sim.current.dataset.locations[0]!;
    const orders = groundTruth(day).map((id) => sim.current.dataset.order(location, id));
    const list: unknown[] = [...orders, ...orders, ...orders, ...orders];
    expect(await loopTurnedDuring(() => validateRecords(orderSchema, list, new CpuLane()))).toBe(
      true,
    );
  });
});

describe("a server that lies", () => {
  it("ends cleanly on an empty page when totalCount promises more", async () => {
    sim.current.faults.set({ totalCountSkew: 1_000 });
    const { client } = testClient(sim.current);
    const walk = readDays(ORDERS, client, range);
    const { ids } = await readAll(walk);
    expect(ids.length).toBe(groundTruth(day).length);
    expect(walk.summary.endedBy).toBe("empty-page");
    expect(walk.summary.lastTotalCount).toBe(ids.length + 1_000);
  });

  it.each(["not-found", "bad-request"] as const)(
    "ends cleanly when a page past the end answers %s",
    async (pastEnd) => {
      sim.current.faults.set({ totalCountSkew: 1_000, pastEnd });
      const { client } = testClient(sim.current);
      const walk = readDays(ORDERS, client, range);
      const { ids } = await readAll(walk);
      expect(ids.length).toBe(groundTruth(day).length);
      expect(walk.summary.endedBy).toBe("past-end-status");
    },
  );

  it("ends cleanly, each record once, when a page past the end repeats the last page", async () => {
    sim.current.faults.set({ totalCountSkew: 1_000, pastEnd: "last-page" });
    const { client } = testClient(sim.current);
    const walk = readDays(ORDERS, client, range);
    const { ids } = await readAll(walk);
    expect(ids.length).toBe(groundTruth(day).length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(walk.summary.endedBy).toBe("no-progress");
    expect(walk.summary.duplicates).toBeGreaterThan(0);
  });

  it("still fails when the first page answers an error", async () => {
    sim.current.faults.inject({ kind: "status", status: 404, operation: "listOrders" });
    const { client } = testClient(sim.current);
    await expect(readAll(readDays(ORDERS, client, range))).rejects.toThrow(/answered 404/);
  });

  it("reads no more pages than totalCount justifies from a server that ignores index", async () => {
    const sameRecords = groundTruth(day).slice(0, 3);
    const location = sim.current.dataset.locations[0]!;
    const orders = sameRecords.map((id) => sim.current.dataset.order(location, id));
    let requests = 0;
    const walk = new PageWalk(
      async () => {
        requests++;
        return {
          data: orders,
          meta: { totalCount: 250, currentPageIndex: 0, totalPage: 3, pageSize: 100 },
        };
      },
      orderSchema,
      () => ({ operation: "listOrders", target: "/v1/orders/" }),
      new CpuLane(),
    );
    const { ids } = await readAll(walk);
    expect(ids).toHaveLength(3);
    expect(requests).toBeLessThanOrEqual(3);
    expect(walk.summary.duplicates).toBe(3 * (requests - 1));
  });

  it("gives up on a server that never stops answering new pages", async () => {
    let requests = 0;
    const walk = new PageWalk(
      async () => {
        requests++;
        return {
          data: [{ id: `00000000-0000-4000-8000-${String(requests).padStart(12, "0")}` }],
          meta: { totalCount: 5, currentPageIndex: 0, totalPage: 1_000_000, pageSize: 1 },
        };
      },
      orderSchema,
      () => ({ operation: "listOrders", target: "/v1/orders/" }),
      new CpuLane(),
      1,
    );
    await readAll(walk);
    expect(walk.summary.endedBy).toBe("page-bound");
    expect(requests).toBe(5 + 2);
  });

  it("refuses a page that is not a list envelope", async () => {
    const walk = new PageWalk(
      async () => ({ items: [] }),
      orderSchema,
      () => ({ operation: "listOrders", target: "/v1/orders/?index=0" }),
      new CpuLane(),
    );
    await expect(readAll(walk)).rejects.toThrow(
      /list envelope does not match the spec \(data: missing/,
    );
  });
});

describe("pages that move", () => {
  it("reports a count that grows while new orders arrive, and keeps every order once", async () => {
    sim.current.faults.set({ liveOrdersPerRequest: 4, descending: true });
    const { client } = testClient(sim.current, { client: { pageSize: 20 } });
    const walk = readDays(ORDERS, client, { since: TEST_TODAY, until: TEST_TODAY });
    const { ids } = await readAll(walk);
    expect(walk.summary.countChanged).toBe(true);
    expect(walk.summary.lastTotalCount).toBeGreaterThan(walk.summary.firstTotalCount ?? 0);
    expect(walk.summary.duplicates).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    // Reading newest first while orders arrive shifts older ones past the pages already read:
    // the caller re-reads the window, and a quiet second walk finds all of them.
    sim.current.faults.set({ liveOrdersPerRequest: 0 });
    const again = await readAll(readDays(ORDERS, client, { since: TEST_TODAY, until: TEST_TODAY }));
    expect(new Set([...ids, ...again.ids]).size).toBe(groundTruth(TEST_TODAY).length);
    expect(again.ids.length).toBe(groundTruth(TEST_TODAY).length);
  });
});

describe("malformed records", () => {
  it("hands back invalid records as rejects and keeps the rest of the page", async () => {
    sim.current.faults.set({ malformedRate: 0.1 });
    const { client } = testClient(sim.current);
    const walk = readDays(ORDERS, client, range);
    const rejects: { recordId: string | null; reason: string; raw: string }[] = [];
    let valid = 0;
    for await (const page of walk) {
      valid += page.records.length;
      rejects.push(...page.rejects);
    }
    expect(rejects.length).toBeGreaterThan(0);
    expect(valid + rejects.length).toBe(groundTruth(day).length);
    expect(walk.summary.distinctRecords).toBe(groundTruth(day).length);
    for (const reject of rejects) {
      expect(reject.reason).toMatch(/^[\w.[\]]+: .+/);
      expect(() => JSON.parse(reject.raw)).not.toThrow();
    }
    const withId = rejects.filter((r) => r.recordId !== null);
    expect(withId.length).toBeGreaterThan(0);
    for (const reject of withId) expect(groundTruth(day)).toContain(reject.recordId);
    expect(rejects.some((r) => r.reason.includes("total: expected number, received string"))).toBe(
      true,
    );
  });
});
