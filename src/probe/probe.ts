/**
 * `pos-sync probe`: a short, read-only, paced series of requests that finds what the API's
 * document leaves unshown (the header format, the paths it does not place, the order of lists,
 * what lies past the last page, nextPageToken, size above 100, health and the key, the rate
 * limits) and checks a sample of records against the spec. The steps run in order; a stop (a
 * 429, the rate limit running low, no answer, the budget) ends the series and the report keeps
 * what was found so far.
 */
import { type ApiPaths, PATH_SETTINGS, SHOWN_PATHS } from "../api/paths.js";
import { plural } from "../plural.js";
import { keyFingerprint } from "../secrets.js";
import { authorizationFor, findAuthScheme } from "./auth.js";
import { probeCatalog } from "./catalog.js";
import { isJsonObject, type ProbeContext } from "./context.js";
import type { Finding, OtherKey, ProbeFindings, SettingFinding } from "./findings.js";
import { probeLists } from "./lists.js";
import { ProbeHttp, ProbeStop } from "./probe-http.js";
import { announcesLimit } from "./rate-limit-headers.js";
import { probeHealth, probeReportPath } from "./report-and-health.js";
import { checkSample } from "./spec-conformance.js";

export interface ProbeOptions {
  apiUrl: string;
  /** The first key is probed; the others are only checked to be accepted. */
  apiKeys: readonly string[];
  /** The settings in effect: tried first. */
  authScheme: string;
  paths: ApiPaths;
  paceMs?: number;
  budget?: number;
  /** The share of the pacing waited (clock/waits.ts); 1 when absent. */
  waitScale?: number;
}

/** Other keys checked at most, each with one request, as far as the budget goes. */
const MAX_OTHER_KEYS = 8;

/** Fills `results` (one per key, in order) as answers come, so that a stop keeps what came. */
async function checkOtherKeys(
  context: ProbeContext,
  scheme: string,
  keys: readonly string[],
  results: OtherKey[],
): Promise<void> {
  for (const [index, key] of keys.slice(0, MAX_OTHER_KEYS).entries()) {
    if (context.http.remainingBudget <= 0) break;
    const answer = await context.http.get(
      `other key ${index + 2}`,
      SHOWN_PATHS.location,
      authorizationFor(scheme, key),
      { tracksRateLimit: false },
    );
    const result = results[index] as OtherKey;
    result.status = answer.status;
    // Only a 200 or a refusal tells; a 5xx says nothing about the key.
    if (answer.status === 200) result.accepted = true;
    if (answer.status === 401 || answer.status === 403) result.accepted = false;
    if (isJsonObject(answer.json) && typeof answer.json.name === "string") {
      result.location = answer.json.name;
    }
  }
}

function rateLimitFinding(context: ProbeContext, stop: ProbeStop | undefined): Finding {
  const headers = context.http.rateLimit;
  const sent = context.http.sent;
  if (stop?.reason === "rate-limited") {
    return {
      topic: "rate-limits",
      title: "Rate limits",
      answer: `met after ${sent} requests`,
      certainty: "observed",
      evidence: [stop.message],
      sync: "the sync waits as Retry-After asks, slows down and retries: run it at a quieter time or lower POS_CONCURRENCY",
    };
  }
  if (headers && announcesLimit(headers)) {
    const parts = [
      headers.limit === undefined ? undefined : `${headers.limit} requests per window`,
      headers.resetSeconds === undefined
        ? undefined
        : `the window resets in ${headers.resetSeconds} s`,
      headers.remaining === undefined ? undefined : `${headers.remaining} left in this window`,
      headers.policy === undefined ? undefined : `policy ${headers.policy}`,
    ].filter((p): p is string => p !== undefined);
    return {
      topic: "rate-limits",
      title: "Rate limits",
      answer: parts.join(", "),
      certainty: "observed",
      evidence: [`announced in ${headers.names.join(", ")}`],
      sync: "the sync honours 429 and Retry-After; keep POS_CONCURRENCY modest if the window is small",
    };
  }
  // A probe stopped before the end (nothing answered, a refused key) says nothing of limits.
  if (stop !== undefined && stop.reason !== "rate-limit-low" && stop.reason !== "budget") {
    return {
      topic: "rate-limits",
      title: "Rate limits",
      answer: "not determined: the probe stopped first",
      certainty: "unknown",
      evidence: [`${sent} ${plural("request", sent)}, then: ${stop.message}`],
      sync: "the sync honours 429 and Retry-After should a limit appear",
    };
  }
  const pace =
    context.http.paceMs > 0
      ? `at up to ${(1000 / context.http.paceMs).toFixed(0)} a second`
      : "without pacing";
  return {
    topic: "rate-limits",
    title: "Rate limits",
    answer: "none met and none announced",
    certainty: "inferred",
    evidence: [`${sent} ${plural("request", sent)} ${pace}, no 429, no rate-limit headers`],
    sync: "the sync honours 429 and Retry-After should a limit appear",
  };
}

function settingsOf(
  context: ProbeContext,
  scheme: { found: string | undefined; inEffect: string },
  stopped: boolean,
): SettingFinding[] {
  const auth: SettingFinding = {
    name: "POS_AUTH_SCHEME",
    value: scheme.found ?? null,
    current: scheme.inEffect,
    ...(scheme.found === undefined ? { missing: "not determined" } : { certainty: "observed" }),
  };
  const paths = (Object.keys(PATH_SETTINGS) as (keyof ApiPaths)[]).map(
    (operation): SettingFinding => {
      const found = context.foundPaths[operation];
      const name = PATH_SETTINGS[operation] as SettingFinding["name"];
      const current = context.pathsInEffect[operation];
      if (found && "path" in found) {
        return { name, value: found.path, current, certainty: found.certainty };
      }
      const missing =
        found?.missing ?? (stopped ? "not determined: the probe stopped first" : "not determined");
      return { name, value: null, current, missing };
    },
  );
  return [auth, ...paths];
}

export async function runProbe(options: ProbeOptions): Promise<ProbeFindings> {
  const [apiKey, ...otherKeys] = options.apiKeys;
  if (apiKey === undefined) throw new Error("runProbe needs at least one API key");
  const started = performance.now();
  const http = new ProbeHttp({
    baseUrl: options.apiUrl,
    secrets: options.apiKeys,
    ...(options.paceMs === undefined ? {} : { paceMs: options.paceMs }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.waitScale === undefined ? {} : { waitScale: options.waitScale }),
  });
  const context: ProbeContext = {
    http,
    apiKey,
    authorization: "",
    pathsInEffect: options.paths,
    foundPaths: {},
    findings: [],
    samples: new Map(),
  };
  let scheme: string | undefined;
  let stop: ProbeStop | undefined;
  const others: OtherKey[] = otherKeys.map((key) => ({ key: keyFingerprint(key), accepted: null }));
  try {
    scheme = await findAuthScheme(context, options.authScheme);
    await probeLists(context);
    await probeReportPath(context);
    await probeCatalog(context);
    await probeHealth(context);
    await checkOtherKeys(context, scheme, otherKeys, others);
  } catch (error) {
    if (!(error instanceof ProbeStop)) throw error;
    stop = error;
  } finally {
    await http.close();
  }
  const settings = settingsOf(
    context,
    { found: scheme, inEffect: options.authScheme },
    stop !== undefined,
  );
  const contradictions = [...context.samples.entries()].flatMap(([resource, sample]) =>
    checkSample(resource, sample.schema, sample.records),
  );
  return {
    apiUrl: options.apiUrl,
    key: keyFingerprint(apiKey),
    requests: {
      sent: http.sent,
      budget: http.budget,
      paceMs: http.paceMs,
      elapsedMs: Math.round(performance.now() - started),
    },
    ...(stop ? { stopped: { reason: stop.reason, message: stop.message } } : {}),
    findings: [...context.findings, rateLimitFinding(context, stop)],
    settings,
    sample: Object.fromEntries(
      [...context.samples.entries()].map(([k, v]) => [k, v.records.length]),
    ),
    contradictions,
    ...(http.rateLimit ? { rateLimitHeaders: http.rateLimit } : {}),
    otherKeys: others,
    exchanges: http.exchanges,
  };
}
