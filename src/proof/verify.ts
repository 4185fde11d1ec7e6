/**
 * Proving what is stored: the API's count of each day (one request of size 1 per day and
 * stream) against the records stored for that day, and the reports against their orders.
 */

import pLimit from "p-limit";
import { PosApiClient } from "../api/client.js";
import { ApiKeyRejectedError } from "../api/errors.js";
import { discoverStart } from "../api/first-day.js";
import { HttpTransport, type TransportOptions } from "../api/transport.js";
import { eachDay } from "../clock/days.js";
import { today } from "../clock/today.js";
import type { Config } from "../config/config.js";
import { locationNamed } from "../db/reads/location-named.js";
import type { Reader } from "../db/reads/reader.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { keyFingerprint } from "../secrets.js";
import { skippedNotice, startDateOf } from "../start-date.js";
import { countDays, DAY_STREAM_DESCRIPTIONS, type DayStreamDescription } from "../streams/index.js";
import type { DayStream, RepairDays, RepairFinding } from "../vocabulary.js";
import { accountedFor, type DayAccount, dayAgrees } from "./agreement.js";
import { proveDay } from "./day-proof.js";

/** The stores of reads this module reads. */
export type VerifyReads = Pick<Reader, "locations" | "checkpoints" | "days">;

export interface DayCheck extends DayAccount {
  stream: DayStream;
  day: string;
  apiCount: number;
  /** The changed records' ids, when the content was compared. */
  rewrite?: string[];
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
  /** Why the days checked start later than --since (start-date.ts). */
  notice: string | null;
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
  destination: VerifyReads;
  logger: Logger;
  /** The day streams whose counts are checked (default: all of them). */
  dayStreams?: readonly DayStreamDescription[];
  /** Either end may be left out: since defaults to the first day synced, until to the
   * location's today. */
  range?: { since?: string; until?: string };
  /** A report whose missing orders are all in rejected_records is no mismatch. */
  allowRejected?: boolean;
  /** Read each day's listing whole instead of its count alone, and compare each listed record
   * with the one stored. */
  content?: boolean;
  /** Only the location with this id or name (any case), as stored. */
  location?: string;
  now?: () => Date;
  transport?: Partial<TransportOptions>;
}

/** The stored location of a key: from the fingerprint a sync recorded, else from the API. */
async function locationOf(
  destination: VerifyReads,
  client: PosApiClient,
  apiKey: string,
): Promise<{ id: string; name: string | null }> {
  const stored = await destination.locations.storedLocationOfKey(keyFingerprint(apiKey));
  if (stored) return stored;
  const result = await client.location();
  if (!result.ok) throw new Error(`the location record breaks the spec: ${result.reject.reason}`);
  return { id: result.valid.record.id, name: result.valid.record.name };
}

async function reconciliationProblems(
  options: VerifyOptions,
  locationId: string,
  since: string,
  until: string,
): Promise<ReconciliationProblem[]> {
  const { destination } = options;
  const problems: ReconciliationProblem[] = [];
  for (const problem of await destination.days.reconciliationProblems(locationId, since, until)) {
    const ordersRejected =
      problem.ordersMissing > 0 ? await destination.days.rejectedReportOrders(problem.reportId) : 0;
    const explained = problem.ordersMissing > 0 && ordersRejected === problem.ordersMissing;
    problems.push({ ...problem, ordersRejected, allowed: explained && !!options.allowRejected });
  }
  return problems;
}

/** The first day checked: the first day synced, or --since, which starts no earlier than the
 * first day the API holds, as a sync's does (start-date.ts), and says so in the result. */
async function firstDayChecked(
  options: VerifyOptions,
  client: PosApiClient,
  locationId: string,
  locationToday: string,
  result: LocationVerification,
): Promise<string | undefined> {
  const { destination } = options;
  const since = options.range?.since;
  if (since === undefined) return destination.checkpoints.firstRecordedDay(locationId);
  // As the sync learned it, else from the reports (read here, not stored: verify only reads).
  const firstDay =
    (await destination.locations.startDate(locationId)) ??
    (await discoverStart(client, locationToday)).firstDay;
  const { startDate, skipped } = startDateOf(since, firstDay, locationToday);
  if (skipped) result.notice = skippedNotice("--since", skipped);
  return startDate;
}

async function verifyLocation(
  options: VerifyOptions,
  client: PosApiClient,
  apiKey: string,
  limit: ReturnType<typeof pLimit>,
  /** The one location asked for (its id), if one was. */
  only: string | undefined,
): Promise<LocationVerification | undefined> {
  const { destination } = options;
  const dayStreams = options.dayStreams ?? DAY_STREAM_DESCRIPTIONS;
  const result: LocationVerification = {
    key: client.keyFingerprint,
    locationId: null,
    name: null,
    since: null,
    until: null,
    notice: null,
    checks: 0,
    mismatches: [],
    reconciliation: [],
    error: null,
    keyRejected: false,
  };
  try {
    const location = await locationOf(destination, client, apiKey);
    if (only !== undefined && location.id !== only) return undefined;
    Object.assign(result, { locationId: location.id, name: location.name });
    const now = options.now?.() ?? new Date();
    const offset = await destination.locations.utcOffsetMinutes(location.id, now);
    const locationToday = today(now, offset ?? 0);
    const since = await firstDayChecked(options, client, location.id, locationToday, result);
    const until = options.range?.until ?? locationToday;
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
            const check = { stream: stream.name, day };
            if (!options.content) {
              const apiCount = await countDays(stream, client, { since: day, until: day });
              const { records: stored, rejected } = await destination.days.storedForDay(
                stream,
                location.id,
                day,
              );
              if (dayAgrees({ apiCount, stored, rejected }))
                return { ...check, apiCount, stored, rejected, matches: true };
              // Counts that differ do not say the day disagrees (an order kept on purpose is
              // stored and counted by no list): the day's proof does.
            }
            // The listing read whole gives the count too: no request of size 1 beside it.
            const proof = await proveDay(destination, client, stream, location.id, day);
            const { apiCount, stored, rejected, kept, content, rewrite } = proof;
            const matches = dayAgrees(proof);
            return { ...check, apiCount, stored, rejected, kept, content, rewrite, matches };
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
  const only =
    options.location === undefined
      ? undefined
      : await locationNamed(options.destination, options.location);
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
        return verifyLocation(options, client, location.apiKey, limit, only);
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
  const days: Record<string, Partial<Record<DayStream, RepairFinding[]>>> = {};
  const add = (locationId: string, stream: DayStream, finding: RepairFinding) => {
    days[locationId] ??= {};
    const streams = days[locationId];
    streams[stream] ??= [];
    const list = streams[stream];
    if (!list.some((f) => f.day === finding.day)) list.push(finding);
  };
  for (const location of result.locations) {
    const { locationId } = location;
    if (locationId === null) continue;
    for (const check of location.mismatches) add(locationId, check.stream, findingOf(check));
    for (const problem of location.reconciliation)
      if (!problem.allowed)
        for (const stream of DAY_STREAM_DESCRIPTIONS)
          add(locationId, stream.name, { ...UNCOUNTED, day: problem.businessDate });
  }
  return days;
}

/** A day read again because its report does not agree with its orders: nothing counted. */
const UNCOUNTED = {
  foundBy: "verify",
  apiCount: null,
  storedCount: null,
  missing: null,
  changed: null,
  extra: null,
} as const;

function findingOf(check: DayCheck): RepairFinding {
  return {
    day: check.day,
    foundBy: "verify",
    apiCount: check.apiCount,
    storedCount: accountedFor(check),
    missing: check.content?.missing ?? null,
    changed: check.content?.changed ?? null,
    extra: check.content?.extra ?? null,
    ...(check.rewrite?.length ? { rewrite: check.rewrite } : {}),
  };
}

/** How many day-streams a repair reads. */
export function repairCount(days: RepairDays): number {
  return Object.values(days).reduce(
    (sum, streams) => sum + Object.values(streams).reduce((n, list) => n + (list?.length ?? 0), 0),
    0,
  );
}
