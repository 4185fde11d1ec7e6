/** The client's door to the network: retries, timeouts, rate limits, concurrency and the
 * rejected-key path, over real HTTP against the simulator. */

import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiKeyRejectedError,
  ApiNetworkError,
  ApiServerError,
  ApiStatusError,
} from "../src/api/errors.js";
import { PAGE_STEP } from "../src/cpu-lane.js";
import { ORDERS, readDays } from "../src/streams/index.js";
import { apiErrorOf, FAST_RETRY, readCatalogList, testClient } from "./helpers/client.js";
import { type PlainHandler, withServer } from "./helpers/plain-server.js";
import { apiGet, useSimulator } from "./helpers/simulator.js";
import { until } from "./helpers/wait.js";

const sim = useSimulator();

afterEach(() => {
  sim.current.faults.reset();
  sim.current.stats.reset();
});

describe("retries", () => {
  it("retries 503 answers and succeeds", async () => {
    const { client, transport } = testClient(sim.current);
    sim.current.faults.inject(
      { kind: "status", status: 503, operation: "listProducts" },
      { kind: "status", status: 502, operation: "listProducts" },
    );
    const products = await readCatalogList(client, "products");
    expect(products.records.length).toBeGreaterThan(0);
    expect(sim.current.stats.snapshot().byOperation.listProducts).toBe(3);
    expect(transport.stats.retries).toBe(2);
  });

  it("retries 408 like a server failure", async () => {
    const { client } = testClient(sim.current);
    sim.current.faults.inject({ kind: "status", status: 408 });
    expect((await readCatalogList(client, "taxes")).records.length).toBeGreaterThan(0);
  });

  it("retries a connection closed before the headers and one closed mid-body", async () => {
    const { client, transport } = testClient(sim.current);
    sim.current.faults.inject(
      { kind: "drop", when: "before-headers", operation: "listCategories" },
      { kind: "drop", when: "mid-body", operation: "listCategories" },
    );
    const categories = await readCatalogList(client, "categories");
    expect(categories.records.length).toBeGreaterThan(0);
    expect(transport.stats.retries).toBe(2);
    expect(sim.current.stats.snapshot().faults.dropped).toBe(2);
  });

  it("gives up on a response slower than the headers timeout, then retries it", async () => {
    // undici checks this timeout on a clock of about one second: the delay must exceed that.
    const { client, transport } = testClient(sim.current, {
      transport: { timeouts: { headersMs: 150 } },
    });
    sim.current.faults.inject({ kind: "delay", ms: 3_000, operation: "listModifiers" });
    const modifiers = await readCatalogList(client, "modifiers");
    expect(modifiers.records.length).toBeGreaterThan(0);
    expect(transport.stats.retries).toBe(1);
  });

  it("stops after a bounded number of attempts with a retryable error", async () => {
    const { client } = testClient(sim.current);
    sim.current.faults.set({ serverErrorRate: 1 });
    const error = await apiErrorOf(readCatalogList(client, "products"));
    expect(error).toBeInstanceOf(ApiServerError);
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(FAST_RETRY.retries + 1);
    expect(sim.current.stats.snapshot().byOperation.listProducts).toBe(FAST_RETRY.retries + 1);
    expect(error.message).toMatch(/^GET \/v1\/catalog\/ answered 5\d\d$/);
  });

  it("reports an unreachable host as a network error after its retries", async () => {
    const { client } = testClient(sim.current, {
      transport: { baseUrl: "http://127.0.0.1:9", retry: { ...FAST_RETRY, retries: 1 } },
    });
    const error = await apiErrorOf(readCatalogList(client, "products"));
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error.message).toContain("on 127.0.0.1:9 failed: connection refused (ECONNREFUSED)");
    expect(error.exitCode).toBe(1);
  });
});

describe("request logs", () => {
  it("logs every attempt at debug level, and each failed one at warn", async () => {
    const { client, logs } = testClient(sim.current);
    sim.current.faults.inject({ kind: "status", status: 503, operation: "listTaxes" });
    await readCatalogList(client, "taxes");
    const events = logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toEqual([
      expect.objectContaining({ level: 20, operation: "listTaxes", status: 503, attempt: 1 }),
      expect.objectContaining({ level: 40, operation: "listTaxes", attempt: 1, willRetry: true }),
      expect.objectContaining({
        level: 20,
        operation: "listTaxes",
        target: expect.stringMatching(/^\/v1\//),
        status: 200,
        attempt: 2,
        durationMs: expect.any(Number),
        outcome: "ok",
      }),
    ]);
    expect(logs.text()).not.toContain(sim.current.keys[0] as string);
  });
});

describe("rate limits", () => {
  it("waits for Retry-After given in seconds", async () => {
    const { client, transport } = testClient(sim.current);
    sim.current.faults.inject({
      kind: "status",
      status: 429,
      retryAfter: "1",
      operation: "listTaxes",
    });
    const started = performance.now();
    await readCatalogList(client, "taxes");
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(transport.stats.rateLimited).toBe(1);
  });

  it("waits for Retry-After given as an HTTP date", async () => {
    const { client } = testClient(sim.current);
    const retryAt = new Date(Date.now() + 2_000).toUTCString();
    sim.current.faults.inject({
      kind: "status",
      status: 429,
      retryAfter: retryAt,
      operation: "listTaxes",
    });
    const started = performance.now();
    await readCatalogList(client, "taxes");
    // HTTP dates have whole seconds: the wait is between one and two seconds.
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("caps a Retry-After that asks for an hour", async () => {
    const { client } = testClient(sim.current, {
      transport: { retry: { ...FAST_RETRY, maxRetryAfterMs: 200 } },
    });
    sim.current.faults.inject({
      kind: "status",
      status: 429,
      retryAfter: "3600",
      operation: "listTaxes",
    });
    const started = performance.now();
    await readCatalogList(client, "taxes");
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("slows down every request, not only the one that got the 429", async () => {
    const { client, transport } = testClient(sim.current);
    sim.current.faults.inject({
      kind: "status",
      status: 429,
      retryAfter: "2",
      operation: "listTaxes",
    });
    // Timed from before the 429, so that a slow machine cannot shorten what is measured.
    const started = performance.now();
    const limited = readCatalogList(client, "taxes");
    await until(() => transport.stats.rateLimited > 0, "the 429");
    await readCatalogList(client, "products");
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_950);
    expect(transport.concurrency).toBe(2);
    await limited;
  });
});

describe("concurrency", () => {
  it("never has more requests in flight than allowed", async () => {
    const { client } = testClient(sim.current, { transport: { concurrency: 3 } });
    sim.current.faults.set({ latencyMs: 40 });
    await Promise.all(Array.from({ length: 12 }, () => readCatalogList(client, "taxes")));
    const { maxInFlight } = sim.current.stats.snapshot();
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(maxInFlight).toBeGreaterThanOrEqual(2);
  });

  it("shares the bound between the clients of several keys", async () => {
    const first = testClient(sim.current, { transport: { concurrency: 2 } });
    const { PosApiClient } = await import("../src/api/client.js");
    const second = new PosApiClient(first.transport, { apiKey: sim.current.keys[1] as string });
    sim.current.faults.set({ latencyMs: 40 });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => readCatalogList(i % 2 ? first.client : second, "taxes")),
    );
    expect(sim.current.stats.snapshot().maxInFlight).toBeLessThanOrEqual(2);
  });
});

describe("the request slot", () => {
  it("goes to the next request as soon as a body is in, before it is parsed", async () => {
    const { client, transport } = testClient(sim.current, { transport: { concurrency: 1 } });
    // Another page's work holds the thread's CPU lane: the bodies that arrive wait to be parsed.
    let finishOtherPage = () => {};
    let laneTaken = () => {};
    const taken = new Promise<void>((resolve) => (laneTaken = resolve));
    const otherPage = transport.lane.turn(PAGE_STEP.rows, () => {
      laneTaken();
      return new Promise<void>((resolve) => (finishOtherPage = resolve));
    });
    await taken;
    const lists = Promise.all([readCatalogList(client, "taxes"), readCatalogList(client, "taxes")]);
    // With one slot, the second request goes out only once the first has given its slot back.
    await until(() => sim.current.stats.snapshot().byOperation.listTaxes === 2, "both requests");
    finishOtherPage();
    await otherPage;
    const [first, second] = await lists;
    expect(first.records.length).toBeGreaterThan(0);
    expect(second.records).toHaveLength(first.records.length);
  });
});

describe("fatal answers", () => {
  it("refuses a body larger than the cap without retrying", async () => {
    const { client } = testClient(sim.current, { transport: { maxBodyBytes: 2_000 } });
    const error = await apiErrorOf(readCatalogList(client, "products"));
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("response larger than the size cap");
    expect(sim.current.stats.snapshot().byOperation.listProducts).toBe(1);
  });

  it("ends at once on a rejected key, naming the key by fingerprint only", async () => {
    const key = "pos_live_0123456789abcdef_secret";
    const { client, logs } = testClient(sim.current, { client: { apiKey: key } });
    const error = await apiErrorOf(readCatalogList(client, "products"));
    expect(error).toBeInstanceOf(ApiKeyRejectedError);
    expect(error.exitCode).toBe(3);
    expect(error.retryable).toBe(false);
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(
      /^the API rejected the API key key#[0-9a-f]{8} \(401 on GET \/v1\/catalog\/\)/,
    );
    expect(sim.current.stats.snapshot().byOperation.listProducts).toBe(1);
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(
      key,
    );
    expect(logs.text()).not.toContain(key);
  });

  it("treats 403 as a rejected key too", async () => {
    const { client } = testClient(sim.current);
    sim.current.faults.inject({ kind: "status", status: 403 });
    expect(await apiErrorOf(readCatalogList(client, "products"))).toBeInstanceOf(
      ApiKeyRejectedError,
    );
  });

  it("fails other 4xx at once with the method, path and status", async () => {
    const { client } = testClient(sim.current);
    sim.current.faults.inject({ kind: "status", status: 422, operation: "listOrders" });
    const walk = readDays(ORDERS, client, { since: "2026-03-10", until: "2026-03-10" });
    const error = await apiErrorOf(
      (async () => {
        for await (const _page of walk) {
          // reading is enough
        }
      })(),
    );
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "GET /v1/orders/?since=2026-03-10&until=2026-03-10&size=100&index=0 answered 422: simulated 422",
    );
  });
});

describe("the key stays secret", () => {
  /** A client of a plain server at `url`, with `apiKey`. */
  const clientOf = (url: string, apiKey: string) =>
    testClient(sim.current, { client: { apiKey }, transport: { baseUrl: url } }).client;

  it("appears in no error, thrown object or log line, whatever fails", async () => {
    const key = sim.current.keys[0] as string;
    const scheme = "Bearer";
    const { client, logs } = testClient(sim.current, {
      client: { authScheme: scheme },
      transport: { timeouts: { headersMs: 100 }, retry: { ...FAST_RETRY, retries: 1 } },
    });
    const failures: unknown[] = [];
    const attempts: [string, Parameters<typeof sim.current.faults.inject>[0]][] = [
      ["503", { kind: "status", status: 503 }],
      ["429", { kind: "status", status: 429, retryAfter: "0" }],
      ["drop", { kind: "drop", when: "before-headers" }],
      ["mid-body", { kind: "drop", when: "mid-body" }],
      ["slow", { kind: "delay", ms: 300 }],
      ["400", { kind: "status", status: 400 }],
      ["401", { kind: "status", status: 401 }],
    ];
    for (const [, fault] of attempts) {
      sim.current.faults.inject(fault, fault);
      try {
        await readCatalogList(client, "products");
      } catch (error) {
        failures.push(error);
      }
    }
    // The simulator expects the bare key, so the Bearer-prefixed one is rejected too.
    try {
      await client.location();
    } catch (error) {
      failures.push(error);
    }
    expect(failures.length).toBeGreaterThanOrEqual(6);
    for (const failure of failures) {
      const shown = inspect(failure, { depth: Number.POSITIVE_INFINITY, showHidden: true });
      expect(shown).not.toContain(key);
      expect(JSON.stringify(failure)).not.toContain(key);
      expect(String(failure)).not.toContain(key);
    }
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.text()).not.toContain(key);
  });

  it("scrubs a key that a server echoes back in an error body", async () => {
    const key = "pos_echo_key_4242424242";
    // A server that repeats the request's credentials in its 400 body, as some do.
    const echoes: PlainHandler = (request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: `bad key ${request.headers.authorization}` }));
    };
    await withServer(echoes, async (url) => {
      const error = await apiErrorOf(readCatalogList(clientOf(url, key), "products"));
      expect(error.message).toBe("GET /v1/catalog/ answered 400: bad key [redacted]");
    });
  });

  it("keeps no start of an echoed key that straddles where a long message is cut", async () => {
    const key = "pos_echo_key_ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const echoesAcrossTheCut: PlainHandler = (request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      const message = `${"x".repeat(190)} ${request.headers.authorization} ${"y".repeat(40)}`;
      response.end(JSON.stringify({ message }));
    };
    await withServer(echoesAcrossTheCut, async (url) => {
      const error = await apiErrorOf(readCatalogList(clientOf(url, key), "products"));
      expect(error.message).toMatch(/answered 400: x{190} \[redact/);
      expect(error.message).not.toContain(key.slice(0, 8));
    });
  });
});

describe("plain requests", () => {
  it("sends the bare key by default and the scheme prefix when configured", async () => {
    const { client } = testClient(sim.current);
    expect((await client.location()).ok).toBe(true);
    const response = await apiGet(sim.current, "/v1/locations/own", sim.current.keys[0]);
    expect(response.status).toBe(200);
  });
});
