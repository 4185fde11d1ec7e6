/** The simulator's behaviour switches: each one changes what a client sees, as documented. */
import { afterEach, describe, expect, it } from "vitest";
import { orderSchema } from "../src/api/schemas.js";
import { addDays } from "../src/clock/days.js";
import { DEFAULT_FAULTS } from "../src/simulator/faults.js";
import { apiGet, readAllPages, TEST_TODAY, useSimulator } from "./helpers/simulator.js";
import { until } from "./helpers/wait.js";

const sim = useSimulator();
const key = () => sim.current.keys[0] as string;
const day = addDays(TEST_TODAY, -2);
const dayQuery = `/v1/orders/?since=${day}&until=${day}`;

afterEach(() => {
  sim.current.faults.reset();
  sim.current.dataset.restoreCatalogItems();
});

describe("ordering", () => {
  it("lists newest first when descending is on", async () => {
    sim.current.faults.set({ descending: true });
    const { records } = await readAllPages(sim.current, dayQuery, key());
    const instants = records.map((r) => Date.parse(r.createdAt));
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
  });
});

describe("failures", () => {
  it("delays every response by the latency", async () => {
    sim.current.faults.set({ latencyMs: 120 });
    const started = performance.now();
    await apiGet(sim.current, "/v1/catalog/taxes/", key());
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("makes its answer as the request arrives: the latency includes the time to make it", async () => {
    sim.current.faults.set({ latencyMs: 400 });
    const { dataset, stats } = sim.current;
    const before = stats.snapshot().total;
    const answer = apiGet(sim.current, "/v1/catalog/taxes/", key());
    await until(() => stats.snapshot().total > before, "the request to arrive");
    const [hidden] = dataset.hideCatalogItems(dataset.locations[0]!, ["taxes"], 1);
    const { body } = await answer;
    expect(body.map((tax: { id: string }) => tax.id)).toContain(hidden);
  });

  it("answers 5xx at the configured rate", async () => {
    sim.current.faults.set({ serverErrorRate: 1 });
    const { status, body } = await apiGet(sim.current, "/v1/catalog/", key());
    expect(status).toBeGreaterThanOrEqual(500);
    expect(body.error).toBe("server_error");
  });

  it("answers 429 with Retry-After in seconds", async () => {
    sim.current.faults.set({ rateLimitRate: 1, retryAfterSeconds: 3 });
    const { status, headers } = await apiGet(sim.current, "/v1/catalog/", key());
    expect(status).toBe(429);
    expect(headers.get("retry-after")).toBe("3");
  });

  it("answers 429 with Retry-After as an HTTP date", async () => {
    sim.current.faults.set({
      rateLimitRate: 1,
      retryAfterForm: "http-date",
      retryAfterSeconds: 30,
    });
    const { status, headers } = await apiGet(sim.current, "/v1/catalog/", key());
    expect(status).toBe(429);
    const retryAt = Date.parse(headers.get("retry-after") ?? "");
    expect(retryAt - Date.now()).toBeGreaterThan(25_000);
    expect(retryAt - Date.now()).toBeLessThanOrEqual(30_000);
  });

  it("closes the connection before the headers", async () => {
    sim.current.faults.inject({ kind: "drop", when: "before-headers" });
    await expect(apiGet(sim.current, "/v1/catalog/", key())).rejects.toThrow();
    expect(sim.current.stats.snapshot().faults.dropped).toBeGreaterThan(0);
  });

  it("closes the connection in the middle of the body", async () => {
    sim.current.faults.inject({ kind: "drop", when: "mid-body" });
    const response = await fetch(`${sim.current.url}${dayQuery}&size=100`, {
      headers: { authorization: key() },
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it("aims scripted faults at one operation and leaves the others alone", async () => {
    sim.current.faults.inject({ kind: "status", status: 503, operation: "listTaxes" });
    expect((await apiGet(sim.current, "/v1/catalog/", key())).status).toBe(200);
    expect((await apiGet(sim.current, "/v1/catalog/taxes/", key())).status).toBe(503);
    expect((await apiGet(sim.current, "/v1/catalog/taxes/", key())).status).toBe(200);
  });

  it("never fails health or authentication on purpose", async () => {
    sim.current.faults.set({ serverErrorRate: 1 });
    expect((await apiGet(sim.current, "/health")).status).toBe(200);
    expect((await apiGet(sim.current, "/v1/catalog/")).status).toBe(401);
  });
});

describe("malformed records", () => {
  it("serves a share of records that break the spec, always the same ones", async () => {
    sim.current.faults.set({ malformedRate: 0.2 });
    const invalidIds = async () => {
      const { body } = await apiGet(sim.current, `${dayQuery}&size=100`, key());
      return body.data
        .map((record: unknown, i: number) => ({ i, ok: orderSchema.safeParse(record).success }))
        .filter((r: { ok: boolean }) => !r.ok)
        .map((r: { i: number }) => r.i);
    };
    const first = await invalidIds();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(40);
    expect(await invalidIds()).toEqual(first);
  });
});

describe("pages that move and lie", () => {
  it("adds new orders to today while a client pages through it", async () => {
    sim.current.faults.set({ liveOrdersPerRequest: 3 });
    const todayQuery = `/v1/orders/?since=${TEST_TODAY}&until=${TEST_TODAY}&size=10`;
    const first = await apiGet(sim.current, todayQuery, key());
    const second = await apiGet(sim.current, `${todayQuery}&index=1`, key());
    expect(second.body.meta.totalCount).toBe(first.body.meta.totalCount + 3);
    const past = await apiGet(sim.current, `${dayQuery}&size=1`, key());
    const pastAgain = await apiGet(sim.current, `${dayQuery}&size=1`, key());
    expect(pastAgain.body.meta.totalCount).toBe(past.body.meta.totalCount);
  });

  it("shifts pages under a client reading newest first while orders arrive", async () => {
    sim.current.faults.set({ liveOrdersPerRequest: 2, descending: true });
    const todayQuery = `/v1/orders/?since=${TEST_TODAY}&until=${TEST_TODAY}&size=5`;
    const first = await apiGet(sim.current, todayQuery, key());
    const second = await apiGet(sim.current, `${todayQuery}&index=1`, key());
    const firstIds = first.body.data.map((o: { id: string }) => o.id);
    const secondIds = second.body.data.map((o: { id: string }) => o.id);
    expect(secondIds.some((id: string) => firstIds.includes(id))).toBe(true);
  });

  it.each([
    ["not-found", 404],
    ["bad-request", 400],
  ] as const)("answers a page past the end with %s when told to", async (pastEnd, status) => {
    sim.current.faults.set({ pastEnd });
    expect((await apiGet(sim.current, `${dayQuery}&size=100&index=0`, key())).status).toBe(200);
    expect((await apiGet(sim.current, `${dayQuery}&size=100&index=9`, key())).status).toBe(status);
  });

  it("answers a page past the end with the last page again when told to", async () => {
    sim.current.faults.set({ pastEnd: "last-page" });
    const query = `${dayQuery}&size=10`;
    const first = await apiGet(sim.current, query, key());
    const lastIndex = first.body.meta.totalPage - 1;
    const last = await apiGet(sim.current, `${query}&index=${lastIndex}`, key());
    const past = await apiGet(sim.current, `${query}&index=${lastIndex + 3}`, key());
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual(last.body.data);
    expect(past.body.meta.currentPageIndex).toBe(lastIndex);
  });

  it("repeats the previous page's last order at the end of each later page", async () => {
    sim.current.faults.set({ duplicatesAcrossPages: true });
    const query = `${dayQuery}&size=10`;
    const first = await apiGet(sim.current, query, key());
    const second = await apiGet(sim.current, `${query}&index=1`, key());
    expect(first.body.data).toHaveLength(10);
    expect(second.body.data.at(-1)).toEqual(first.body.data.at(-1));
  });

  it("changes an order of the previous page and serves its newer version on the next", async () => {
    sim.current.faults.set({ changesBetweenPages: true });
    const query = `${dayQuery}&size=10`;
    const first = await apiGet(sim.current, query, key());
    const second = await apiGet(sim.current, `${query}&index=1`, key());
    const before = first.body.data[0];
    const after = second.body.data.find((o: { id: string }) => o.id === before.id);
    expect(after).toBeDefined();
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(orderSchema.safeParse(after).success).toBe(true);
    const byId = await apiGet(sim.current, `/v1/orders/${before.id}`, key());
    expect(byId.body).toEqual(after);
  });

  it("reports a wrong totalCount when told to lie", async () => {
    const honest = await apiGet(sim.current, `${dayQuery}&size=10`, key());
    sim.current.faults.set({ totalCountSkew: 250 });
    const lying = await apiGet(sim.current, `${dayQuery}&size=10`, key());
    expect(lying.body.meta.totalCount).toBe(honest.body.meta.totalCount + 250);
    expect(lying.body.meta.totalPage).toBe(Math.ceil((honest.body.meta.totalCount + 250) / 10));
    expect(lying.body.data).toEqual(honest.body.data);
  });
});

describe("changes to the data", () => {
  it("applies late updates: new updatedAt, new figures, and a report that still adds up", async () => {
    const { dataset } = sim.current;
    const updates = dataset.applyLateUpdates(5, 3);
    expect(updates.length).toBe(5);
    for (const update of updates) {
      const loc = dataset.locations[update.locationIndex]!;
      const { body: served } = await apiGet(
        sim.current,
        `/v1/orders/${update.orderId}`,
        sim.current.keys[update.locationIndex],
      );
      expect(served.updatedAt > served.createdAt).toBe(true);
      if (update.kind === "cancel") expect(served.isCanceled).toBe(true);
      const { body: report } = await apiGet(
        sim.current,
        `/v1/reports/${served.reportId}`,
        sim.current.keys[update.locationIndex],
      );
      expect(Date.parse(report.updatedAt)).toBeGreaterThanOrEqual(Date.parse(served.updatedAt));
      const counted = [...dataset.allOrders(loc)].filter(
        (o) =>
          o.reportId === report.id && !o.isCanceled && !o.isTransferred && o.isTraining !== true,
      );
      const cents = counted.reduce((sum, o) => sum + Math.round(o.total * 100), 0);
      expect(Math.round(report.totalSales * 100)).toBe(cents);
    }
  });

  it("removes catalog items and devices from the lists, and brings them back", async () => {
    const { dataset } = sim.current;
    const loc = dataset.locations[0]!;
    const hidden = dataset.hideCatalogItems(loc, ["products", "devices", "taxes"], 1);
    expect(hidden).toHaveLength(3);
    const products = (await apiGet(sim.current, "/v1/catalog/", key())).body.map(
      (p: { id: string }) => p.id,
    );
    const devices = (await apiGet(sim.current, "/v1/locations/own?devices=true", key())).body
      .deviceList;
    expect(products).not.toContain(hidden[0]);
    expect(devices.map((d: { id: string }) => d.id)).not.toContain(hidden[1]);
    dataset.restoreCatalogItems();
    const restored = (await apiGet(sim.current, "/v1/catalog/", key())).body.map(
      (p: { id: string }) => p.id,
    );
    expect(restored).toContain(hidden[0]);
  });
});

it("turns every switch off on reset", () => {
  sim.current.faults.set({ dropRate: 0.5, descending: true });
  sim.current.faults.reset();
  expect(sim.current.faults.current).toEqual(DEFAULT_FAULTS);
});

describe("what the spec leaves unshown", () => {
  it("caps size above 100, or refuses it when told to", async () => {
    const capped = await apiGet(sim.current, "/v1/orders/?size=101", key());
    expect(capped.status).toBe(200);
    expect(capped.body.meta.pageSize).toBe(100);
    expect(capped.body.data).toHaveLength(100);
    sim.current.faults.set({ oversizePage: "refuse" });
    const refused = await apiGet(sim.current, "/v1/orders/?size=101", key());
    expect(refused.status).toBe(400);
    expect(refused.body.parameter).toBe("size");
    expect((await apiGet(sim.current, "/v1/reports/?size=500", key())).status).toBe(400);
    expect((await apiGet(sim.current, "/v1/orders/?size=100", key())).status).toBe(200);
  });

  it("serves size above 100 as asked when told to accept it", async () => {
    sim.current.faults.set({ oversizePage: "accept" });
    const page = await apiGet(sim.current, "/v1/orders/?size=150", key());
    expect(page.body.meta.pageSize).toBe(150);
    expect(page.body.data).toHaveLength(150);
  });

  it("puts an encoded index, an opaque cursor or nothing in nextPageToken", async () => {
    const token = async () =>
      (await apiGet(sim.current, `${dayQuery}&size=5`, key())).body.nextPageToken;
    const encoded = await token();
    expect(JSON.parse(Buffer.from(encoded, "base64url").toString())).toEqual({ index: 1, size: 5 });
    sim.current.faults.set({ pageToken: "opaque" });
    const opaque = await token();
    expect(opaque).toMatch(/^[\w-]{24}$/);
    expect(() => JSON.parse(Buffer.from(opaque, "base64url").toString())).toThrow();
    sim.current.faults.set({ pageToken: "none" });
    expect(await token()).toBeUndefined();
  });

  it("serves the first page whatever the index when told to ignore it", async () => {
    sim.current.faults.set({ ignoresIndex: true });
    const first = await apiGet(sim.current, `${dayQuery}&size=5`, key());
    const third = await apiGet(sim.current, `${dayQuery}&size=5&index=2`, key());
    expect(third.body.data).toEqual(first.body.data);
    expect(third.body.meta.currentPageIndex).toBe(0);
  });

  it("answers health without a key, or only with one when told to", async () => {
    expect((await apiGet(sim.current, "/health")).status).toBe(200);
    sim.current.faults.set({ healthNeedsKey: true });
    expect((await apiGet(sim.current, "/health")).status).toBe(401);
    const keyed = await apiGet(sim.current, "/health", key());
    expect(keyed.status).toBe(200);
    expect(keyed.body.status).toBe("ok");
  });

  it("limits each key to so many requests a minute, announced in X-RateLimit headers", async () => {
    sim.current.faults.set({ rateLimitPerMinute: 3 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await apiGet(sim.current, "/v1/catalog/", key()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual([
      "2",
      "1",
      "0",
      "0",
    ]);
    expect(answers[0]?.headers.get("x-ratelimit-limit")).toBe("3");
    expect(Number(answers[3]?.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await apiGet(sim.current, "/v1/catalog/", sim.current.keys[1] as string);
    expect(other.status).toBe(200);
  });
});

describe("a server that routes trailing slashes apart", () => {
  const strict = useSimulator({ strictSlashes: true, paths: { taxes: "/v1/catalog/tax" } });
  const strictKey = () => strict.current.keys[0] as string;

  it("answers a path only as it is spelled, with or without its slash", async () => {
    expect((await apiGet(strict.current, "/v1/catalog/tax", strictKey())).status).toBe(200);
    expect((await apiGet(strict.current, "/v1/catalog/tax/", strictKey())).status).toBe(404);
    expect((await apiGet(strict.current, "/v1/orders/?size=1", strictKey())).status).toBe(200);
    expect((await apiGet(strict.current, "/v1/orders?size=1", strictKey())).status).toBe(404);
    expect((await apiGet(strict.current, "/v1/locations/own/", strictKey())).status).toBe(404);
  });
});
