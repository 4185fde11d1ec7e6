/**
 * The simulator against every rule of the API spec it implements, over real HTTP on loopback.
 */
import { describe, expect, it } from "vitest";
import {
  categorySchema,
  healthSchema,
  listEnvelopeSchema,
  locationSchema,
  modifierSchema,
  orderSchema,
  paymentMethodSchema,
  productSchema,
  reportSchema,
  taxSchema,
} from "../src/api/schemas.js";
import { addDays } from "../src/clock/days.js";
import { startSimulator } from "../src/simulator/server.js";
import {
  apiGet,
  readAllPages,
  SMALL_DATASET,
  TEST_TODAY,
  useSimulator,
} from "./helpers/simulator.js";

const sim = useSimulator();
const key = () => sim.current.keys[0] as string;
const location = () => sim.current.dataset.locations[0]!;
const day = addDays(TEST_TODAY, -3);

function groundTruthOrders(since: string, until: string) {
  return [...sim.current.dataset.allOrders(location())].filter((o) => {
    const d = o.createdAt.slice(0, 10);
    return d >= since && d <= until;
  });
}

describe("health", () => {
  it("answers without a key, with the spec's fields", async () => {
    const { status, body } = await apiGet(sim.current, "/health");
    expect(status).toBe(200);
    expect(healthSchema.parse(body)).toMatchObject({ status: "ok", apiVersions: "v1" });
  });
});

describe("authentication", () => {
  it("rejects a request without an authorization header with 401 and a JSON error", async () => {
    const { status, body, headers } = await apiGet(sim.current, "/v1/orders/");
    expect(status).toBe(401);
    expect(headers.get("content-type")).toContain("application/json");
    expect(body.error).toBe("unauthorized");
  });

  it("rejects an unknown key with 401", async () => {
    const { status, body } = await apiGet(sim.current, "/v1/locations/own", "pos_sim_not_a_key");
    expect(status).toBe(401);
    expect(body.message).toMatch(/unknown/);
  });

  it("requires the key on every operation but health", async () => {
    const paths = [
      "/v1/orders/",
      `/v1/orders/${sim.current.dataset.listOrders(location(), { index: 0, size: 1, descending: false }).records[0]?.id}`,
      "/v1/reports/",
      `/v1/reports/${[...sim.current.dataset.allReports(location())][0]?.id}`,
      "/v1/locations/own",
      "/v1/catalog/",
      "/v1/catalog/modifiers/",
      "/v1/catalog/categories/",
      "/v1/catalog/payment-methods/",
      "/v1/catalog/taxes/",
    ];
    for (const path of paths) {
      expect((await apiGet(sim.current, path)).status, path).toBe(401);
      expect((await apiGet(sim.current, path, key())).status, path).toBe(200);
    }
  });

  it("ties each key to its own location", async () => {
    const [first, second] = sim.current.keys as [string, string];
    const a = await apiGet(sim.current, "/v1/locations/own", first);
    const b = await apiGet(sim.current, "/v1/locations/own", second);
    expect(a.body.id).not.toBe(b.body.id);
    const orders = await apiGet(
      sim.current,
      `/v1/orders/?since=${day}&until=${day}&size=100`,
      second,
    );
    expect(orders.body.data.length).toBeGreaterThan(0);
    for (const order of orders.body.data) expect(order.locationId).toBe(b.body.id);
  });

  it("accepts a scheme prefix when configured, and then refuses the bare key", async () => {
    const bearer = await startSimulator({ ...SMALL_DATASET, authScheme: "Bearer" });
    try {
      const bareKey = bearer.keys[0] as string;
      expect((await apiGet(bearer, "/v1/locations/own", bareKey)).status).toBe(401);
      expect((await apiGet(bearer, "/v1/locations/own", `Bearer ${bareKey}`)).status).toBe(200);
      expect((await apiGet(bearer, "/health")).status).toBe(200);
    } finally {
      await bearer.close();
    }
  });
});

describe("orders list parameters", () => {
  it("defaults to index 0 and size 10", async () => {
    const { status, body } = await apiGet(sim.current, "/v1/orders/", key());
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({ currentPageIndex: 0, pageSize: 10 });
    expect(body.data).toHaveLength(10);
  });

  it("caps size above 100 at 100", async () => {
    const { status, body } = await apiGet(sim.current, "/v1/orders/?size=500", key());
    expect(status).toBe(200);
    expect(body.meta.pageSize).toBe(100);
    expect(body.data).toHaveLength(100);
  });

  it.each([
    ["index", "index=-1"],
    ["index", "index=abc"],
    ["index", "index=1.5"],
    ["index", "index="],
    ["index", "index=1&index=2"],
    ["size", "size=0"],
    ["size", "size=-3"],
    ["size", "size=ten"],
    ["since", "since=2026-13-01"],
    ["since", "since=2026-04-31"],
    ["since", "since=2026-02-30"],
    ["since", "since=20260301"],
    ["until", "until=yesterday"],
    ["until", "until=2026-3-1"],
    ["reportId", "reportId=not-a-uuid"],
  ])("answers 400 naming %s for %s", async (parameter, query) => {
    const { status, body } = await apiGet(sim.current, `/v1/orders/?${query}`, key());
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "invalid_parameter", parameter });
    expect(body.message).toContain(parameter);
  });

  it("validates the same parameters on the reports list", async () => {
    for (const [parameter, query] of [
      ["index", "index=-1"],
      ["size", "size=0"],
      ["since", "since=2026-06-31"],
      ["until", "until=x"],
    ]) {
      const { status, body } = await apiGet(sim.current, `/v1/reports/?${query}`, key());
      expect(status, query).toBe(400);
      expect(body.parameter).toBe(parameter);
    }
  });

  it("accepts 29 February in any year, as the spec's pattern does", async () => {
    const { status } = await apiGet(
      sim.current,
      "/v1/orders/?since=2025-02-29&until=2025-02-29",
      key(),
    );
    expect(status).toBe(200);
  });

  it("includes both since and until, filtering on the local date of createdAt", async () => {
    const since = addDays(TEST_TODAY, -4);
    const until = addDays(TEST_TODAY, -2);
    const { records, totalCount } = await readAllPages(
      sim.current,
      `/v1/orders/?since=${since}&until=${until}`,
      key(),
    );
    const expected = groundTruthOrders(since, until);
    expect(totalCount).toBe(expected.length);
    expect(records.map((r) => r.id).sort()).toEqual(expected.map((o) => o.id).sort());
    for (const record of records) {
      expect(record.createdAt.slice(0, 10) >= since && record.createdAt.slice(0, 10) <= until).toBe(
        true,
      );
    }
    let perDay = 0;
    for (const d of [since, addDays(since, 1), until]) {
      perDay += (await apiGet(sim.current, `/v1/orders/?since=${d}&until=${d}&size=1`, key())).body
        .meta.totalCount;
    }
    expect(perDay).toBe(totalCount);
  });

  it("lists an order created just after local midnight under its own date, not its session's", async () => {
    const lateOrder = [...sim.current.dataset.allOrders(location())].find(
      (o) => o.createdAt.slice(11, 13) === "00",
    );
    expect(lateOrder, "the generator makes orders just after midnight").toBeDefined();
    if (!lateOrder) return;
    const own = lateOrder.createdAt.slice(0, 10);
    const previous = addDays(own, -1);
    const onOwnDay = await readAllPages(
      sim.current,
      `/v1/orders/?since=${own}&until=${own}`,
      key(),
    );
    const onPrevious = await readAllPages(
      sim.current,
      `/v1/orders/?since=${previous}&until=${previous}`,
      key(),
    );
    expect(onOwnDay.records.map((r) => r.id)).toContain(lateOrder.id);
    expect(onPrevious.records.map((r) => r.id)).not.toContain(lateOrder.id);
    const report = await apiGet(sim.current, `/v1/reports/${lateOrder.reportId}`, key());
    expect(report.body.startedAt.slice(0, 10)).toBe(previous);
  });

  it("restricts to one report with reportId", async () => {
    const report = [...sim.current.dataset.allReports(location())][2]!;
    const { records, totalCount } = await readAllPages(
      sim.current,
      `/v1/orders/?reportId=${report.id}`,
      key(),
    );
    expect(totalCount).toBe(report.orders.length);
    expect(records.map((r) => r.id).sort()).toEqual([...report.orders].sort());
  });

  it("orders by createdAt, oldest first", async () => {
    const { records } = await readAllPages(
      sim.current,
      `/v1/orders/?since=${addDays(day, -2)}&until=${day}`,
      key(),
    );
    const instants = records.map((r) => Date.parse(r.createdAt));
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
  });
});

describe("list envelope", () => {
  it("has data, meta, links with prev null on the first page, and a next-page token", async () => {
    const { body } = await apiGet(
      sim.current,
      `/v1/orders/?since=${day}&until=${day}&size=7`,
      key(),
    );
    const envelope = listEnvelopeSchema.parse(body);
    expect(envelope.meta.totalPage).toBe(Math.ceil(envelope.meta.totalCount / 7));
    expect(envelope.links?.prev).toBeNull();
    expect(new URL(envelope.links?.next ?? "").searchParams.get("index")).toBe("1");
    expect(new URL(envelope.links?.last ?? "").searchParams.get("index")).toBe(
      String(envelope.meta.totalPage - 1),
    );
    expect(envelope.nextPageToken).toEqual(expect.any(String));
  });

  it("links back on later pages and ends with next null and no token", async () => {
    const first = await apiGet(sim.current, `/v1/orders/?since=${day}&until=${day}&size=7`, key());
    const lastIndex = first.body.meta.totalPage - 1;
    const { body } = await apiGet(
      sim.current,
      `/v1/orders/?since=${day}&until=${day}&size=7&index=${lastIndex}`,
      key(),
    );
    expect(body.meta.currentPageIndex).toBe(lastIndex);
    expect(new URL(body.links.prev).searchParams.get("index")).toBe(String(lastIndex - 1));
    expect(body.links.next).toBeNull();
    expect(body.nextPageToken).toBeUndefined();
  });

  it("walks to exactly totalCount distinct records", async () => {
    const { records, totalCount } = await readAllPages(
      sim.current,
      `/v1/orders/?since=${day}&until=${day}`,
      key(),
    );
    expect(new Set(records.map((r) => r.id)).size).toBe(totalCount);
    expect(records).toHaveLength(totalCount);
  });

  it("answers an empty page past the end by default", async () => {
    const { status, body } = await apiGet(
      sim.current,
      `/v1/orders/?since=${day}&until=${day}&size=100&index=50`,
      key(),
    );
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
  });
});

describe("single records", () => {
  it("returns an order by id, the same as in the list", async () => {
    const { body } = await apiGet(
      sim.current,
      `/v1/orders/?since=${day}&until=${day}&size=3`,
      key(),
    );
    const listed = body.data[2];
    const single = await apiGet(sim.current, `/v1/orders/${listed.id}`, key());
    expect(single.status).toBe(200);
    expect(single.body).toEqual(listed);
  });

  it("answers 404 for an unknown order, 400 for an id that is not a uuid", async () => {
    const missing = await apiGet(
      sim.current,
      "/v1/orders/0f8fad5b-d9cb-469f-a165-70867728950e",
      key(),
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("not_found");
    const bad = await apiGet(sim.current, "/v1/orders/12345", key());
    expect(bad.status).toBe(400);
    expect(bad.body.parameter).toBe("id");
  });

  it("does not serve another location's order", async () => {
    const other = sim.current.dataset.locations[1]!;
    const foreign = sim.current.dataset.listOrders(other, { index: 0, size: 1, descending: false })
      .records[0]!;
    expect((await apiGet(sim.current, `/v1/orders/${foreign.id}`, key())).status).toBe(404);
  });

  it("returns a report by id at the default path and 404 for an unknown one", async () => {
    const { body } = await apiGet(sim.current, `/v1/reports/?since=${day}&until=${day}`, key());
    expect(body.data.length).toBeGreaterThan(0);
    const single = await apiGet(sim.current, `/v1/reports/${body.data[0].id}`, key());
    expect(single.body).toEqual(body.data[0]);
    expect(
      (await apiGet(sim.current, "/v1/reports/0f8fad5b-d9cb-469f-a165-70867728950e", key())).status,
    ).toBe(404);
  });
});

describe("reports list", () => {
  it("lists one report per closed session, none for today's open one, ordered by createdAt", async () => {
    const { records, totalCount } = await readAllPages(sim.current, "/v1/reports/", key());
    expect(totalCount).toBe(SMALL_DATASET.days - 1);
    const instants = records.map((r) => Date.parse(r.createdAt));
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
    for (const record of records) expect(reportSchema.safeParse(record).success).toBe(true);
  });

  it("ignores reportId, which only the orders list takes", async () => {
    const withParam = await apiGet(sim.current, "/v1/reports/?reportId=whatever", key());
    expect(withParam.status).toBe(200);
  });
});

describe("location and catalog", () => {
  it("adds deviceList only when devices=true, and refuses other values", async () => {
    const plain = await apiGet(sim.current, "/v1/locations/own", key());
    expect(locationSchema.parse(plain.body).deviceList).toBeUndefined();
    const withDevices = await apiGet(sim.current, "/v1/locations/own?devices=true", key());
    expect(locationSchema.parse(withDevices.body).deviceList?.length).toBeGreaterThan(0);
    const refused = await apiGet(sim.current, "/v1/locations/own?devices=false", key());
    expect(refused.status).toBe(400);
    expect(refused.body.parameter).toBe("devices");
  });

  it.each([
    ["/v1/catalog/", productSchema],
    ["/v1/catalog/modifiers/", modifierSchema],
    ["/v1/catalog/categories/", categorySchema],
    ["/v1/catalog/payment-methods/", paymentMethodSchema],
    ["/v1/catalog/taxes/", taxSchema],
  ] as const)("serves %s as an array of valid records", async (path, schema) => {
    const { status, body } = await apiGet(sim.current, path, key());
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.length).toBeGreaterThan(0);
    for (const record of body) expect(schema.safeParse(record).success).toBe(true);
  });

  it("serves the unshown paths where it is told to", async () => {
    const moved = await startSimulator({
      ...SMALL_DATASET,
      paths: {
        taxes: "/v1/taxes",
        report: "/v1/report/{id}",
        health: "/status",
        paymentMethods: "/v1/pm",
      },
    });
    try {
      const k = moved.keys[0] as string;
      const report = [...moved.dataset.allReports(moved.dataset.locations[0]!)][0]!;
      expect((await apiGet(moved, "/v1/taxes", k)).status).toBe(200);
      expect((await apiGet(moved, "/v1/catalog/taxes/", k)).status).toBe(404);
      expect((await apiGet(moved, `/v1/report/${report.id}`, k)).status).toBe(200);
      expect((await apiGet(moved, "/status")).status).toBe(200);
      expect((await apiGet(moved, "/health")).status).toBe(404);
      expect((await apiGet(moved, "/v1/pm", k)).status).toBe(200);
    } finally {
      await moved.close();
    }
  });
});

describe("records match the spec", () => {
  it("every order and report of a week validates against the spec's schemas", async () => {
    const since = addDays(TEST_TODAY, -7);
    for (const [path, schema] of [
      [`/v1/orders/?since=${since}&until=${TEST_TODAY}`, orderSchema],
      [`/v1/reports/?since=${since}&until=${TEST_TODAY}`, reportSchema],
    ] as const) {
      const { records } = await readAllPages(sim.current, path, key());
      expect(records.length).toBeGreaterThan(0);
      for (const record of records) {
        const result = schema.safeParse(record);
        expect(result.success, `${record.id}: ${result.error?.message}`).toBe(true);
      }
    }
  });
});

describe("errors outside the operations", () => {
  it("answers 404 with a JSON body for an unknown path", async () => {
    const { status, body } = await apiGet(sim.current, "/v2/orders/", key());
    expect(status).toBe(404);
    expect(body.error).toBe("not_found");
  });

  it("answers 405 to anything but GET", async () => {
    const response = await fetch(`${sim.current.url}/v1/orders/`, {
      method: "POST",
      headers: { authorization: key() },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});

describe("request accounting", () => {
  it("counts requests per operation", async () => {
    const before = sim.current.stats.snapshot();
    await apiGet(sim.current, "/v1/catalog/taxes/", key());
    await apiGet(sim.current, "/v1/catalog/taxes/", key());
    await apiGet(sim.current, "/health");
    const after = sim.current.stats.snapshot();
    expect(after.byOperation.listTaxes - before.byOperation.listTaxes).toBe(2);
    expect(after.byOperation.health - before.byOperation.health).toBe(1);
    expect(after.total - before.total).toBe(3);
  });
});
