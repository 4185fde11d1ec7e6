/** The table of what is retried, Retry-After parsing, and the share of the waits waited. */
import { describe, expect, it } from "vitest";
import {
  networkOutcome,
  parseRetryAfter,
  readRetryAfter,
  statusOutcome,
} from "../src/api/retry-policy.js";
import { orderSchema } from "../src/api/schemas.js";
import { HttpTransport } from "../src/api/transport.js";
import { describeIssues } from "../src/api/validate.js";
import { DESIGNED_WAITS, scaledWait } from "../src/clock/waits.js";
import { silentLogger } from "../src/log.js";
import { withServer } from "./helpers/plain-server.js";

describe("status outcomes", () => {
  it.each([
    [200, "ok"],
    [204, "ok"],
    [301, "redirect"],
    [302, "redirect"],
    [307, "redirect"],
    [308, "redirect"],
    [400, "fatal"],
    [401, "key-rejected"],
    [403, "key-rejected"],
    [404, "not-found"],
    [408, "retry"],
    [409, "fatal"],
    [422, "fatal"],
    [429, "rate-limited"],
    [500, "retry"],
    [503, "retry"],
    [599, "retry"],
  ])("%i is %s", (status, outcome) => {
    expect(statusOutcome(status)).toBe(outcome);
  });

  it("retries connection failures and timeouts but not an oversized body or an unknown code", () => {
    for (const code of [
      "ECONNRESET",
      "ECONNREFUSED",
      "UND_ERR_SOCKET",
      "UND_ERR_HEADERS_TIMEOUT",
      "UND_ERR_BODY_TIMEOUT",
    ]) {
      expect(networkOutcome(code).retryable, code).toBe(true);
    }
    expect(networkOutcome("UND_ERR_RES_EXCEEDED_MAX_SIZE").retryable).toBe(false);
    expect(networkOutcome("ESOMETHINGNEW").retryable).toBe(false);
  });

  it("fails at once on a host name that does not exist, but retries a lookup that may recover", () => {
    expect(networkOutcome("ENOTFOUND")).toEqual({
      retryable: false,
      description: "host not found",
      hint: "check POS_API_URL",
    });
    expect(networkOutcome("EAI_AGAIN").retryable).toBe(true);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");

  it("reads the wait asked for, before any cap", () => {
    expect(readRetryAfter("3600", now)).toBe(3_600_000);
    expect(readRetryAfter("Sun, 22 Nov 2026 12:00:00 GMT", now)).toBe(7_200_000);
    expect(readRetryAfter("soon", now)).toBeUndefined();
  });

  it("reads seconds and HTTP dates, and caps both", () => {
    expect(parseRetryAfter("3", 60_000, now)).toBe(3_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", 60_000, now)).toBe(30_000);
    expect(parseRetryAfter("86400", 60_000, now)).toBe(60_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 12:00:00 GMT", 60_000, now)).toBe(60_000);
  });

  it("treats a date in the past as no wait and nonsense as absent", () => {
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", 60_000, now)).toBe(0);
    expect(parseRetryAfter("soon", 60_000, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, 60_000, now)).toBeUndefined();
  });
});

describe("validation messages", () => {
  it("names each problem's field in plain words", () => {
    const result = orderSchema.safeParse({ id: 42 });
    expect(result.success).toBe(false);
    const text = describeIssues(result.error?.issues ?? []);
    expect(text).toMatch(
      /^id: expected string, received number; createdAt: missing \(expected string\);/,
    );
    expect(text).toMatch(/and \d+ more$/);
  });
});

describe("the share of the waits a program waits (clock/waits.ts)", () => {
  it("shortens waits by a factor from 0 to 1, and leaves them whole as designed", () => {
    expect(scaledWait(250, 0.01)).toBe(3);
    expect(scaledWait(250, 0)).toBe(0);
    expect(scaledWait(250, DESIGNED_WAITS)).toBe(250);
  });

  /** How long a GET takes whose first answer is a 429 asking for a second's wait. */
  async function retriedAfterASecond(waitScale?: number): Promise<number> {
    let answered = 0;
    let took = 0;
    await withServer(
      (_request, response) => {
        if (answered++ === 0) response.writeHead(429, { "retry-after": "1" }).end();
        else response.writeHead(200, { "content-type": "application/json" }).end("{}");
      },
      async (url) => {
        const transport = new HttpTransport({
          baseUrl: url,
          concurrency: 1,
          logger: silentLogger(),
          ...(waitScale === undefined ? {} : { waitScale }),
        });
        const started = performance.now();
        await transport.getJson({
          operation: "test",
          path: "/",
          authorization: "",
          secrets: [],
          keyLabel: "no key",
        });
        took = performance.now() - started;
        await transport.close();
      },
    );
    return took;
  }

  it("is given to a transport: a Retry-After waited whole unless told otherwise", async () => {
    expect(await retriedAfterASecond()).toBeGreaterThanOrEqual(950);
    expect(await retriedAfterASecond(0.01)).toBeLessThan(500);
  });
});
