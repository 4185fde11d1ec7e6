/** What the probe's steps share: the requests, the findings so far and the records sampled. */
import type { z } from "zod";
import type { ApiPaths } from "../api/paths.js";
import type { Finding } from "./findings.js";
import type { Exchange, ProbeAnswer, ProbeHttp } from "./probe-http.js";

/** A path found, and how surely; or why there is none. */
export type PathOutcome =
  | { path: string; certainty: "observed" | "inferred" }
  | { missing: string };

/** Records checked against the spec, per resource, are capped: a sample, not a survey. */
const SAMPLE_PER_RESOURCE = 20;

export interface ProbeContext {
  http: ProbeHttp;
  apiKey: string;
  /** The authorization header value that works, once found. */
  authorization: string;
  /** The paths in effect before the probe (settings, else pos-sync's defaults). */
  pathsInEffect: ApiPaths;
  /** What the probe found for each unshown path; absent when it was not looked for. */
  foundPaths: Partial<Record<keyof ApiPaths, PathOutcome>>;
  findings: Finding[];
  samples: Map<string, { schema: z.ZodType; records: unknown[]; ids: Set<string> }>;
  /** A report id to ask the report-by-id operation for. */
  reportId?: string;
}

export function addSample(
  context: ProbeContext,
  resource: string,
  schema: z.ZodType,
  records: readonly unknown[],
): void {
  const sample = context.samples.get(resource) ?? { schema, records: [], ids: new Set() };
  for (const record of records) {
    if (sample.records.length >= SAMPLE_PER_RESOURCE) break;
    // A record served twice (a repeated page, a report read by id) is counted once.
    const id = isJsonObject(record) && typeof record.id === "string" ? record.id : undefined;
    if (id !== undefined && sample.ids.has(id)) continue;
    if (id !== undefined) sample.ids.add(id);
    sample.records.push(record);
  }
  context.samples.set(resource, sample);
}

/** "GET /v1/orders/?index=0&size=5 with the key: 200" */
function describeExchange(exchange: Exchange): string {
  const key = exchange.withKey ? `with ${exchange.keyForm ?? "the key"}` : "without a key";
  const status = exchange.status === null ? "no answer" : String(exchange.status);
  const note = exchange.note && exchange.status !== null ? ` (${exchange.note})` : "";
  return `GET ${exchange.target} ${key}: ${status}${note}`;
}

/** The evidence line of the latest request. */
export function lastEvidence(context: ProbeContext): string {
  const exchange = context.http.exchanges.at(-1);
  return exchange ? describeExchange(exchange) : "";
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A 200 whose body is a JSON array. */
export function isArrayAnswer(answer: ProbeAnswer): answer is ProbeAnswer & { json: unknown[] } {
  return answer.status === 200 && Array.isArray(answer.json);
}
