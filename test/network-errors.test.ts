/**
 * Failures a user has to act on, each told in one line that says what to change: a host that
 * does not resolve, a redirect, a server that wants another authorization scheme, a body that
 * stalls, a long Retry-After. Small throwaway servers on 127.0.0.1 play the misbehaving APIs.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiDeadlineError,
  type ApiError,
  ApiKeyRejectedError,
  ApiNetworkError,
  ApiRedirectError,
} from "../src/api/errors.js";
import { DEFAULT_DEADLINE_MS, DEFAULT_TIMEOUTS } from "../src/api/transport.js";
import { apiErrorOf, FAST_RETRY, readCatalogList, testClient } from "./helpers/client.js";
import { withServer } from "./helpers/plain-server.js";
import { useSimulator } from "./helpers/simulator.js";

const sim = useSimulator({ locations: 1, days: 2 });
const KEY = "pos_live_network_errors_5150";

afterEach(() => {
  sim.current.faults.reset();
});

function clientOf(baseUrl: string, options: Parameters<typeof testClient>[1] = {}) {
  return testClient(sim.current, {
    ...options,
    client: { apiKey: KEY, ...options.client },
    transport: { baseUrl, ...options.transport },
  });
}

function expectNoKey(error: ApiError, logs: string): void {
  expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(KEY);
  expect(logs).not.toContain(KEY);
}

describe("hosts that cannot be reached", () => {
  it("names the host that does not resolve, says to check POS_API_URL, and does not retry", async () => {
    const { client, logs } = clientOf("http://pos-api.pos-sync-test.invalid");
    const error = await apiErrorOf(readCatalogList(client, "products"));
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error.retryable).toBe(false);
    expect(error.attempts).toBe(1);
    expect(error.message).toContain("pos-api.pos-sync-test.invalid");
    expect(error.message).toContain("ENOTFOUND");
    expect(error.message).toContain("check POS_API_URL");
    expectNoKey(error, logs.text());
  });

  it("names the host and port that refused the connection", async () => {
    const { client } = clientOf("http://127.0.0.1:9", {
      transport: { retry: { ...FAST_RETRY, retries: 1 } },
    });
    const error = await apiErrorOf(readCatalogList(client, "products"));
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      "GET /v1/catalog/ on 127.0.0.1:9 failed: connection refused (ECONNREFUSED)",
    );
  });
});

describe("redirects", () => {
  it("names the target of a 302 without its secrets and says to point POS_API_URL there", async () => {
    await withServer(
      (_request, response) => {
        response.writeHead(302, {
          location: `https://user:pw@pos.example.com/v2/catalog/?token=t0p_s3cret&k=${KEY}`,
        });
        response.end();
      },
      async (url, requests) => {
        const { client, logs } = clientOf(url);
        const error = await apiErrorOf(readCatalogList(client, "products"));
        expect(error).toBeInstanceOf(ApiRedirectError);
        expect(error.retryable).toBe(false);
        expect(requests()).toBe(1);
        expect(error.message).toContain("302");
        expect(error.message).toContain("https://pos.example.com/v2/catalog/");
        expect(error.message).toContain("does not follow redirects");
        expect(error.message).toContain("POS_API_URL");
        expect(error.message).not.toContain("t0p_s3cret");
        expect(error.message).not.toContain("user:pw");
        expectNoKey(error, logs.text());
      },
    );
  });

  it("shows a relative Location as the full address it points to", async () => {
    await withServer(
      (_request, response) => {
        response.writeHead(301, { location: "/api/v1/catalog/" });
        response.end();
      },
      async (url) => {
        const { client } = clientOf(url);
        const error = await apiErrorOf(readCatalogList(client, "products"));
        expect(error.message).toContain(`${url}/api/v1/catalog/`);
      },
    );
  });
});

describe("authorization schemes", () => {
  const wantsBearer = (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(401, {
      "www-authenticate": 'Bearer realm="pos", error="invalid_token"',
      "content-type": "application/json",
    });
    response.end('{"message":"unauthorized"}');
  };

  it("hints POS_AUTH_SCHEME=Bearer when a server that wants Bearer rejects a bare key", async () => {
    await withServer(wantsBearer, async (url) => {
      const { client, logs } = clientOf(url);
      const error = await apiErrorOf(readCatalogList(client, "products"));
      expect(error).toBeInstanceOf(ApiKeyRejectedError);
      expect(error.exitCode).toBe(3);
      expect(error.message).toMatch(/^the API rejected the API key key#[0-9a-f]{8} \(401 on GET/);
      expect(error.message).toContain("set POS_AUTH_SCHEME=Bearer");
      expectNoKey(error, logs.text());
    });
  });

  it("names pos-sync probe and POS_AUTH_SCHEME when a refusal names no scheme", async () => {
    const refusesSilently = (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end('{"message":"unauthorized"}');
    };
    await withServer(refusesSilently, async (url) => {
      const { client } = clientOf(url);
      const error = await apiErrorOf(readCatalogList(client, "products"));
      expect(error).toBeInstanceOf(ApiKeyRejectedError);
      expect(error.message).toMatch(
        /check that the key is right and still active; if every key is refused, the server may want another header format \(POS_AUTH_SCHEME\): pos-sync probe finds it$/,
      );
    });
  });

  it("gives no scheme hint when the scheme asked for was sent", async () => {
    await withServer(wantsBearer, async (url) => {
      const { client } = clientOf(url, { client: { authScheme: "Bearer" } });
      const error = await apiErrorOf(readCatalogList(client, "products"));
      expect(error).toBeInstanceOf(ApiKeyRejectedError);
      expect(error.message).not.toContain("POS_AUTH_SCHEME");
      expect(error.message).toContain("check that the key is right and still active");
    });
  });
});

describe("stalled answers", () => {
  /** Sends the headers and the start of a body, then nothing more. */
  const stalls = (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.write('[{"id":');
  };

  it("detects a stalled body within about 15 s and bounds a request with its retries", () => {
    expect(DEFAULT_TIMEOUTS.bodyMs).toBeLessThanOrEqual(15_000);
    expect(DEFAULT_DEADLINE_MS).toBeGreaterThanOrEqual(60_000);
    expect(DEFAULT_DEADLINE_MS).toBeLessThanOrEqual(300_000);
  });

  it("fails a request still unanswered at its deadline with a retryable error that says so", async () => {
    await withServer(stalls, async (url) => {
      const { client, logs } = clientOf(url, {
        transport: {
          // The body timeout alone would hold this request for a minute.
          timeouts: { bodyMs: 60_000 },
          deadlineMs: 1_000,
        },
      });
      const error = await apiErrorOf(readCatalogList(client, "products"));
      expect(error).toBeInstanceOf(ApiDeadlineError);
      expect(error.retryable).toBe(true);
      expect(error.exitCode).toBe(1);
      expect(error.message).toMatch(/^GET \/v1\/catalog\/ on 127\.0\.0\.1:\d+ gave up/);
      expect(error.message).toContain("1 s deadline");
      expectNoKey(error, logs.text());
    });
  });

  it("counts the retries of a stalling body against the deadline", async () => {
    await withServer(stalls, async (url, requests) => {
      const { client } = clientOf(url, {
        transport: {
          timeouts: { bodyMs: 300 },
          retry: { ...FAST_RETRY, retries: 1_000 },
          deadlineMs: 2_500,
        },
      });
      const error = await apiErrorOf(readCatalogList(client, "products"));
      expect(error).toBeInstanceOf(ApiDeadlineError);
      expect(requests()).toBeGreaterThan(1);
      expect(error.attempts).toBe(requests());
    });
  });
});

describe("long Retry-After", () => {
  it("warns once how long it will wait, and that the wait was capped", async () => {
    const { client, logs } = testClient(sim.current, {
      transport: { retry: { ...FAST_RETRY, maxRetryAfterMs: 300, longWaitMs: 200 } },
    });
    sim.current.faults.inject({ kind: "status", status: 429, retryAfter: "3600" });
    await readCatalogList(client, "taxes");
    const waits = logs.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((event) => event.waitMs !== undefined);
    expect(waits).toEqual([
      expect.objectContaining({
        level: 40,
        operation: "listTaxes",
        waitMs: 300,
        requestedMs: 3_600_000,
        capped: true,
      }),
    ]);
    expect(waits[0]?.msg).toMatch(/waiting 0\.3 s .*asked for 3600 s/);
  });

  it("says nothing extra about a short wait", async () => {
    const { client, logs } = testClient(sim.current, {
      transport: { retry: { ...FAST_RETRY, longWaitMs: 5_000 } },
    });
    sim.current.faults.inject({ kind: "status", status: 429, retryAfter: "0" });
    await readCatalogList(client, "taxes");
    expect(logs.text()).not.toContain("waitMs");
  });
});
