/**
 * Everything pos-sync reads back from a destination, in one SQL text for both (sql.ts): what
 * status, verify, the status page and the demo show, and the reads across streams the sync needs
 * (a key's location, a location's clock, the orders reports list that no window returned). No
 * writes. Each destination reads through one of these on its own connection.
 */
import { utcOffsetOf } from "../dates.js";
import { LocalClock } from "../local-clock.js";
import { DAY_STREAMS, type DayStream, type Stream, type WindowStatus } from "../vocabulary.js";
import { comparableRows, type RecordRows } from "./comparable-rows.js";
import { storedRecordsOfDay } from "./day-rows.js";
import type { Db } from "./open.js";
import { SALE } from "./rollup-sql.js";
import type { Row } from "./schema/columns.js";
import { relationName } from "./schema/relations.js";
import { type QueryResult, type SqlSession, sqliteSession } from "./sql.js";
import type { DayStreamTables, SnapshotListTables } from "./stream-tables.js";

export type { QueryResult } from "./sql.js";

/** The name under which sync_state keeps a location's UTC offset, learned before any order of
 * it was stored. */
export const UTC_OFFSET_STATE = "utc_offset_minutes";
/** The name under which sync_state keeps the first day of a location's history. */
export const START_DATE_STATE = "start_date";
/** The name under which sync_state keeps where the audit's pace stands for a location. */
export const AUDIT_PACE_STATE = "audit_pace";

/** A proved window of a day stream, as the audit picks what to re-prove. */
export interface ProvedWindow {
  stream: DayStream;
  day: string;
  provedAt: string | null;
}

/** How far the audit has re-proved a location's history (status). */
export interface AuditCoverage {
  /** Complete windows of the day streams before the day asked for. */
  windows: number;
  /** The oldest proof among them: every one was proved since. */
  provedSince: string | null;
  /** Those last proved by the audit. */
  audited: number;
  /** Repairs found since `repairsSince`, and how many of them failed on a day still not
   * proved complete. */
  repairs: number;
  failedRepairs: number;
}

export interface StoredCounts {
  records: number;
  rejected: number;
}

/** A record stored live, as a listing of its day tells its versions apart. */
export interface StoredVersionOfDay {
  id: string;
  contentHash: number | null;
  /** Listed, and its stored rows differ from the listed record's (a hand edit, say). */
  rowsDiffer: boolean;
}

export interface RowCounts {
  /** Rows the API lists now: the ones every view counts. */
  live: number;
  /** Rows kept for audit after the API stopped listing them. */
  deleted: number;
}

/** One recorded day window, as status reads it. */
export interface WindowRow {
  day: string;
  status: string;
  last_error: string | null;
  synced_at: string;
  /** What the API counted for the day at the last read, and what was stored of it. */
  api_total_count: number | null;
  stored_count: number | null;
}

export type LatestWindow = Pick<WindowRow, "status" | "last_error" | "synced_at">;

/** A run as recorded in sync_runs. */
export interface RunRow {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  trigger: string;
  requests: number | null;
  /** Attempts retried, and answers that asked to slow down (429): null for runs recorded before
   * they were counted. */
  retries: number | null;
  rateLimited: number | null;
  error: string | null;
  pid: number | null;
  hostname: string | null;
}

/** A location's outcome in one recorded run, from its stats: a key the API rejected is known
 * only here when its location was never read. */
export interface RunLocationOutcome {
  runId: number;
  /** The key's fingerprint (key#1a2b3c4d). */
  key: string;
  locationId: string | null;
  name: string | null;
  /** The name the configuration file gives the location, if any. */
  label: string | null;
  error: string | null;
  keyRejected: boolean;
}

export interface RejectedOnDay {
  day: string;
  count: number;
}

/** One business day of one location's sales, from the daily summary (src/db/rollups.ts). */
export interface DailySalesRow {
  day: string;
  /** Orders that count as sales (not cancelled, training nor transferred) and their total. */
  orders: number;
  sales: number;
  cancelledOrders: number;
  cancelledTotal: number;
  transferredOrders: number;
  transferredSales: number;
}

/** One report's reconciliation with its stored orders (v_report_reconciliation). */
export interface ReportStateRow {
  day: string;
  reportNumber: number;
  /** ok, orders missing, or totals differ. */
  status: string;
  difference: number;
  ordersMissing: number;
}

/** A location known to the database: read from the API, or only named by its windows. */
export interface KnownLocation {
  id: string;
  name: string | null;
  /** Whether its location record was read (its name may still be null). */
  read: boolean;
  key: string | null;
}

/** A report that does not agree with its stored orders. */
export interface ReconciliationRow {
  reportId: string;
  reportNumber: number;
  businessDate: string;
  difference: number;
  ordersMissing: number;
  status: string;
}

export interface DaysCovered {
  locationId: string;
  name: string;
  firstDay: string | null;
  lastDay: string | null;
  /** Windows proven complete: past days. */
  complete: number;
  /** Windows read up to now but not over: the location's today. */
  open: number;
  days: number;
}

/** A location's turns among several workers (PostgreSQL), as status shows them. */
export interface LocationTurn {
  /** The key's fingerprint. */
  key: string;
  /** The worker (host:pid) syncing it now, if any: a worker that died shows until another
   * takes the location over. */
  heldBy: string | null;
  heldSince: string | null;
  lastDoneBy: string | null;
  lastDoneAt: string | null;
}

/** Which changes `changes` reads: those pos-sync saw from an instant on, of one location or all. */
export interface OrderChangeFilter {
  /** UTC, ISO 8601. */
  seenSince: string;
  locationId?: string;
}

/** An item of a version, as far as `changes` needs it. */
export interface StoredItem {
  position: number;
  item_catalog_id: string;
  description: string;
  total: number;
  is_canceled: number | boolean;
}

/** A row of v_order_changes, with the earlier version's content (history/versions.ts) and the
 * replacing version's items. As each destination returns them: flags 0/1 or booleans, JSON as
 * text or parsed. */
export interface OrderChangeRow {
  orderId: string;
  locationId: string;
  locationName: string | null;
  businessDate: string;
  orderNumber: string;
  fromVersion: number;
  /** repaired: replaced by a repair's read, a correction upstream that kept its updatedAt. */
  change: "changed" | "repaired" | "vanished";
  changedAt: string | null;
  changedBy: string | null;
  seenAt: string;
  closedAt: string;
  previousTotal: number;
  newTotal: number | null;
  previousPaid: number;
  wasCanceled: number | boolean;
  isCanceled: number | boolean | null;
  changedFields: string | string[] | null;
  content: string | Record<string, unknown>;
  /** From the next history row, or the current order's items; null when the order vanished. */
  nextItems: StoredItem[] | null;
}

/** A row as the query returns it, before the next version's items are added. */
type OrderChangeQueryRow = Omit<OrderChangeRow, "nextItems"> & {
  nextContent: unknown;
  nextIsCurrent: unknown;
};

type ItemOfOrder = StoredItem & { order_id: string };

const textOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** The locations of a run's stats (JSON text from SQLite, a parsed document from PostgreSQL);
 * none from stats of another shape, written by another version. */
function runLocationOutcomes(run: { id: number; stats: unknown }): RunLocationOutcome[] {
  const stats = typeof run.stats === "string" ? JSON.parse(run.stats) : run.stats;
  const locations: unknown = stats?.locations;
  if (!Array.isArray(locations)) return [];
  return locations
    .filter((location) => typeof location?.key === "string")
    .map((location) => ({
      runId: Number(run.id),
      key: location.key,
      locationId: textOrNull(location.locationId),
      name: textOrNull(location.name),
      label: textOrNull(location.label),
      error: textOrNull(location.error),
      keyRejected: location.keyRejected === true,
    }));
}

/** The reads of a destination (ReadableDestination, destination.ts), one class for both. */
export class SqlReader {
  /** `location` is the destination's, for messages; `release` closes what the reader opened. */
  constructor(
    protected readonly sql: SqlSession,
    readonly location: string,
    private readonly release: () => Promise<void> = async () => {},
  ) {}

  close(): Promise<void> {
    return this.release();
  }

  private p(n: number): string {
    return this.sql.dialect.param(n);
  }

  protected all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.sql.all<T>(sql, params).catch((error: unknown) => {
      throw this.failed(error);
    });
  }

  /** What a failed read throws: the error as raised, unless a destination says otherwise. */
  protected failed(error: unknown): unknown {
    return error;
  }

  protected async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  private async count(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.one<{ n: number }>(sql, params))?.n ?? 0;
  }

  // What the sync reads across streams.

  /** The stored location a key reads (by the key's fingerprint), if a run stored it. */
  storedLocationOfKey(fingerprint: string) {
    return this.one<{ id: string; name: string | null }>(
      `SELECT id, name FROM locations WHERE api_key_fingerprint = ${this.p(1)}`,
      [fingerprint],
    );
  }

  /** Whether a run stored this location already. */
  async isLocationStored(locationId: string): Promise<boolean> {
    const sql = `SELECT 1 AS found FROM locations WHERE id = ${this.p(1)}`;
    return (await this.one(sql, [locationId])) !== undefined;
  }

  /** How many of these records of a day stream are stored now, live or not. */
  async countStored(stream: DayStreamTables, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.count(
      `SELECT COUNT(*) AS n FROM ${relationName(stream.table)} WHERE ${this.sql.dialect.inList("id", 1)}`,
      [[...ids]],
    );
  }

  /** What a complete read of a day means for the records stored for it: how many are live,
   * and which of those the read did not list (neither as a record nor as a reject). */
  async unlistedRecords(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ): Promise<{ live: number; unlisted: string[] }> {
    const rows = await this.all<{ id: string; listed: unknown }>(
      `SELECT id, ${this.sql.dialect.inList("id", 3)} AS listed FROM ${relationName(stream.table)}
       WHERE location_id = ${this.p(1)} AND business_date = ${this.p(2)} AND deleted_at IS NULL`,
      [locationId, day, [...listedIds]],
    );
    return { live: rows.length, unlisted: rows.filter((r) => !r.listed).map((r) => r.id) };
  }

  /**
   * The UTC offset of a location at an instant, in minutes: its applied time zone setting's, else
   * the one its latest stored order was sent with, else the one the first run learned from its
   * reports. Every part of pos-sync that asks for a location's today (the plan, status, verify)
   * asks here, so that they agree.
   */
  async utcOffsetMinutes(locationId: string, at: Date): Promise<number | undefined> {
    return (await this.utcOffsets(locationId))(at);
  }

  /** The same rule, read once for many instants (a page's times, a list of changes). */
  async utcOffsets(locationId: string): Promise<(at: Date) => number | undefined> {
    const zone = await this.timeZoneOf(locationId);
    if (zone !== null) {
      const clock = LocalClock.of(zone);
      return (at) => clock.offsetMinutesAt(at.getTime());
    }
    const latest = await this.one<{ sent: string | null }>(this.sql.dialect.newestOrderSent, [
      locationId,
    ]);
    const fromOrders = latest?.sent ? utcOffsetOf(latest.sent) : undefined;
    if (fromOrders !== undefined) return () => fromOrders;
    const learned = await this.state(locationId, UTC_OFFSET_STATE);
    const offset = learned === undefined ? undefined : Number(learned);
    return () => offset;
  }

  /** One named value remembered for a location (sync_state). */
  private async state(locationId: string, name: string): Promise<string | undefined> {
    const row = await this.one<{ value: string }>(
      `SELECT value FROM sync_state WHERE location_id = ${this.p(1)} AND name = ${this.p(2)}`,
      [locationId, name],
    );
    return row?.value;
  }

  /** The first day of a location's history, as an incremental run settled it. */
  startDate(locationId: string): Promise<string | undefined> {
    return this.state(locationId, START_DATE_STATE);
  }

  /** Status of every recorded day of one location and stream. */
  async windows(locationId: string, stream: Stream): Promise<Map<string, WindowStatus>> {
    const rows = await this.all<{ day: string; status: WindowStatus }>(
      `SELECT day, status FROM sync_windows WHERE location_id = ${this.p(1)} AND stream = ${this.p(2)}`,
      [locationId, stream],
    );
    return new Map(rows.map((r) => [r.day, r.status]));
  }

  /** The first day ever recorded for a location's day streams, if any. */
  async firstRecordedDay(locationId: string): Promise<string | undefined> {
    const row = await this.one<{ first: string | null }>(
      `SELECT MIN(day) AS first FROM sync_windows
       WHERE location_id = ${this.p(1)} AND ${this.sql.dialect.inList("stream", 2)}`,
      [locationId, [...DAY_STREAMS]],
    );
    return row?.first ?? undefined;
  }

  /**
   * Orders that a stored report lists but that are neither stored nor set aside as rejected,
   * although the orders windows of the report's session days were read completely: the API's
   * lists missed them. Sessions of reports whose days were not read yet are left to their windows.
   *
   * Only the reports whose reconciliation (report_order_sums) counts orders missing are looked
   * through, with those not summed yet or waiting to be summed again: every order of every
   * report was 3 s a run on a location of a million orders, 1 ms this way.
   */
  async missingReportOrders(locationId: string, limit: number): Promise<string[]> {
    const { dialect } = this.sql;
    const windowComplete = (column: string) => `EXISTS (
      SELECT 1 FROM sync_windows w
      WHERE w.location_id = r.location_id AND w.stream = 'orders' AND w.status = 'complete'
        AND w.day = ${dialect.sentDay(`r.${column}`, 3)})`;
    const offset = (await this.utcOffsetMinutes(locationId, new Date())) ?? 0;
    const rows = await this.all<{ order_id: string }>(
      `SELECT DISTINCT ro.order_id FROM report_order_rows ro JOIN reports r ON r.key = ro.report_key
       WHERE r.location_id = ${this.p(1)}
         AND (NOT EXISTS (
                SELECT 1 FROM report_order_sums s WHERE s.report_id = r.id AND s.orders_missing = 0)
              OR EXISTS (
                SELECT 1 FROM summary_pending p
                WHERE p.kind = 'report' AND p.location_id = r.location_id AND p.key = r.id))
         AND ${windowComplete("started_at")} AND ${windowComplete("finalized_at")}
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id)
         AND NOT EXISTS (
           SELECT 1 FROM rejected_records rr
           WHERE rr.location_id = r.location_id AND rr.stream = 'orders' AND rr.record_id = ro.order_id
         )
       LIMIT ${this.p(2)}`,
      [locationId, limit, offset],
    );
    return rows.map((row) => row.order_id);
  }

  /** Of these orders, the ones a live stored report lists. */
  async ordersListedByLiveReport(
    locationId: string,
    orderIds: readonly string[],
  ): Promise<string[]> {
    if (orderIds.length === 0) return [];
    const rows = await this.all<{ order_id: string }>(
      `SELECT DISTINCT ro.order_id FROM report_order_rows ro JOIN reports r ON r.key = ro.report_key
       WHERE r.location_id = ${this.p(1)} AND r.deleted_at IS NULL
         AND ${this.sql.dialect.inList("ro.order_id", 2)}`,
      [locationId, orderIds],
    );
    return rows.map((row) => row.order_id);
  }

  // What status, verify, the status page and the demo read.

  /** The stored locations, and those only windows name (their location record never read). The
   * windows' locations are found by skipping from one to the next on their key's index: a few
   * lookups a location, not a read of every window of a chain's years. */
  async knownLocations(): Promise<KnownLocation[]> {
    const rows = await this.all<Omit<KnownLocation, "read"> & { read: number }>(
      `WITH RECURSIVE windowed(id) AS (
         SELECT MIN(location_id) FROM sync_windows
         UNION ALL
         SELECT (SELECT MIN(w.location_id) FROM sync_windows w WHERE w.location_id > windowed.id)
         FROM windowed WHERE windowed.id IS NOT NULL
       )
       SELECT id, name, 1 AS read, api_key_fingerprint AS key FROM locations
       UNION SELECT id, NULL, 0, NULL FROM windowed
         WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM locations)
       ORDER BY name NULLS FIRST`,
    );
    return rows.map((row) => ({ ...row, read: row.read === 1 }));
  }

  /** Every recorded window of a location and stream, oldest first. */
  windowRows(locationId: string, stream: Stream): Promise<WindowRow[]> {
    return this.all(
      `SELECT day, status, last_error, synced_at, api_total_count, stored_count FROM sync_windows
       WHERE location_id = ${this.p(1)} AND stream = ${this.p(2)} ORDER BY day`,
      [locationId, stream],
    );
  }

  /** The latest window of a location and stream (a snapshot stream records one per day). */
  latestWindow(locationId: string, stream: Stream): Promise<LatestWindow | undefined> {
    return this.one(
      `SELECT status, last_error, synced_at FROM sync_windows
       WHERE location_id = ${this.p(1)} AND stream = ${this.p(2)} ORDER BY day DESC LIMIT 1`,
      [locationId, stream],
    );
  }

  async lastRun(): Promise<RunRow | undefined> {
    return (await this.recentRuns(1))[0];
  }

  /** The latest runs, newest first. */
  recentRuns(limit: number): Promise<RunRow[]> {
    const { statsField } = this.sql.dialect;
    return this.all(
      `SELECT id, started_at AS "startedAt", finished_at AS "finishedAt", status, "trigger",
         requests, ${statsField("retries")} AS retries,
         ${statsField("rateLimited")} AS "rateLimited", error, pid, hostname
       FROM sync_runs ORDER BY id DESC LIMIT ${this.p(1)}`,
      [limit],
    );
  }

  async lastSuccessAt(): Promise<string | null> {
    const row = await this.one<{ at: string | null }>(
      "SELECT MAX(finished_at) AS at FROM sync_runs WHERE status = 'succeeded'",
    );
    return row?.at ?? null;
  }

  /** Each location's outcome in the latest run that ended of itself (an interrupted one
   * reached only some locations). */
  async lastRunLocations(): Promise<RunLocationOutcome[]> {
    const run = await this.one<{ id: number; stats: unknown }>(
      `SELECT id, stats FROM sync_runs
       WHERE stats IS NOT NULL AND status IN ('succeeded', 'partial', 'failed')
       ORDER BY id DESC LIMIT 1`,
    );
    return run ? runLocationOutcomes(run) : [];
  }

  /**
   * Rejects counted once per record (a record set aside twice under two keys, by a window read
   * and by a read by id, is one record), leaving out those whose record is stored live now.
   * Parameters: location, stream, then the caller's; `by` groups them (a column of rr).
   */
  private distinctRejectsSql(stream: DayStreamTables, where: string, by?: string): string {
    return `SELECT ${by ? `${by}, ` : ""}COUNT(DISTINCT COALESCE(rr.record_id, rr.record_key)) AS n
      FROM rejected_records rr
      WHERE rr.location_id = ${this.p(1)} AND rr.stream = ${this.p(2)} AND ${where}
        AND NOT EXISTS (
          SELECT 1 FROM "${relationName(stream.table)}" t
          WHERE t.id = rr.record_id AND t.location_id = rr.location_id AND t.deleted_at IS NULL
        )${by ? ` GROUP BY ${by}` : ""}`;
  }

  /** Distinct records set aside per day (those stored live since left out). */
  async rejectedByDay(stream: DayStreamTables, locationId: string): Promise<RejectedOnDay[]> {
    const rows = await this.all<{ day: string; n: number }>(
      this.distinctRejectsSql(stream, "rr.day IS NOT NULL", "rr.day"),
      [locationId, stream.name],
    );
    return rows.map(({ day, n }) => ({ day, count: n }));
  }

  /** A location's sales per business day, both days included (days without orders absent). */
  dailySales(locationId: string, since: string, until: string): Promise<DailySalesRow[]> {
    return this.all(
      `SELECT business_date AS day, orders, total_sales AS sales,
         cancelled_orders AS "cancelledOrders", cancelled_total AS "cancelledTotal",
         transferred_orders AS "transferredOrders", transferred_sales AS "transferredSales"
       FROM daily_sales
       WHERE location_id = ${this.p(1)} AND business_date BETWEEN ${this.p(2)} AND ${this.p(3)}
       ORDER BY business_date`,
      [locationId, since, until],
    );
  }

  /** Each report's reconciliation with its stored orders, both days included. */
  reportStates(locationId: string, since: string, until: string): Promise<ReportStateRow[]> {
    return this.all(
      `SELECT business_date AS day, report_number AS "reportNumber", status, difference,
         orders_missing AS "ordersMissing"
       FROM v_report_reconciliation
       WHERE location_id = ${this.p(1)} AND business_date BETWEEN ${this.p(2)} AND ${this.p(3)}
       ORDER BY business_date, report_number`,
      [locationId, since, until],
    );
  }

  /** Rows of a day stream or list table for one location, live and marked deleted: a day
   * stream's as the triggers on its table keep them (location_row_counts: two numbers, however
   * long the history), a list's counted (a catalog is no history). */
  async rowCounts(owner: DayStreamTables | SnapshotListTables, locationId: string) {
    const table = relationName(owner.table);
    const kept = (DAY_STREAMS as readonly string[]).includes(owner.name);
    const counts = await this.one<RowCounts>(
      kept
        ? `SELECT live, deleted FROM location_row_counts
           WHERE location_id = ${this.p(1)} AND relation = ${this.p(2)}`
        : `SELECT COUNT(*) FILTER (WHERE deleted_at IS NULL) AS live,
                  COUNT(*) FILTER (WHERE deleted_at IS NOT NULL) AS deleted
           FROM "${table}" WHERE location_id = ${this.p(1)}`,
      kept ? [locationId, table] : [locationId],
    );
    return { table, counts: { live: counts?.live ?? 0, deleted: counts?.deleted ?? 0 } };
  }

  /** The distinct records of a stream set aside, for the whole history of a location. */
  rejectedCount(stream: DayStreamTables, locationId: string): Promise<number> {
    return this.count(this.distinctRejectsSql(stream, "1 = 1"), [locationId, stream.name]);
  }

  /** Records stored live for one day of a stream (not those marked deleted), and the distinct
   * records set aside for it. */
  async storedForDay(
    stream: DayStreamTables,
    locationId: string,
    day: string,
  ): Promise<StoredCounts> {
    const records = await this.count(
      `SELECT COUNT(*) AS n FROM "${relationName(stream.table)}"
       WHERE location_id = ${this.p(1)} AND business_date = ${this.p(2)} AND deleted_at IS NULL`,
      [locationId, day],
    );
    const rejected = await this.count(this.distinctRejectsSql(stream, `rr.day = ${this.p(3)}`), [
      locationId,
      stream.name,
      day,
    ]);
    return { records, rejected };
  }

  /** The audit's pace for a location as audit.ts saved it, or undefined before its first. */
  auditPace(locationId: string): Promise<string | undefined> {
    return this.state(locationId, AUDIT_PACE_STATE);
  }

  /** The complete windows of the day streams before `before`, least recently proved first. */
  async provedWindows(locationId: string, before: string): Promise<ProvedWindow[]> {
    const rows = await this.all<{ stream: DayStream; day: string; proved_at: string | null }>(
      `SELECT stream, day, proved_at FROM sync_windows
       WHERE location_id = ${this.p(1)} AND ${this.sql.dialect.inList("stream", 3)} AND status = 'complete'
         AND day < ${this.p(2)}
       ORDER BY proved_at IS NOT NULL, proved_at, day, stream`,
      [locationId, before, [...DAY_STREAMS]],
    );
    return rows.map((row) => ({ stream: row.stream, day: row.day, provedAt: row.proved_at }));
  }

  /** The audit's coverage of a location's history before `before`, and its repairs since
   * `repairsSince`. */
  async auditCoverage(
    locationId: string,
    before: string,
    repairsSince: string,
  ): Promise<AuditCoverage> {
    const windows = await this.one<{
      n: unknown;
      proved: unknown;
      since: string | null;
      audited: unknown;
    }>(
      `SELECT COUNT(*) AS n, COUNT(proved_at) AS proved, MIN(proved_at) AS since,
         SUM(CASE WHEN proved_by = 'audit' THEN 1 ELSE 0 END) AS audited
       FROM sync_windows
       WHERE location_id = ${this.p(1)} AND ${this.sql.dialect.inList("stream", 3)} AND status = 'complete'
         AND day < ${this.p(2)}`,
      [locationId, before, [...DAY_STREAMS]],
    );
    // A failed repair a later run mended is no longer one to worry about; a read again that
    // wrote nothing repaired nothing.
    const repairs = await this.one<{ n: unknown; failed: unknown }>(
      `SELECT SUM(CASE WHEN h.outcome <> 'unchanged' THEN 1 ELSE 0 END) AS n,
         SUM(CASE WHEN h.outcome = 'failed' AND COALESCE(w.status, '') NOT IN ('complete', 'open')
           THEN 1 ELSE 0 END) AS failed
       FROM history_repairs h
       LEFT JOIN sync_windows w
         ON w.location_id = h.location_id AND w.stream = h.stream AND w.day = h.day
       WHERE h.location_id = ${this.p(1)} AND h.found_at >= ${this.p(2)}`,
      [locationId, repairsSince],
    );
    const count = Number(windows?.n ?? 0);
    return {
      windows: count,
      // A window never proved (recorded before proofs were kept) leaves no "since".
      provedSince: count > 0 && Number(windows?.proved) === count ? (windows?.since ?? null) : null,
      audited: Number(windows?.audited ?? 0),
      repairs: Number(repairs?.n ?? 0),
      failedRepairs: Number(repairs?.failed ?? 0),
    };
  }

  /** The records stored live for one day of a stream, each with its content hash and whether
   * its rows in the relations of the contract differ from those the listing gives for it
   * (`listed`: each listed record's rows as normalized; day-rows.ts). */
  async storedVersionsOfDay(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listed: ReadonlyMap<string, RecordRows>,
  ): Promise<StoredVersionOfDay[]> {
    const query = (sql: string, params: readonly unknown[]) => this.all<Row>(sql, params);
    const { dialect } = this.sql;
    const stored = await storedRecordsOfDay(query, dialect, stream, locationId, day);
    return [...stored].map(([id, { contentHash, rows }]) => {
      const own = listed.get(id);
      const rowsDiffer =
        own !== undefined && rows !== comparableRows(stream, own, dialect.dateTimes);
      return { id, contentHash, rowsDiffer };
    });
  }

  /** The time zone a location's rows are stamped on (locations.time_zone); null: the hours as
   * the API writes them. */
  async timeZoneOf(locationId: string): Promise<string | null> {
    const zone = await this.one<{ time_zone: string | null }>(
      `SELECT time_zone FROM locations WHERE id = ${this.p(1)}`,
      [locationId],
    );
    return zone?.time_zone ?? null;
  }

  reconciliationProblems(
    locationId: string,
    since: string,
    until: string,
  ): Promise<ReconciliationRow[]> {
    // Computed from the order tables rather than read from v_report_reconciliation: a check must
    // not trust the summary it would check (report_order_sums only follows pos-sync's own writes).
    return this.all(
      `SELECT "reportId", "reportNumber", "businessDate", difference, "ordersMissing",
              CASE WHEN "ordersMissing" > 0 THEN 'orders missing' ELSE 'totals differ' END AS status
       FROM (
         SELECT r.id AS "reportId", r.report_number AS "reportNumber",
           r.business_date AS "businessDate",
           ROUND(r.total_sales - (
             SELECT ROUND(COALESCE(SUM(o.total), 0), 2) FROM orders o
             WHERE o.report_id = r.id AND o.deleted_at IS NULL AND ${SALE}
           ), 2) AS difference,
           (SELECT COUNT(*) FROM report_order_rows ro WHERE ro.report_key = r.key
              AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
           ) AS "ordersMissing"
         FROM reports r
         WHERE r.location_id = ${this.p(1)} AND r.business_date BETWEEN ${this.p(2)} AND ${this.p(3)}
           AND r.deleted_at IS NULL
       ) checked
       WHERE "ordersMissing" > 0 OR difference <> 0
       ORDER BY "businessDate"`,
      [locationId, since, until],
    );
  }

  /** Whether a run set this record aside already (by its reject key: rejectKey). */
  async rejectedInRun(
    locationId: string,
    stream: string,
    recordKey: string,
    runId: number,
  ): Promise<boolean> {
    const row = await this.one(
      `SELECT 1 AS found FROM rejected_records WHERE location_id = ${this.p(1)}
         AND stream = ${this.p(2)} AND record_key = ${this.p(3)} AND run_id = ${this.p(4)}`,
      [locationId, stream, recordKey, runId],
    );
    return row !== undefined;
  }

  /** Of a report's orders that are not stored live, how many were set aside as rejected. */
  rejectedReportOrders(reportId: string): Promise<number> {
    return this.count(
      `SELECT COUNT(*) AS n FROM report_order_rows ro JOIN reports r ON r.key = ro.report_key
       WHERE r.id = ${this.p(1)}
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
         AND EXISTS (
           SELECT 1 FROM rejected_records rr
           WHERE rr.location_id = r.location_id AND rr.stream = 'orders' AND rr.record_id = ro.order_id
         )`,
      [reportId],
    );
  }

  /** Rows of a table, all locations. */
  tableRowCount(table: string): Promise<number> {
    return this.count(`SELECT COUNT(*) AS n FROM "${table}"`);
  }

  /** Windows of a stream read completely, all locations. */
  completeWindowCount(stream: Stream): Promise<number> {
    return this.count(
      `SELECT COUNT(*) AS n FROM sync_windows WHERE stream = ${this.p(1)} AND status = 'complete'`,
      [stream],
    );
  }

  /** Per location, the days a stream's windows cover. */
  daysCovered(stream: Stream): Promise<DaysCovered[]> {
    return this.all(
      `SELECT l.id AS "locationId", COALESCE(l.name, l.id) AS name,
              MIN(w.day) AS "firstDay", MAX(w.day) AS "lastDay",
              COUNT(w.day) FILTER (WHERE w.status = 'complete') AS complete,
              COUNT(w.day) FILTER (WHERE w.status = 'open') AS open,
              COUNT(w.day) AS days
       FROM locations l
       LEFT JOIN sync_windows w ON w.location_id = l.id AND w.stream = ${this.p(1)}
       GROUP BY l.id, l.name ORDER BY name`,
      [stream],
    );
  }

  /** Reports in v_report_reconciliation, and those that add up. */
  async reconciliationTally(): Promise<{ reports: number; ok: number }> {
    const row = await this.one<{ reports: number; ok: number }>(
      "SELECT COUNT(*) AS reports, COUNT(*) FILTER (WHERE status = 'ok') AS ok FROM v_report_reconciliation",
    );
    return row ?? { reports: 0, ok: 0 };
  }

  /** The order changes pos-sync saw (v_order_changes), oldest first, each with the items of the
   * version that replaced it: a later history row's content, or the current order's items. */
  async orderChanges(filter: OrderChangeFilter): Promise<OrderChangeRow[]> {
    const ofLocation = filter.locationId === undefined ? "" : ` AND c.location_id = ${this.p(2)}`;
    const rows = await this.all<OrderChangeQueryRow>(
      `SELECT c.order_id AS "orderId", c.location_id AS "locationId",
         c.location_name AS "locationName", c.business_date AS "businessDate",
         c.order_number AS "orderNumber", c.from_version AS "fromVersion", c.change,
         c.changed_at AS "changedAt", c.changed_by AS "changedBy", c.seen_at AS "seenAt",
         c.closed_at AS "closedAt", c.previous_total AS "previousTotal", c.new_total AS "newTotal",
         c.previous_paid AS "previousPaid", c.was_canceled AS "wasCanceled",
         c.is_canceled AS "isCanceled", c.changed_fields AS "changedFields", h.content,
         n.content AS "nextContent", (c.change = 'changed' AND n.order_id IS NULL) AS "nextIsCurrent"
       FROM v_order_changes c
       JOIN order_versions h ON h.order_id = c.order_id AND h.version = c.from_version
       LEFT JOIN order_versions n ON n.order_id = c.order_id AND n.version = c.from_version + 1
       WHERE c.seen_at >= ${this.p(1)}${ofLocation}
       ORDER BY c.seen_at, c.location_id, c.order_number, c.from_version`,
      filter.locationId === undefined ? [filter.seenSince] : [filter.seenSince, filter.locationId],
    );
    const ids = [...new Set(rows.filter((r) => r.nextIsCurrent).map((r) => r.orderId))];
    const current = new Map<string, StoredItem[]>();
    const items =
      ids.length === 0
        ? []
        : await this.all<ItemOfOrder>(
            `SELECT order_id, position, item_catalog_id, description, total, is_canceled
             FROM order_items WHERE ${this.sql.dialect.inList("order_id", 1)}
             ORDER BY order_id, position`,
            [ids],
          );
    for (const item of items) {
      const ofOrder = current.get(item.order_id);
      if (ofOrder) ofOrder.push(item);
      else current.set(item.order_id, [item]);
    }
    return rows.map(({ nextContent, nextIsCurrent, ...row }) => {
      if (row.change === "vanished") return { ...row, nextItems: null };
      if (nextIsCurrent) return { ...row, nextItems: current.get(row.orderId) ?? [] };
      const document = (
        typeof nextContent === "string" ? JSON.parse(nextContent) : nextContent
      ) as { order_items?: StoredItem[] } | null;
      return { ...row, nextItems: document?.order_items ?? [] };
    });
  }

  /** An analyst's SQL, as the demo shows it: columns named as the query names them. */
  runQuery(sql: string): Promise<QueryResult> {
    return this.sql.table(sql);
  }

  /** Who syncs which location, where several workers share the destination (PostgreSQL). */
  locationTurns?(): Promise<LocationTurn[]>;
}

/** A reader of a SQLite connection; closing it closes the connection unless it is lent. */
export function sqliteReader(db: Db, options: { lent?: boolean } = {}): SqlReader {
  return new SqlReader(sqliteSession(db.sqlite), db.path, async () => {
    if (!options.lent) db.close();
  });
}
