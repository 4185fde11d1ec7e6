/**
 * Proving what is stored: the API's count of each day (one request of size 1 per day and
 * stream) against the records stored for that day, and the reports against their orders.
 */

import pLimit from "p-limit";
import { PosApiClient } from "../api/client.js";
import { ApiKeyRejectedError } from "../api/errors.js";
import { HttpTransport, type TransportOptions } from "../api/transport.js";
import type { Config } from "../config.js";
import { contentHash } from "../content-hash.js";
import { eachDay, today } from "../dates.js";
import type { ReadableDestination } from "../db/destination.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { keyFingerprint } from "../secrets.js";
import {
  countDays,
  DAY_STREAM_DESCRIPTIONS,
  type DayStreamDescription,
  readDays,
} from "../streams/index.js";
import type { DayStream, RepairDays } from "../vocabulary.js";

/** Where a day's listing and its stored records part, record by record (`--repair` checks
 * it on days whose counts agree). */
export interface ContentDifference {
  /** Listed, and not stored live. */
  missing: number;
  /** Stored with other content than listed (a correction that left updatedAt as it was). */
  changed: number;
  /** Stored live, and no longer listed. */
  extra: number;
}

export interface DayCheck {
  stream: DayStream;
  day: string;
  apiCount: number;
  stored: number;
  rejected: number;
  /** Absent when the content was not compared. */
  content?: ContentDifference;
  matches: boolean;
}

export interface ReconciliationProblem {
  reportId: string;
  reportNumber: number;
  businessDate: string;
  difference: number;
  /** Orders the report lists that are not stored live, rejected ones included. */
  ordersMissing: number;
  /** Of those, the ones set aside in rejected_records because they break the spec. */
  ordersRejected: number;
  status: string;
  /** Every missing order is a known reject and the run was told to accept that
   * (`--allow-rejected`): shown, but no mismatch. */
  allowed: boolean;
}

export interface LocationVerification {
  key: string;
  locationId: string | null;
  name: string | null;
  since: string | null;
  until: string | null;
  checks: number;
  mismatches: DayCheck[];
  reconciliation: ReconciliationProblem[];
  error: string | null;
  keyRejected: boolean;
}

export interface VerifyResult {
  locations: LocationVerification[];
  requests: number;
  ok: boolean;
}

export interface VerifyOptions {
  config: Config;
  destination: ReadableDestination;
  logger: Logger;
  /** The day streams whose counts are checked (default: all of them). */
  dayStreams?: readonly DayStreamDescription[];
  /** Either end may be left out: since defaults to the first day synced, until to the
   * location's today. */
  range?: { since?: string; until?: string };
  /** A report whose missing orders are all in rejected_records is no mismatch. */
  allowRejected?: boolean;
  /** Also compare, on days whose counts agree, each listed record with the one stored. */
  content?: boolean;
  /** Only the location with this id or name. */
  location?: string;
  now?: () => Date;
  transport?: Partial<TransportOptions>;
}

/** The stored location of a key: from the fingerprint a sync recorded, else from the API. */
async function locationOf(
  destination: ReadableDestination,
  client: PosApiClient,
  apiKey: string,
): Promise<{ id: string; name: string | null }> {
  const stored = await destination.storedLocationOfKey(keyFingerprint(apiKey));
  if (stored) return stored;
  const result = await client.location();
  if (!result.ok) throw new Error(`the location record breaks the spec: ${result.reject.reason}`);
  return { id: result.valid.record.id, name: result.valid.record.name };
}

/** The day's listing against its stored records: ids, and each record's content hash. */
async function contentDifference(
  options: VerifyOptions,
  client: PosApiClient,
  stream: DayStreamDescription,
  locationId: string,
  day: string,
): Promise<ContentDifference> {
  const listed = new Map<string, number>();
  for await (const page of readDays(stream, client, { since: day, until: day }))
    for (const { record, raw } of page.records) listed.set(record.id, contentHash(raw));
  const stored = await options.destination.storedVersionsOfDay(stream, locationId, day);
  const difference: ContentDifference = { missing: 0, changed: 0, extra: 0 };
  const storedIds = new Set<string>();
  for (const version of stored) {
    storedIds.add(version.id);
    const hash = listed.get(version.id);
    if (hash === undefined) difference.extra++;
    // A row stored before content hashes has none to compare.
    else if (version.contentHash !== null && version.contentHash !== hash) difference.changed++;
  }
  for (const id of listed.keys()) if (!storedIds.has(id)) difference.missing++;
  return difference;
}

function agrees(content: ContentDifference): boolean {
  return content.missing + content.changed + content.extra === 0;
}

/** Whether a location is the one asked for, by id or by name (any case). */
function isAskedFor(asked: string, location: { id: string; name: string | null }): boolean {
  return location.id === asked || location.name?.toLowerCase() === asked.toLowerCase();
}

async function reconciliationProblems(
  options: VerifyOptions,
  locationId: string,
  since: string,
  until: string,
): Promise<ReconciliationProblem[]> {
  const { destination } = options;
  const problems: ReconciliationProblem[] = [];
  for (const problem of await destination.reconciliationProblems(locationId, since, until)) {
    const ordersRejected =
      problem.ordersMissing > 0 ? await destination.rejectedReportOrders(problem.reportId) : 0;
    const explained = problem.ordersMissing > 0 && ordersRejected === problem.ordersMissing;
    problems.push({ ...problem, ordersRejected, allowed: explained && !!options.allowRejected });
  }
  return problems;
}

async function verifyLocation(
  options: VerifyOptions,
  client: PosApiClient,
  apiKey: string,
  limit: ReturnType<typeof pLimit>,
): Promise<LocationVerification | undefined> {
  const { destination } = options;
  const dayStreams = options.dayStreams ?? DAY_STREAM_DESCRIPTIONS;
  const result: LocationVerification = {
    key: client.keyFingerprint,
    locationId: null,
    name: null,
    since: null,
    until: null,
    checks: 0,
    mismatches: [],
    reconciliation: [],
    error: null,
    keyRejected: false,
  };
  try {
    const location = await locationOf(destination, client, apiKey);
    if (options.location !== undefined && !isAskedFor(options.location, location)) return undefined;
    Object.assign(result, { locationId: location.id, name: location.name });
    const now = options.now?.() ?? new Date();
    const since = options.range?.since ?? (await destination.firstRecordedDay(location.id));
    const offset = await destination.utcOffsetMinutes(location.id, now);
    const until = options.range?.until ?? today(now, offset ?? 0);
    if (since === undefined) {
      result.error = "nothing synced yet for this location";
      return result;
    }
    Object.assign(result, { since, until });
    if (since > until) {
      result.error = `nothing to check: ${since} is after ${until}`;
      return result;
    }
    const checks = await Promise.all(
      eachDay(since, until).flatMap((day) =>
        dayStreams.map((stream) =>
          limit(async (): Promise<DayCheck> => {
            const apiCount = await countDays(stream, client, { since: day, until: day });
            const { records, rejected } = await destination.storedForDay(stream, location.id, day);
            const counted = apiCount === records + rejected;
            const check = { stream: stream.name, day, apiCount, stored: records, rejected };
            if (!counted || !options.content) return { ...check, matches: counted };
            const content = await contentDifference(options, client, stream, location.id, day);
            return { ...check, content, matches: agrees(content) };
          }),
        ),
      ),
    );
    result.checks = checks.length;
    result.mismatches = checks.filter((c) => !c.matches).sort((a, b) => a.day.localeCompare(b.day));
    result.reconciliation = await reconciliationProblems(options, location.id, since, until);
  } catch (error) {
    result.error = messageOf(error);
    result.keyRejected = error instanceof ApiKeyRejectedError;
  }
  return result;
}

export async function runVerify(options: VerifyOptions): Promise<VerifyResult> {
  const { config } = options;
  const transport = new HttpTransport({
    baseUrl: config.apiUrl,
    concurrency: config.concurrency,
    logger: options.logger,
    ...options.transport,
  });
  const limit = pLimit(config.concurrency * 2);
  try {
    const verified = await Promise.all(
      config.locations.map((location) => {
        const client = new PosApiClient(transport, {
          apiKey: location.apiKey,
          authScheme: config.authScheme,
          paths: config.paths,
        });
        return verifyLocation(options, client, location.apiKey, limit);
      }),
    );
    const locations = verified.filter((l) => l !== undefined);
    const ok = locations.every(
      (l) =>
        l.error === null && l.mismatches.length === 0 && l.reconciliation.every((r) => r.allowed),
    );
    return { locations, requests: transport.stats.requests, ok };
  } finally {
    await transport.close();
  }
}

/** The days `verify --repair` reads again: each day-stream that disagrees, and both streams of the
 * day of a report that does not agree with its orders (unless allowed). */
export function daysToRepair(result: VerifyResult): RepairDays {
  const days: Record<string, Partial<Record<DayStream, string[]>>> = {};
  const add = (locationId: string, stream: DayStream, day: string) => {
    days[locationId] ??= {};
    const streams = days[locationId];
    streams[stream] ??= [];
    const list = streams[stream];
    if (!list.includes(day)) list.push(day);
  };
  for (const location of result.locations) {
    const { locationId } = location;
    if (locationId === null) continue;
    for (const check of location.mismatches) add(locationId, check.stream, check.day);
    for (const problem of location.reconciliation)
      if (!problem.allowed)
        for (const stream of DAY_STREAM_DESCRIPTIONS)
          add(locationId, stream.name, problem.businessDate);
  }
  return days;
}

/** How many day-streams a repair reads. */
export function repairCount(days: RepairDays): number {
  return Object.values(days).reduce(
    (sum, streams) => sum + Object.values(streams).reduce((n, list) => n + (list?.length ?? 0), 0),
    0,
  );
}
