/**
 * Proving what is stored: the API's count of each day (one request of size 1 per day and
 * stream) against the records stored for that day, and the reports against their orders.
 */

import pLimit from "p-limit";
import { PosApiClient } from "../api/client.js";
import { ApiKeyRejectedError } from "../api/errors.js";
import { HttpTransport, type TransportOptions } from "../api/transport.js";
import type { Config } from "../config.js";
import { eachDay, today } from "../dates.js";
import type { Db } from "../db/open.js";
import { locationOffsetMinutes, rejectedReportOrders, storedForDay } from "../db/queries.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../log.js";
import { keyFingerprint } from "../secrets.js";
import { Checkpoints } from "./checkpoints.js";
import { DAY_STREAMS, type DayStream } from "./streams.js";

export interface DayCheck {
  stream: DayStream;
  day: string;
  apiCount: number;
  stored: number;
  rejected: number;
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
  db: Db;
  logger: Logger;
  /** Either end may be left out: since defaults to the first day synced, until to the
   * location's today. */
  range?: { since?: string; until?: string };
  now?: () => Date;
  transport?: Partial<TransportOptions>;
}

/** The stored location of a key: from the fingerprint a sync recorded, else from the API. */
async function locationOf(
  db: Db,
  client: PosApiClient,
  apiKey: string,
): Promise<{ id: string; name: string | null }> {
  const stored = db.sqlite
    .prepare("SELECT id, name FROM locations WHERE api_key_fingerprint = ?")
    .get(keyFingerprint(apiKey)) as { id: string; name: string | null } | undefined;
  if (stored) return stored;
  const result = await client.location();
  if (!result.ok) throw new Error(`the location record breaks the spec: ${result.reject.reason}`);
  return { id: result.valid.record.id, name: result.valid.record.name };
}

function reconciliationProblems(
  db: Db,
  locationId: string,
  since: string,
  until: string,
): ReconciliationProblem[] {
  const problems = db.sqlite
    .prepare(
      `SELECT report_id AS reportId, report_number AS reportNumber, business_date AS businessDate,
              difference, orders_missing AS ordersMissing, status
       FROM v_report_reconciliation
       WHERE location_id = ? AND business_date BETWEEN ? AND ? AND status <> 'ok'
       ORDER BY business_date`,
    )
    .all(locationId, since, until) as Omit<ReconciliationProblem, "ordersRejected">[];
  return problems.map((problem) => ({
    ...problem,
    ordersRejected: problem.ordersMissing > 0 ? rejectedReportOrders(db, problem.reportId) : 0,
  }));
}

async function verifyLocation(
  options: VerifyOptions,
  client: PosApiClient,
  apiKey: string,
  limit: ReturnType<typeof pLimit>,
): Promise<LocationVerification> {
  const { db } = options;
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
    const location = await locationOf(db, client, apiKey);
    Object.assign(result, { locationId: location.id, name: location.name });
    const now = options.now?.() ?? new Date();
    const since = options.range?.since ?? new Checkpoints(db).firstRecordedDay(location.id);
    const until = options.range?.until ?? today(now, locationOffsetMinutes(db, location.id) ?? 0);
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
        DAY_STREAMS.map((stream) =>
          limit(async (): Promise<DayCheck> => {
            const apiCount = await client.count(stream, { since: day, until: day });
            const { records, rejected } = storedForDay(db, stream, location.id, day);
            return {
              stream,
              day,
              apiCount,
              stored: records,
              rejected,
              matches: apiCount === records + rejected,
            };
          }),
        ),
      ),
    );
    result.checks = checks.length;
    result.mismatches = checks.filter((c) => !c.matches).sort((a, b) => a.day.localeCompare(b.day));
    result.reconciliation = reconciliationProblems(db, location.id, since, until);
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
    const locations = await Promise.all(
      config.locations.map((location) => {
        const client = new PosApiClient(transport, {
          apiKey: location.apiKey,
          authScheme: config.authScheme,
          paths: config.paths,
        });
        return verifyLocation(options, client, location.apiKey, limit);
      }),
    );
    const ok = locations.every(
      (l) => l.error === null && l.mismatches.length === 0 && l.reconciliation.length === 0,
    );
    return { locations, requests: transport.stats.requests, ok };
  } finally {
    await transport.close();
  }
}

/** What keeps a report from agreeing with its orders; rejected orders named apart, since they
 * are not lost but set aside. */
function reconciliationText(r: ReconciliationProblem): string {
  if (r.ordersMissing === 0) return `totals differ by ${r.difference}`;
  const rejected = `set aside in rejected_records (they break the spec)`;
  if (r.ordersRejected === r.ordersMissing)
    return `${r.ordersMissing} of its orders are not stored: ${rejected}`;
  const notStored = r.ordersMissing - r.ordersRejected;
  return r.ordersRejected === 0
    ? `${notStored} orders missing`
    : `${notStored} orders missing, and ${r.ordersRejected} more ${rejected}`;
}

export function formatVerify(result: VerifyResult): string {
  const lines: string[] = [];
  for (const location of result.locations) {
    const head = `${location.name ?? "(unknown location)"}  ${location.locationId ?? ""}  ${location.key}`;
    lines.push(head);
    if (location.error) {
      lines.push(`  ! ${location.error}`);
      continue;
    }
    lines.push(`  ${location.checks} day counts checked, ${location.since} to ${location.until}`);
    for (const m of location.mismatches.slice(0, 20)) {
      lines.push(
        `  ! ${m.stream} ${m.day}: the API counts ${m.apiCount}, stored ${m.stored} (+${m.rejected} rejected)`,
      );
    }
    if (location.mismatches.length > 20)
      lines.push(`  ! … and ${location.mismatches.length - 20} more days`);
    for (const r of location.reconciliation.slice(0, 20)) {
      lines.push(`  ! report #${r.reportNumber} (${r.businessDate}): ${reconciliationText(r)}`);
    }
    if (location.reconciliation.length > 20)
      lines.push(`  ! … and ${location.reconciliation.length - 20} more reports`);
    if (location.mismatches.length === 0 && location.reconciliation.length === 0) {
      lines.push("  every count matches the API; every report agrees with its orders");
    }
  }
  lines.push("", `${result.ok ? "OK" : "MISMATCH"}: ${result.requests} requests`);
  return `${lines.join("\n")}\n`;
}
