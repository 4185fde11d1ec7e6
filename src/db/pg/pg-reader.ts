/**
 * What status, verify and the daemon's metrics read from a PostgreSQL destination, as
 * read-queries.ts reads SQLite: the same answers, in PostgreSQL's SQL. Opened for reading only:
 * a schema that is missing or older than this version is refused rather than half read.
 */
import { describePostgresUrl, type PostgresTarget } from "../../config.js";
import { ConfigError } from "../../errors.js";
import type { Stream } from "../../vocabulary.js";
import type { LocationTurn, ReadableDestination } from "../destination.js";
import type {
  DailySalesRow,
  DaysCovered,
  KnownLocation,
  LatestWindow,
  OrderChangeFilter,
  OrderChangeQueryRow,
  OrderChangeRow,
  QueryResult,
  ReconciliationRow,
  RejectedOnDay,
  ReportStateRow,
  RowCounts,
  RunLocationOutcome,
  RunRow,
  StoredCounts,
  WindowRow,
} from "../read-queries.js";
import {
  LAST_ENDED_RUN_STATS_SQL,
  orderChangesSql,
  runLocationOutcomes,
  withNextItems,
} from "../read-queries.js";
import {
  dailySalesSql,
  LAST_SUCCESS_SQL,
  POSTGRES_DIALECT,
  recentRunsSql,
  rejectedByDaySql,
  reportStatesSql,
} from "../status-page-queries.js";
import type { DayStreamTables, SnapshotListTables } from "../stream-tables.js";
import { tableName } from "../writers/statements.js";
import * as checkpoints from "./checkpoints.js";
import { connect, openPool, type PgClient, type PgPool } from "./connect.js";
import { postgresError } from "./errors.js";
import * as queries from "./location-queries.js";
import { pendingMigrations } from "./migrate.js";

const SALE = "NOT o.is_canceled AND NOT o.is_training AND NOT o.is_transferred";

/** Rejects counted once per record, leaving out those whose record is stored live now ($1
 * location, $2 stream, then the caller's). */
function distinctRejectsSql(stream: DayStreamTables, where: string): string {
  return `SELECT COUNT(DISTINCT COALESCE(rr.record_id, rr.record_key)) AS n FROM rejected_records rr
    WHERE rr.location_id = $1 AND rr.stream = $2 AND ${where}
      AND NOT EXISTS (
        SELECT 1 FROM "${tableName(stream.table)}" t
        WHERE t.id = rr.record_id AND t.location_id = rr.location_id AND t.deleted_at IS NULL
      )`;
}

export class PgReader implements ReadableDestination {
  readonly location: string;

  private constructor(
    private readonly target: PostgresTarget,
    private readonly pool: PgPool,
  ) {
    this.location = `${describePostgresUrl(target.url)} (schema ${target.schema})`;
  }

  /** Connects to a schema this version's migrations made; never creates nor migrates it. */
  static async open(target: PostgresTarget): Promise<PgReader> {
    const pool = openPool(target, 2);
    try {
      const client = await connect(pool, target);
      try {
        const pending = await pendingMigrations(client).catch((error: unknown) => {
          throw postgresError(error, target, "read");
        });
        const where = `the schema ${target.schema} of ${describePostgresUrl(target.url)}`;
        if (pending === undefined) {
          throw new ConfigError(
            `no pos-sync database in ${where}: check POS_DB_URL and POS_DB_SCHEMA, or create one with pos-sync migrate`,
          );
        }
        if (pending > 0) {
          throw new ConfigError(
            `${where} lacks ${pending} schema migration(s) of this pos-sync version: run pos-sync migrate first`,
          );
        }
      } finally {
        client.release();
      }
      return new PgReader(target, pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async read<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    const client = await connect(this.pool, this.target);
    try {
      return await work(client);
    } catch (error) {
      throw postgresError(error, this.target, "read");
    } finally {
      client.release();
    }
  }

  private async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.read(async (client) => (await client.query(sql, params)).rows as T[]);
  }

  private async one<T>(sql: string, params: unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  utcOffsetMinutes(locationId: string, at: Date) {
    return this.read((client) => queries.locationOffsetMinutes(client, locationId, at));
  }
  firstRecordedDay(locationId: string) {
    return this.read((client) => checkpoints.firstRecordedDay(client, locationId));
  }
  storedLocationOfKey(fingerprint: string) {
    return this.read((client) => queries.storedLocationOfKey(client, fingerprint));
  }

  async knownLocations(): Promise<KnownLocation[]> {
    return this.all<KnownLocation>(
      `SELECT id, name, true AS read, api_key_fingerprint AS key FROM locations
       UNION SELECT DISTINCT location_id, NULL, false, NULL FROM sync_windows
         WHERE location_id NOT IN (SELECT id FROM locations)
       ORDER BY name NULLS FIRST`,
    );
  }

  windowRows(locationId: string, stream: Stream): Promise<WindowRow[]> {
    return this.all(
      `SELECT day, status, last_error, synced_at, api_total_count, stored_count FROM sync_windows
       WHERE location_id = $1 AND stream = $2 ORDER BY day`,
      [locationId, stream],
    );
  }

  latestWindow(locationId: string, stream: Stream): Promise<LatestWindow | undefined> {
    return this.one(
      `SELECT status, last_error, synced_at FROM sync_windows
       WHERE location_id = $1 AND stream = $2 ORDER BY day DESC LIMIT 1`,
      [locationId, stream],
    );
  }

  async lastRun(): Promise<RunRow | undefined> {
    return (await this.recentRuns(1))[0];
  }

  recentRuns(limit: number): Promise<RunRow[]> {
    return this.all(recentRunsSql(POSTGRES_DIALECT), [limit]);
  }

  async lastSuccessAt(): Promise<string | null> {
    return (await this.one<{ at: string | null }>(LAST_SUCCESS_SQL))?.at ?? null;
  }

  async lastRunLocations(): Promise<RunLocationOutcome[]> {
    const run = await this.one<{ id: number; stats: unknown }>(LAST_ENDED_RUN_STATS_SQL);
    return run ? runLocationOutcomes(run) : [];
  }

  rejectedByDay(stream: DayStreamTables, locationId: string): Promise<RejectedOnDay[]> {
    return this.all(rejectedByDaySql(POSTGRES_DIALECT, stream), [locationId, stream.name]);
  }

  dailySales(locationId: string, since: string, until: string): Promise<DailySalesRow[]> {
    return this.all(dailySalesSql(POSTGRES_DIALECT), [locationId, since, until]);
  }

  reportStates(locationId: string, since: string, until: string): Promise<ReportStateRow[]> {
    return this.all(reportStatesSql(POSTGRES_DIALECT), [locationId, since, until]);
  }

  async rowCounts(owner: DayStreamTables | SnapshotListTables, locationId: string) {
    const table = tableName(owner.table);
    const counts = await this.one<RowCounts>(
      `SELECT COUNT(*) FILTER (WHERE deleted_at IS NULL) AS live,
              COUNT(*) FILTER (WHERE deleted_at IS NOT NULL) AS deleted
       FROM "${table}" WHERE location_id = $1`,
      [locationId],
    );
    return { table, counts: counts ?? { live: 0, deleted: 0 } };
  }

  async rejectedCount(stream: DayStreamTables, locationId: string): Promise<number> {
    const row = await this.one<{ n: number }>(distinctRejectsSql(stream, "true"), [
      locationId,
      stream.name,
    ]);
    return row?.n ?? 0;
  }

  async storedForDay(
    stream: DayStreamTables,
    locationId: string,
    day: string,
  ): Promise<StoredCounts> {
    const records = await this.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM "${tableName(stream.table)}"
       WHERE location_id = $1 AND business_date = $2 AND deleted_at IS NULL`,
      [locationId, day],
    );
    const rejected = await this.one<{ n: number }>(distinctRejectsSql(stream, "rr.day = $3"), [
      locationId,
      stream.name,
      day,
    ]);
    return { records: records?.n ?? 0, rejected: rejected?.n ?? 0 };
  }

  reconciliationProblems(
    locationId: string,
    since: string,
    until: string,
  ): Promise<ReconciliationRow[]> {
    // Computed from the order tables rather than read from v_report_reconciliation: a check
    // must not trust the summary it would check.
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
           (SELECT COUNT(*) FROM report_orders ro WHERE ro.report_id = r.id
              AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
           ) AS "ordersMissing"
         FROM reports r
         WHERE r.location_id = $1 AND r.business_date BETWEEN $2 AND $3 AND r.deleted_at IS NULL
       ) checked
       WHERE "ordersMissing" > 0 OR difference <> 0
       ORDER BY "businessDate"`,
      [locationId, since, until],
    );
  }

  async rejectedReportOrders(reportId: string): Promise<number> {
    const row = await this.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM report_orders ro JOIN reports r ON r.id = ro.report_id
       WHERE ro.report_id = $1
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
         AND EXISTS (
           SELECT 1 FROM rejected_records rr
           WHERE rr.location_id = r.location_id AND rr.stream = 'orders' AND rr.record_id = ro.order_id
         )`,
      [reportId],
    );
    return row?.n ?? 0;
  }

  async tableRowCount(table: string): Promise<number> {
    return (await this.one<{ n: number }>(`SELECT COUNT(*) AS n FROM "${table}"`))?.n ?? 0;
  }

  async completeWindowCount(stream: Stream): Promise<number> {
    const row = await this.one<{ n: number }>(
      "SELECT COUNT(*) AS n FROM sync_windows WHERE stream = $1 AND status = 'complete'",
      [stream],
    );
    return row?.n ?? 0;
  }

  daysCovered(stream: Stream): Promise<DaysCovered[]> {
    return this.all(
      `SELECT l.id AS "locationId", COALESCE(l.name, l.id) AS name,
              MIN(w.day) AS "firstDay", MAX(w.day) AS "lastDay",
              COUNT(w.day) FILTER (WHERE w.status = 'complete') AS complete,
              COUNT(w.day) FILTER (WHERE w.status = 'open') AS open,
              COUNT(w.day) AS days
       FROM locations l
       LEFT JOIN sync_windows w ON w.location_id = l.id AND w.stream = $1
       GROUP BY l.id, l.name ORDER BY name`,
      [stream],
    );
  }

  async reconciliationTally(): Promise<{ reports: number; ok: number }> {
    const row = await this.one<{ reports: number; ok: number }>(
      "SELECT COUNT(*) AS reports, COUNT(*) FILTER (WHERE status = 'ok') AS ok FROM v_report_reconciliation",
    );
    return row ?? { reports: 0, ok: 0 };
  }

  async orderChanges(filter: OrderChangeFilter): Promise<OrderChangeRow[]> {
    const location = filter.locationId === undefined ? null : "$2";
    const rows = await this.all<OrderChangeQueryRow>(
      orderChangesSql("$1", location),
      location === null ? [filter.seenSince] : [filter.seenSince, filter.locationId],
    );
    return withNextItems(rows, (orderIds) =>
      this.all(
        `SELECT order_id, position, item_catalog_id, description, total, is_canceled
         FROM order_items WHERE order_id = ANY($1::text[]) ORDER BY order_id, position`,
        [orderIds],
      ),
    );
  }

  runQuery(sql: string): Promise<QueryResult> {
    return this.read(async (client) => {
      const result = await client.query({ text: sql, rowMode: "array" });
      return { columns: result.fields.map((f) => f.name), rows: result.rows as unknown[][] };
    });
  }

  /** The archived JSON of a record (of one location, or of every location that has it). */
  async rawDocuments(table: string, id: string, locationId?: string): Promise<string[]> {
    const rows = await this.all<{ document: string }>(
      `SELECT document::text AS document FROM raw_records
       WHERE table_name = $1 AND id = $2 AND ($3::text IS NULL OR location_id = $3)
       ORDER BY location_id`,
      [table, id, locationId ?? null],
    );
    return rows.map((row) => row.document);
  }

  /** Per location, the worker syncing it now and the last turn that finished. */
  locationTurns(): Promise<LocationTurn[]> {
    return this.all(
      `SELECT key_fingerprint AS key,
              (array_agg(worker ORDER BY id DESC) FILTER (WHERE status = 'running'))[1] AS "heldBy",
              MAX(started_at) FILTER (WHERE status = 'running') AS "heldSince",
              (array_agg(worker ORDER BY id DESC) FILTER (WHERE status = 'done'))[1] AS "lastDoneBy",
              MAX(finished_at) FILTER (WHERE status = 'done') AS "lastDoneAt"
       FROM location_claims GROUP BY key_fingerprint ORDER BY key_fingerprint`,
    );
  }
}
