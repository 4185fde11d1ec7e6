/** `pos-sync probe` against the simulator playing each variation the spec leaves open: one
 * unknown at a time, then all of them at once. Every run is checked by probeSimulator: the
 * simulator served exactly the requests reported, within the budget, and no key is in the
 * report. */
import { describe, expect, it } from "vitest";
import { DEFAULT_API_PATHS } from "../src/api/paths.js";
import { isComplete } from "../src/probe/findings.js";
import { runProbe } from "../src/probe/probe.js";
import { PROBE_BUDGET } from "../src/probe/probe-http.js";
import { PAST_END_BEHAVIOURS } from "../src/simulator/faults.js";
import { type PlainHandler, withServer } from "./helpers/plain-server.js";
import { findingOf, probeSimulator, settingOf, settingValues } from "./helpers/probe.js";

const DEFAULT_SETTINGS = {
  POS_AUTH_SCHEME: "",
  POS_PATH_REPORT: DEFAULT_API_PATHS.report,
  POS_PATH_PAYMENT_METHODS: DEFAULT_API_PATHS.paymentMethods,
  POS_PATH_TAXES: DEFAULT_API_PATHS.taxes,
  POS_PATH_HEALTH: DEFAULT_API_PATHS.health,
};

describe("a server as pos-sync expects it", () => {
  it("confirms every default by observation, one request per operation", async () => {
    const { report, served } = await probeSimulator();
    expect(settingValues(report)).toEqual(DEFAULT_SETTINGS);
    expect(isComplete(report)).toBe(true);
    expect(report.stopped).toBeUndefined();
    expect(served).toBeLessThanOrEqual(16);
    const certainty = Object.fromEntries(report.findings.map((f) => [f.topic, f.certainty]));
    expect(certainty).toEqual({
      auth: "observed",
      "list-order": "observed",
      "page-index": "observed",
      "past-end": "observed",
      "next-page-token": "inferred",
      "oversize-page": "observed",
      "report-path": "observed",
      "payment-methods-path": "observed",
      "taxes-path": "observed",
      "health-path": "observed",
      "health-key": "observed",
      "rate-limits": "inferred",
    });
    expect(findingOf(report, "list-order").answer).toMatch(/^oldest first/);
    expect(findingOf(report, "past-end").answer).toBe("an empty page");
    expect(findingOf(report, "oversize-page").answer).toMatch(/^capped at 100/);
    expect(findingOf(report, "health-key").answer).toMatch(/^no:/);
    expect(findingOf(report, "rate-limits").answer).toBe("none met and none announced");
    expect(findingOf(report, "next-page-token").answer).toMatch(/names the next page .*"index":1/);
    expect(report.contradictions).toEqual([]);
    expect(report.sample.order).toBeGreaterThanOrEqual(5);
    // The report read by id is one of the list's: counted once.
    expect(report.sample.report).toBe(5);
    expect(report.otherKeys).toEqual([
      expect.objectContaining({ accepted: true, location: expect.any(String) }),
    ]);
  });
});

describe("the authorization header", () => {
  it.each(["Bearer", "Token"])("finds a server that wants %s <key>", async (scheme) => {
    const { report } = await probeSimulator({ authScheme: scheme });
    expect(settingOf(report, "POS_AUTH_SCHEME")).toMatchObject({ value: scheme, current: "" });
    const auth = findingOf(report, "auth");
    expect(auth.certainty).toBe("observed");
    expect(auth.evidence[0]).toMatch(/with the bare key: 401/);
    expect(auth.evidence.at(-1)).toMatch(new RegExp(`with ${scheme} <key>: 200`));
    expect(isComplete(report)).toBe(true);
  });

  it("tries the scheme in effect first", async () => {
    const { report } = await probeSimulator({ authScheme: "Bearer" }, { authScheme: "Bearer" });
    expect(findingOf(report, "auth").evidence).toHaveLength(1);
    expect(report.exchanges[0]?.status).toBe(200);
  });

  it("stops, says so and sends nothing more when the key is refused in every form", async () => {
    const { report, served } = await probeSimulator({}, { apiKeys: ["not-a-key-of-this-server"] });
    expect(report.stopped?.reason).toBe("key-rejected");
    expect(served).toBe(3);
    expect(findingOf(report, "auth").problem).toMatch(/the bare key, Bearer <key>, Token <key>/);
    expect(settingValues(report)).toEqual({
      POS_AUTH_SCHEME: null,
      POS_PATH_REPORT: null,
      POS_PATH_PAYMENT_METHODS: null,
      POS_PATH_TAXES: null,
      POS_PATH_HEALTH: null,
    });
  });
});

describe("the paths the spec does not show", () => {
  it.each([
    ["report", "POS_PATH_REPORT", "/v1/report/{id}"],
    ["paymentMethods", "POS_PATH_PAYMENT_METHODS", "/v1/catalog/payments"],
    ["taxes", "POS_PATH_TAXES", "/v1/catalog/tax/"],
    ["health", "POS_PATH_HEALTH", "/healthz"],
  ] as const)(
    "finds %s at %s=%s on a server strict about slashes",
    async (operation, setting, path) => {
      const { report } = await probeSimulator({
        strictSlashes: true,
        paths: { [operation]: path },
      });
      expect(settingOf(report, setting).value).toBe(path);
      expect(settingValues(report)).toEqual({ ...DEFAULT_SETTINGS, [setting]: path });
      const search = report.findings.find((f) => f.answer === path);
      expect(search?.certainty).toBe("observed");
      expect(search?.evidence.slice(0, -1).every((line) => /: 404/.test(line))).toBe(true);
    },
  );

  it("tells the path without its trailing slash from the one with it", async () => {
    const { report } = await probeSimulator({
      strictSlashes: true,
      paths: { taxes: "/v1/catalog/taxes" },
    });
    expect(settingOf(report, "POS_PATH_TAXES").value).toBe("/v1/catalog/taxes");
    expect(findingOf(report, "taxes-path").evidence).toEqual([
      expect.stringMatching(/^GET \/v1\/catalog\/taxes\/ with the key: 404/),
      expect.stringMatching(/^GET \/v1\/catalog\/taxes with the key: 200/),
    ]);
  });

  it("reports a path no candidate answers as not found, to be set by hand, never a guess", async () => {
    const { report } = await probeSimulator({
      paths: { taxes: "/v2/vat-rates/", paymentMethods: "/v1/tenders" },
    });
    expect(settingOf(report, "POS_PATH_TAXES")).toMatchObject({
      value: null,
      missing: "not found; set POS_PATH_TAXES by hand",
    });
    expect(settingOf(report, "POS_PATH_PAYMENT_METHODS").value).toBeNull();
    expect(findingOf(report, "taxes-path").evidence).toHaveLength(4);
    expect(findingOf(report, "payment-methods-path").evidence).toHaveLength(8);
    expect(findingOf(report, "taxes-path").problem).toMatch(/set POS_PATH_TAXES by hand/);
    expect(settingOf(report, "POS_PATH_REPORT").value).toBe(DEFAULT_API_PATHS.report);
    expect(isComplete(report)).toBe(false);
    expect(report.stopped).toBeUndefined();
  });

  it("tries the path in effect first", async () => {
    const { report } = await probeSimulator(
      { paths: { taxes: "/v2/vat-rates/" } },
      { paths: { ...DEFAULT_API_PATHS, taxes: "/v2/vat-rates/" } },
    );
    expect(findingOf(report, "taxes-path").evidence).toHaveLength(1);
    expect(settingOf(report, "POS_PATH_TAXES")).toMatchObject({
      value: "/v2/vat-rates/",
      current: "/v2/vat-rates/",
    });
  });
});

describe("how lists page", () => {
  it("sees a list served newest first, and says pagination copes", async () => {
    const { report } = await probeSimulator({ faults: { descending: true } });
    const order = findingOf(report, "list-order");
    expect(order.answer).toBe("newest first (descending by createdAt)");
    expect(order.certainty).toBe("observed");
    expect(order.sync).toMatch(/pagination already copes/);
  });

  it.each(
    PAST_END_BEHAVIOURS.map((mode) => [
      mode,
      {
        empty: "an empty page",
        "not-found": "404 (not found)",
        "bad-request": "400 (refused)",
        "last-page": "the last page again",
      }[mode],
    ]),
  )("tells what a page past the last answers: %s", async (pastEnd, answer) => {
    const { report } = await probeSimulator({ faults: { pastEnd } });
    const finding = findingOf(report, "past-end");
    expect(finding.answer).toBe(answer);
    expect(finding.certainty).toBe("observed");
    expect(finding.sync).toMatch(/pagination already copes/);
  });

  it.each([
    ["cap", /^capped at 100/],
    ["refuse", /^refused \(400\)/],
  ] as const)(
    "tells whether size above 100 is capped or refused: %s",
    async (oversizePage, answer) => {
      const { report } = await probeSimulator({ faults: { oversizePage } });
      expect(findingOf(report, "oversize-page").answer).toMatch(answer);
      expect(findingOf(report, "oversize-page").sync).toMatch(/asks for size=100/);
    },
  );
});

describe("more that pages can do", () => {
  it("sees a server that ignores index, and says the sync cannot page it", async () => {
    const { report } = await probeSimulator({ faults: { ignoresIndex: true } });
    const index = findingOf(report, "page-index");
    expect(index.answer).toBe("ignored: every page is the first one");
    expect(index.problem).toMatch(/cannot page through this server/);
    expect(findingOf(report, "past-end").answer).toBe("the first page again");
  });

  it.each([
    ["encoded-index", /^names the next page \(\{"index":1,"size":5\}\)/, "inferred"],
    ["opaque", /^an opaque token, sent while more pages follow$/, "inferred"],
    ["none", /^not sent, though more pages follow$/, "observed"],
  ] as const)("tells what nextPageToken holds: %s", async (pageToken, answer, certainty) => {
    const { report } = await probeSimulator({ faults: { pageToken } });
    const token = findingOf(report, "next-page-token");
    expect(token.answer).toMatch(answer);
    expect(token.certainty).toBe(certainty);
    expect(token.sync).toBe("pos-sync pages by index and needs no token");
  });

  it("sees size above 100 accepted as asked, against the spec's cap", async () => {
    const { report } = await probeSimulator({ faults: { oversizePage: "accept" } });
    expect(findingOf(report, "oversize-page").answer).toBe(
      "accepted: 101 records, not capped (the spec says capped at 100)",
    );
  });
});

describe("a location without orders yet", () => {
  it("leaves how lists page unknown, and says why, rather than guess", async () => {
    const { report } = await probeSimulator({ ordersPerDay: [0, 0] });
    for (const topic of ["list-order", "page-index", "past-end", "next-page-token"] as const) {
      expect(findingOf(report, topic)).toMatchObject({
        certainty: "unknown",
        answer: "not determined: the key's location has no orders yet",
      });
    }
    expect(findingOf(report, "oversize-page").answer).toMatch(/^capped at 100/);
    expect(settingValues(report)).toEqual(DEFAULT_SETTINGS);
  });
});

describe("health", () => {
  it("finds a health operation behind the key, and says it needs it", async () => {
    const { report } = await probeSimulator({ faults: { healthNeedsKey: true } });
    expect(settingOf(report, "POS_PATH_HEALTH").value).toBe("/health");
    const key = findingOf(report, "health-key");
    expect(key.answer).toMatch(/^yes:/);
    expect(key.evidence).toEqual([expect.stringMatching(/without a key: 401/)]);
  });
});

describe("rate limits", () => {
  it("reads a limit the server announces", async () => {
    const { report } = await probeSimulator({ faults: { rateLimitPerMinute: 500 } });
    const limits = findingOf(report, "rate-limits");
    expect(limits.certainty).toBe("observed");
    expect(limits.answer).toMatch(/^500 requests per window, the window resets in \d+ s/);
    expect(report.rateLimitHeaders?.names).toContain("x-ratelimit-limit");
    expect(report.stopped).toBeUndefined();
  });

  it("stops before the server's window runs out, leaving the rest to the sync", async () => {
    const { report } = await probeSimulator({ faults: { rateLimitPerMinute: 8 } });
    expect(report.stopped?.reason).toBe("rate-limit-low");
    expect(report.stopped?.message).toMatch(/2 request\(s\) are left/);
    expect(report.exchanges.some((e) => e.status === 429)).toBe(false);
    expect(settingOf(report, "POS_PATH_HEALTH").missing).toBe(
      "not determined: the probe stopped first",
    );
  });

  it("stops at the first 429 and reports it, with what was found before", async () => {
    const { report, served } = await probeSimulator(
      {},
      {
        prepare: (sim) =>
          sim.faults.inject({
            kind: "status",
            status: 429,
            retryAfter: "30",
            operation: "listReports",
          }),
      },
    );
    expect(report.stopped?.reason).toBe("rate-limited");
    expect(report.stopped?.message).toMatch(/429.*wait 30 s \(Retry-After\)/);
    expect(report.exchanges.at(-1)?.status).toBe(429);
    expect(served).toBe(report.exchanges.length);
    expect(findingOf(report, "rate-limits")).toMatchObject({
      answer: `met after ${served} requests`,
      certainty: "observed",
    });
    expect(settingOf(report, "POS_AUTH_SCHEME").value).toBe("");
    expect(findingOf(report, "past-end").answer).toBe("an empty page");
  });

  it("keeps the other keys it checked before a 429 stopped it", async () => {
    // The location is asked for by the first key, then once per other key: the third answer is
    // the 429 (a zero delay lets a request through untouched).
    const pass = { kind: "delay" as const, ms: 0, operation: "getLocation" as const };
    const { report } = await probeSimulator(
      { locations: 3 },
      {
        prepare: (sim) =>
          sim.faults.inject(pass, pass, {
            kind: "status",
            status: 429,
            retryAfter: "30",
            operation: "getLocation",
          }),
      },
    );
    expect(report.stopped?.reason).toBe("rate-limited");
    expect(report.otherKeys.map((k) => k.accepted)).toEqual([true, null]);
  });
});

describe("answers that tell nothing", () => {
  it("calls a path not determined, not absent, when a candidate answered a 5xx", async () => {
    const { report } = await probeSimulator(
      { strictSlashes: true },
      {
        prepare: (sim) =>
          sim.faults.inject({ kind: "status", status: 500, operation: "listTaxes" }),
      },
    );
    expect(findingOf(report, "taxes-path")).toMatchObject({
      answer: "not determined",
      certainty: "unknown",
    });
    expect(settingOf(report, "POS_PATH_TAXES")).toMatchObject({
      value: null,
      missing:
        "not determined: candidates answered 500; set POS_PATH_TAXES by hand if the default is wrong",
    });
  });

  it("stops on a 503 that says when to come back", async () => {
    const { report } = await probeSimulator(
      {},
      {
        prepare: (sim) =>
          sim.faults.inject({
            kind: "status",
            status: 503,
            retryAfter: "120",
            operation: "listTaxes",
          }),
      },
    );
    expect(report.stopped?.reason).toBe("rate-limited");
    expect(report.stopped?.message).toMatch(/503 \(unavailable\).*wait 120 s \(Retry-After\)/);
  });

  it("takes an empty list at a candidate path as inferred only", async () => {
    const { report } = await probeSimulator(
      {},
      {
        prepare: (sim) => {
          for (const location of sim.dataset.locations) {
            sim.dataset.hideCatalogItems(location, ["taxes"], 100);
          }
        },
      },
    );
    expect(findingOf(report, "taxes-path")).toMatchObject({
      answer: DEFAULT_API_PATHS.taxes,
      certainty: "inferred",
    });
    expect(settingOf(report, "POS_PATH_TAXES").certainty).toBe("inferred");
  });

  it("tells a refused other key from an accepted one", async () => {
    const { report } = await probeSimulator({}, { extraKeys: ["a-key-nobody-issued"] });
    expect(report.otherKeys).toEqual([
      {
        key: expect.stringMatching(/^key#/),
        accepted: true,
        status: 200,
        location: expect.any(String),
      },
      { key: expect.stringMatching(/^key#/), accepted: false, status: 401 },
    ]);
  });
});

describe("the request budget", () => {
  it("stops when its budget is spent", async () => {
    const { report, served } = await probeSimulator({}, { budget: 5 });
    expect(served).toBe(5);
    expect(report.stopped?.reason).toBe("budget");
  });

  it("stays within the budget when nothing is where it is first looked for", async () => {
    const { report, served } = await probeSimulator({
      locations: 10,
      authScheme: "Token",
      strictSlashes: true,
      paths: {
        report: "/v2/report/{id}",
        paymentMethods: "/v2/tenders",
        taxes: "/v2/vat",
        health: "/v2/ping",
      },
      faults: { healthNeedsKey: true },
    });
    expect(served).toBeLessThanOrEqual(PROBE_BUDGET);
    expect(report.stopped).toBeUndefined();
    expect(settingValues(report)).toMatchObject({
      POS_AUTH_SCHEME: "Token",
      POS_PATH_TAXES: null,
      POS_PATH_HEALTH: null,
    });
    const checked = report.otherKeys.filter((k) => k.accepted !== null);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.every((k) => k.accepted)).toBe(true);
  });
});

describe("records that contradict the spec", () => {
  it("names missing required fields, types that differ, odd values and unknown fields", async () => {
    const { report } = await probeSimulator({ hostile: true, faults: { malformedRate: 1 } });
    const orderKinds = new Set(
      report.contradictions.filter((c) => c.resource === "order").map((c) => c.kind),
    );
    expect([...orderKinds].sort()).toEqual(["missing", "type", "unknown-field", "value"]);
    const total = report.contradictions.find((c) => c.field === "total" && c.kind === "type");
    expect(total?.detail).toBe("string where the spec says number");
    const items = report.contradictions.find((c) => c.field === "items" && c.kind === "missing");
    expect(items?.detail).toMatch(/^missing/);
    expect(report.contradictions.some((c) => c.resource === "report")).toBe(true);
    for (const c of report.contradictions) {
      expect(c.records).toBeGreaterThan(0);
      expect(c.records).toBeLessThanOrEqual(report.sample[c.resource] ?? 0);
    }
  });
});

describe("everything the spec leaves open, all non-default at once", () => {
  it("identifies each variation", async () => {
    const paths = {
      report: "/v1/report/{id}/",
      paymentMethods: "/v1/catalog/paymentMethods",
      taxes: "/v1/catalog/tax",
      health: "/v1/health/",
    };
    const { report } = await probeSimulator({
      authScheme: "Bearer",
      strictSlashes: true,
      paths,
      hostile: true,
      faults: {
        descending: true,
        pastEnd: "last-page",
        oversizePage: "refuse",
        healthNeedsKey: true,
        rateLimitPerMinute: 300,
        malformedRate: 0.3,
      },
    });
    expect(report.stopped).toBeUndefined();
    expect(settingValues(report)).toEqual({
      POS_AUTH_SCHEME: "Bearer",
      POS_PATH_REPORT: paths.report,
      POS_PATH_PAYMENT_METHODS: paths.paymentMethods,
      POS_PATH_TAXES: paths.taxes,
      POS_PATH_HEALTH: paths.health,
    });
    expect(findingOf(report, "list-order").answer).toMatch(/^newest first/);
    expect(findingOf(report, "past-end").answer).toBe("the last page again");
    expect(findingOf(report, "oversize-page").answer).toMatch(/^refused/);
    expect(findingOf(report, "health-key").answer).toMatch(/^yes/);
    expect(findingOf(report, "rate-limits").answer).toMatch(/^300 requests per window/);
    expect(report.contradictions.length).toBeGreaterThan(0);
  });
});

describe("servers that misbehave around the key", () => {
  const probeOf = (url: string, key: string) =>
    runProbe({
      apiUrl: url,
      apiKeys: [key],
      authScheme: "",
      paths: DEFAULT_API_PATHS,
      paceMs: 0,
    });

  it("keeps no part of a key a server repeats in its error message", async () => {
    const key = "sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd";
    const echoes: PlainHandler = (request, response) => {
      // The key straddles the place where the report cuts long messages.
      const message = `${"x".repeat(100)} bad credential ${request.headers.authorization} ${"y".repeat(50)}`;
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ message }));
    };
    await withServer(echoes, async (url) => {
      const report = await probeOf(url, key);
      const text = JSON.stringify(report);
      expect(report.stopped?.reason).toBe("key-rejected");
      for (let length = 8; length <= key.length; length++) {
        expect(text).not.toContain(key.slice(0, length));
      }
    });
  });

  it("follows one scheme a challenge names, however many it names", async () => {
    let challenges = 0;
    const namesANewScheme: PlainHandler = (_request, response) => {
      challenges++;
      response.writeHead(401, { "www-authenticate": `Scheme${challenges} realm="pos"` }).end("{}");
    };
    await withServer(namesANewScheme, async (url, requests) => {
      const report = await probeOf(url, "a-key-that-is-never-right");
      expect(report.stopped?.reason).toBe("key-rejected");
      expect(requests()).toBe(4);
      expect(findingOf(report, "auth").evidence.map((line) => line.split(":")[0])).toEqual([
        "GET /v1/locations/own?devices=true with the bare key",
        "GET /v1/locations/own?devices=true with Scheme1 <key>",
        "GET /v1/locations/own?devices=true with Bearer <key>",
        "GET /v1/locations/own?devices=true with Token <key>",
      ]);
    });
  });
});

describe("a base address that redirects", () => {
  it("stops, names where it points, and never follows it with the key", async () => {
    const answers: PlainHandler = (_request, response) => response.end("{}");
    await withServer(answers, async (elsewhere, followed) => {
      const redirects: PlainHandler = (_request, response) => {
        response.writeHead(301, { location: `${elsewhere}/api/v1/locations/own` }).end();
      };
      await withServer(redirects, async (redirecting) => {
        const report = await runProbe({
          apiUrl: redirecting,
          apiKeys: ["a-key-that-must-stay-here"],
          authScheme: "",
          paths: DEFAULT_API_PATHS,
          paceMs: 0,
        });
        expect(report.stopped?.reason).toBe("base-url");
        expect(report.stopped?.message).toContain(
          `: 301 (redirects to ${elsewhere}/api/v1/locations/own): point POS_API_URL at the address it redirects to`,
        );
        expect(report.requests.sent).toBe(1);
        expect(followed()).toBe(0);
        expect(JSON.stringify(report)).not.toContain("a-key-that-must-stay-here");
      });
    });
  });
});
