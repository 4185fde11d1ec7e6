/** The operations of the client: validated records, raw JSON kept, unshown paths. */

import { afterEach, describe, expect, it } from "vitest";
import { ApiEndpointNotFoundError } from "../src/api/errors.js";
import { addDays, toEpochDay } from "../src/clock/days.js";
import { CATALOG_LISTS, countDays, ORDERS } from "../src/streams/index.js";
import { readCatalogList, testClient } from "./helpers/client.js";
import { TEST_TODAY, useSimulator } from "./helpers/simulator.js";

const sim = useSimulator();
const location = () => sim.current.dataset.locations[0]!;

afterEach(() => {
  sim.current.faults.reset();
  sim.current.stats.reset();
});

describe("single reads", () => {
  it("reads the location with its devices, keeping fields the spec does not show", async () => {
    const { client } = testClient(sim.current);
    const result = await client.location();
    if (!result.ok) throw new Error(result.reject.reason);
    expect(result.valid.record.id).toBe(location().location.id);
    expect(result.valid.record.deviceList).toHaveLength(location().devices.length);
    expect(JSON.parse(result.valid.raw).deviceList[0].osVersion).toEqual(expect.any(String));
  });

  it("reads health without sending a key", async () => {
    const { client } = testClient(sim.current, { client: { apiKey: "not-a-key-at-all" } });
    const result = await client.health();
    expect(result.ok && result.valid.record.status).toBe("ok");
  });

  it("reads an order and a report by id, and answers null for unknown ids", async () => {
    const { client } = testClient(sim.current);
    const report = [...sim.current.dataset.allReports(location())][3]!;
    const orderId = report.orders[0] as string;
    const order = await client.order(orderId);
    expect(order?.ok && order.valid.record.reportId).toBe(report.id);
    const fetched = await client.report(report.id);
    expect(fetched?.ok && fetched.valid.record.totalSales).toBe(report.totalSales);
    expect(await client.order("0f8fad5b-d9cb-469f-a165-70867728950e")).toBeNull();
    expect(await client.report("0f8fad5b-d9cb-469f-a165-70867728950e")).toBeNull();
  });

  it("counts a day's records with one size=1 request", async () => {
    const { client } = testClient(sim.current);
    const day = addDays(TEST_TODAY, -1);
    const expected = sim.current.dataset.ordersCreatedOn(location(), toEpochDay(day)).length;
    expect(await countDays(ORDERS, client, { since: day, until: day })).toBe(expected);
    expect(sim.current.stats.snapshot().byOperation.listOrders).toBe(1);
  });

  it("hands back a malformed single record as a reject", async () => {
    sim.current.faults.set({ malformedRate: 1 });
    const { client } = testClient(sim.current);
    const report = [...sim.current.dataset.allReports(location())][0]!;
    const fetched = await client.report(report.id);
    expect(fetched?.ok).toBe(false);
    if (fetched && !fetched.ok) {
      expect(fetched.reject.recordId).toBe(report.id);
      expect(fetched.reject.reason).not.toBe("");
    }
  });
});

describe("catalog", () => {
  it.each(CATALOG_LISTS.map((list) => list.name))(
    "reads %s as validated records with their raw JSON",
    async (resource) => {
      const { client } = testClient(sim.current);
      const { records, rejects } = await readCatalogList(client, resource);
      expect(rejects).toEqual([]);
      expect(records.length).toBeGreaterThan(0);
      for (const { record, raw } of records) expect(JSON.parse(raw)).toEqual(record);
    },
  );

  it("keeps the valid records of a list with malformed ones", async () => {
    sim.current.faults.set({ malformedRate: 0.3 });
    const { client } = testClient(sim.current);
    const { records, rejects } = await readCatalogList(client, "products");
    expect(rejects.length).toBeGreaterThan(0);
    expect(records.length + rejects.length).toBe(location().catalog.products.length);
  });

  it("marks an unshown path that answers 404 as unavailable, naming the setting", async () => {
    const { client } = testClient(sim.current, { client: { paths: { taxes: "/v1/not-here/" } } });
    const error = await readCatalogList(client, "taxes").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiEndpointNotFoundError);
    expect((error as Error).message).toBe(
      "GET /v1/not-here/ answered 404: this API does not serve listTaxes there (set POS_PATH_TAXES; pos-sync probe finds it)",
    );
    expect((await readCatalogList(client, "paymentMethods")).records.length).toBeGreaterThan(0);
  });

  it("follows unshown paths moved by configuration", async () => {
    const { startSimulator } = await import("../src/simulator/server.js");
    const moved = await startSimulator({
      seed: 3,
      locations: 1,
      days: 3,
      today: TEST_TODAY,
      paths: { taxes: "/v1/tax-rates" },
    });
    try {
      const { client } = testClient(moved, { client: { paths: { taxes: "/v1/tax-rates" } } });
      expect((await readCatalogList(client, "taxes")).records).toHaveLength(3);
    } finally {
      await moved.close();
    }
  });
});
