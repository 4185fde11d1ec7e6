/** The probe's pure parts: rate-limit headers, the spec check of a sample, list order, page
 * tokens, candidates, the settings it prints and the config file it writes. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_API_PATHS } from "../src/api/paths.js";
import { locationSchema, orderSchema, taxSchema } from "../src/api/schemas.js";
import { ConfigError } from "../src/errors.js";
import { CANDIDATE_PATHS, candidatesFor } from "../src/probe/candidates.js";
import { configUpdate } from "../src/probe/config-file.js";
import type { ProbeFindings } from "../src/probe/findings.js";
import { decodePageToken, listDirection } from "../src/probe/lists.js";
import { readRateLimitHeaders } from "../src/probe/rate-limit-headers.js";
import { type Contradiction, checkSample, unknownFields } from "../src/probe/spec-conformance.js";
import { formatProbe, shellAssignment } from "../src/ui/format-probe.js";

describe("rate-limit headers", () => {
  it("reads the X-RateLimit family", () => {
    expect(
      readRateLimitHeaders({
        "x-ratelimit-limit": "120",
        "x-ratelimit-remaining": "17",
        "x-ratelimit-reset": "42",
      }),
    ).toEqual({
      limit: 120,
      remaining: 17,
      resetSeconds: 42,
      names: ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"],
    });
  });

  it("reads the IETF draft's RateLimit headers and a reset given as a Unix time", () => {
    const now = Date.parse("2026-11-24T12:00:00Z");
    const headers = readRateLimitHeaders(
      {
        "ratelimit-limit": "100, 100;w=60",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(now / 1000 + 30),
        "ratelimit-policy": "100;w=60",
        "retry-after": "30",
      },
      now,
    );
    expect(headers).toMatchObject({
      limit: 100,
      remaining: 0,
      resetSeconds: 30,
      policy: "100;w=60",
      retryAfter: "30",
    });
  });

  it("reads the single RateLimit header of the later drafts, in both forms", () => {
    expect(
      readRateLimitHeaders({
        ratelimit: '"default";r=3;t=12',
        "ratelimit-policy": '"default";q=100;w=60',
      }),
    ).toMatchObject({ limit: 100, remaining: 3, resetSeconds: 12 });
    expect(readRateLimitHeaders({ ratelimit: "limit=50, remaining=2, reset=9" })).toMatchObject({
      limit: 50,
      remaining: 2,
      resetSeconds: 9,
    });
  });

  it("finds nothing in an answer without them", () => {
    expect(readRateLimitHeaders({ "content-type": "application/json" })).toEqual({ names: [] });
  });
});

describe("the spec check of a sample", () => {
  const tax = { id: "0b9d4a35-8f34-4d0e-9c1c-4a8c1a1e3f10", name: "TVA 10", percentage: 1000 };

  it("finds nothing in records that match the spec", () => {
    expect(
      checkSample("tax", taxSchema, [tax, { ...tax, name: "TVA 5.5", percentage: 550 }]),
    ).toEqual([]);
  });

  it("groups one departure seen on several records into one line, with a count and an example", () => {
    const records = [
      { ...tax, percentage: "1000" },
      { ...tax, id: "1b9d4a35-8f34-4d0e-9c1c-4a8c1a1e3f10", percentage: "550" },
      tax,
    ];
    expect(checkSample("tax", taxSchema, records)).toEqual([
      {
        resource: "tax",
        field: "percentage",
        kind: "type",
        detail: "string where the spec says number",
        records: 2,
        example: tax.id,
      },
    ]);
  });

  it("tells a missing required field, a bad value and an unknown field, arrays as []", () => {
    const { name: _dropped, ...nameless } = tax;
    const found = checkSample("tax", taxSchema, [
      nameless,
      { ...tax, percentage: 10.5 },
      { ...tax, id: "tax-10" },
      { ...tax, rounding: "half-up" },
    ]);
    expect(found.map((c) => [c.kind, c.field, c.detail])).toEqual([
      ["missing", "name", "missing (the spec requires string)"],
      ["type", "percentage", "number where the spec says integer"],
      ["value", "id", "Invalid GUID"],
      ["unknown-field", "rounding", "not in the spec (string)"],
    ]);
    const [item] = checkSample("order", orderSchema, [{ items: [{}] }]).filter((c) =>
      c.field.startsWith("items[]."),
    );
    expect(item?.detail).toMatch(
      /^missing \(pos-sync expects .*; the spec does not say whether it is required\)$/,
    );
    const paths = unknownFields(orderSchema, {
      items: [{ tax: { taxName: "x", vatCode: "A" } }, { promo: true }],
      menus: [{ anything: 1 }],
    }).map((u) => u.path.join("."));
    expect(paths).toEqual(["items.0.tax.vatCode", "items.1.promo"]);
  });

  it("takes fields the spec says exist but does not show as no contradiction", () => {
    const location = {
      id: tax.id,
      ...Object.fromEntries(
        [
          "address",
          "siret",
          "city",
          "country",
          "naf",
          "name",
          "phone",
          "text",
          "tva",
          "url",
          "zip",
        ].map((f) => [f, null]),
      ),
      deviceList: [{ id: tax.id, name: "Till 1", model: "T2", osVersion: "14" }],
    };
    expect(checkSample("location", locationSchema, [location])).toEqual([]);
    expect(checkSample("location", locationSchema, [{ ...location, region: "IDF" }])).toEqual([
      expect.objectContaining({ field: "region", kind: "unknown-field" }),
    ]);
  });
});

describe("what the report says the sync does with departures", () => {
  const report = (contradictions: Contradiction[]): ProbeFindings => ({
    apiUrl: "http://127.0.0.1:1",
    key: "key#00000000",
    requests: { sent: 3, budget: 40, paceMs: 100, elapsedMs: 300 },
    findings: [],
    settings: [],
    sample: { tax: 2 },
    contradictions,
    otherKeys: [],
    exchanges: [],
  });
  const unknown: Contradiction = {
    resource: "tax",
    field: "rounding",
    kind: "unknown-field",
    detail: "not in the spec (string)",
    records: 2,
  };

  it("stores records whose only departure is an unknown field, and does not say they are set aside", () => {
    const text = formatProbe(report([unknown]));
    expect(text).toContain(
      "→ the sync stores such records as usual and keeps unknown fields in the raw archive",
    );
    expect(text).not.toContain("aside");
  });

  it("sets aside records with a missing or mistyped field", () => {
    const missing: Contradiction = {
      ...unknown,
      field: "name",
      kind: "missing",
      detail: "missing",
    };
    expect(formatProbe(report([unknown, missing]))).toContain(
      "→ the sync sets records with a missing, mistyped or out-of-range field aside in rejected_records and keeps unknown fields in the raw archive",
    );
  });
});

describe("list order and page tokens", () => {
  const at = (...times: string[]) => times.map((createdAt) => ({ createdAt }));

  it("reads the direction of createdAt", () => {
    expect(
      listDirection(
        at("2026-01-01T10:00:00Z", "2026-01-01T11:00:00+01:00", "2026-01-02T00:00:00Z"),
      ),
    ).toBe("ascending");
    expect(listDirection(at("2026-01-02T00:00:00Z", "2026-01-01T10:00:00Z"))).toBe("descending");
    expect(
      listDirection(at("2026-01-02T00:00:00Z", "2026-01-01T10:00:00Z", "2026-01-03T00:00:00Z")),
    ).toBe("unordered");
    expect(listDirection(at("2026-01-02T00:00:00Z"))).toBe("unknown");
    expect(listDirection([{ createdAt: "soon" }, {}])).toBe("unknown");
  });

  it("decodes a token that holds JSON or a number, and leaves an opaque one alone", () => {
    const token = Buffer.from(JSON.stringify({ index: 1, size: 5 })).toString("base64url");
    expect(decodePageToken(token)).toBe('{"index":1,"size":5}');
    expect(decodePageToken("2")).toBe("the number 2");
    expect(decodePageToken("c2VjcmV0LWN1cnNvcg")).toBeUndefined();
    const offset = Buffer.from(JSON.stringify({ offset: 5 })).toString("base64url");
    expect(decodePageToken(offset)).toBe('{"offset":5}');
  });
});

describe("candidates and settings", () => {
  it("tries the path in effect first, then the documented list, each once", () => {
    expect(candidatesFor("taxes", "/v1/catalog/taxes")).toEqual([
      "/v1/catalog/taxes",
      "/v1/catalog/taxes/",
      "/v1/catalog/tax/",
      "/v1/catalog/tax",
    ]);
    expect(candidatesFor("health", "/ping")[0]).toBe("/ping");
    for (const list of Object.values(CANDIDATE_PATHS)) expect(new Set(list).size).toBe(list.length);
  });

  it("quotes a value for the shell only when it must", () => {
    expect(shellAssignment("POS_PATH_TAXES", "/v1/catalog/tax")).toBe(
      "POS_PATH_TAXES=/v1/catalog/tax",
    );
    expect(shellAssignment("POS_PATH_REPORT", "/v1/reports/{id}")).toBe(
      "POS_PATH_REPORT='/v1/reports/{id}'",
    );
    expect(shellAssignment("POS_AUTH_SCHEME", "")).toBe("POS_AUTH_SCHEME=");
  });
});

describe("the config file the probe writes", () => {
  const report = {
    apiUrl: "https://pos.example.com",
    settings: [
      { name: "POS_AUTH_SCHEME", value: "Bearer", current: "", certainty: "observed" },
      {
        name: "POS_PATH_REPORT",
        value: "/v1/report/{id}",
        current: DEFAULT_API_PATHS.report,
        certainty: "observed",
      },
      {
        name: "POS_PATH_PAYMENT_METHODS",
        value: "/v1/catalog/payments",
        current: "",
        certainty: "inferred",
      },
      {
        name: "POS_PATH_TAXES",
        value: "/v1/catalog/tax",
        current: DEFAULT_API_PATHS.taxes,
        certainty: "observed",
      },
      { name: "POS_PATH_HEALTH", value: null, current: "", missing: "not found" },
    ],
  } as unknown as ProbeFindings;
  const directory = mkdtempSync(join(tmpdir(), "probe-config-"));

  it("writes what was observed into a new file, and leaves what was only inferred", () => {
    const update = configUpdate(join(directory, "new.json"), report);
    expect(JSON.parse(update.text)).toEqual({
      apiUrl: "https://pos.example.com",
      authScheme: "Bearer",
      paths: { report: "/v1/report/{id}", taxes: "/v1/catalog/tax" },
    });
    expect(update.leftAlone).toEqual(["POS_PATH_PAYMENT_METHODS", "POS_PATH_HEALTH"]);
  });

  it("keeps an existing file's keys, locations, other settings and paths not found", () => {
    const file = join(directory, "existing.json");
    const existing = {
      locations: [{ apiKey: "kept-key-1", name: "Paris" }],
      lookbackDays: 7,
      paths: { health: "/ping", taxes: "/old" },
    };
    writeFileSync(file, JSON.stringify(existing));
    expect(JSON.parse(configUpdate(file, report).text)).toEqual({
      ...existing,
      apiUrl: "https://pos.example.com",
      authScheme: "Bearer",
      paths: { health: "/ping", taxes: "/v1/catalog/tax", report: "/v1/report/{id}" },
    });
  });

  it("refuses to rewrite a file the sync would refuse", () => {
    const file = join(directory, "typo.json");
    writeFileSync(file, JSON.stringify({ lookbakDays: 7 }));
    expect(() => configUpdate(file, report)).toThrow(ConfigError);
    expect(() => configUpdate(file, report)).toThrow(/unknown setting lookbakDays/);
  });
});
