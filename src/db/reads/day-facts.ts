/** The facts of stored days that the sync and verify compare with the API: the records of a day
 * as a count or a proof compares them, the rejects set aside, the orders reports list that no
 * window returned, and the reports that do not agree with their orders. */

import type { DayStreamTables } from "../normalize/stream-tables.js";
import type { Row } from "../schema/columns.js";
import { relationName } from "../schema/relations.js";
import { SALE } from "../sql/rollups.js";
import { comparableRows, type RecordRows } from "./comparable-rows.js";
import { storedRecordsOfDay } from "./day-rows.js";
import type { LocationReads } from "./locations.js";
import { distinctRejectsSql } from "./rejects-sql.js";
import type { ReadSession } from "./session.js";

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

/** A report that does not agree with its stored orders. */
export interface ReconciliationRow {
  reportId: string;
  reportNumber: number;
  businessDate: string;
  difference: number;
  ordersMissing: number;
  status: string;
}

export class DayFactReads {
  constructor(
    private readonly db: ReadSession,
    private readonly locations: Pick<LocationReads, "utcOffsetMinutes">,
  ) {}

  /** How many of these records of a day stream are stored now, live or not. */
  async countStored(stream: DayStreamTables, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.count(
      `SELECT COUNT(*) AS n FROM ${relationName(stream.table)} WHERE ${this.db.dialect.inList("id", 1)}`,
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
    const rows = await this.db.all<{ id: string; listed: unknown }>(
      `SELECT id, ${this.db.dialect.inList("id", 3)} AS listed FROM ${relationName(stream.table)}
       WHERE location_id = ${this.db.p(1)} AND business_date = ${this.db.p(2)} AND deleted_at IS NULL`,
      [locationId, day, [...listedIds]],
    );
    return { live: rows.length, unlisted: rows.filter((r) => !r.listed).map((r) => r.id) };
  }

  /** Records stored live for one day of a stream (not those marked deleted), and the distinct
   * records set aside for it. */
  async storedForDay(
    stream: DayStreamTables,
    locationId: string,
    day: string,
  ): Promise<StoredCounts> {
    const records = await this.db.count(
      `SELECT COUNT(*) AS n FROM "${relationName(stream.table)}"
       WHERE location_id = ${this.db.p(1)} AND business_date = ${this.db.p(2)} AND deleted_at IS NULL`,
      [locationId, day],
    );
    const rejected = await this.db.count(
      distinctRejectsSql(this.db.dialect, stream, `rr.day = ${this.db.p(3)}`),
      [locationId, stream.name, day],
    );
    return { records, rejected };
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
    const query = (sql: string, params: readonly unknown[]) => this.db.all<Row>(sql, params);
    const { dialect } = this.db;
    const stored = await storedRecordsOfDay(query, dialect, stream, locationId, day);
    return [...stored].map(([id, { contentHash, rows }]) => {
      const own = listed.get(id);
      const rowsDiffer =
        own !== undefined && rows !== comparableRows(stream, own, dialect.dateTimes);
      return { id, contentHash, rowsDiffer };
    });
  }

  /** Whether a run set this record aside already (by its reject key: rejectKey). */
  async rejectedInRun(
    locationId: string,
    stream: string,
    recordKey: string,
    runId: number,
  ): Promise<boolean> {
    const row = await this.db.one(
      `SELECT 1 AS found FROM rejected_records WHERE location_id = ${this.db.p(1)}
         AND stream = ${this.db.p(2)} AND record_key = ${this.db.p(3)} AND run_id = ${this.db.p(4)}`,
      [locationId, stream, recordKey, runId],
    );
    return row !== undefined;
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
    const { dialect } = this.db;
    const windowComplete = (column: string) => `EXISTS (
      SELECT 1 FROM sync_windows w
      WHERE w.location_id = r.location_id AND w.stream = 'orders' AND w.status = 'complete'
        AND w.day = ${dialect.sentDay(`r.${column}`, 3)})`;
    const offset = (await this.locations.utcOffsetMinutes(locationId, new Date())) ?? 0;
    const rows = await this.db.all<{ order_id: string }>(
      `SELECT DISTINCT ro.order_id FROM report_order_rows ro JOIN reports r ON r.key = ro.report_key
       WHERE r.location_id = ${this.db.p(1)}
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
       LIMIT ${this.db.p(2)}`,
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
    const rows = await this.db.all<{ order_id: string }>(
      `SELECT DISTINCT ro.order_id FROM report_order_rows ro JOIN reports r ON r.key = ro.report_key
       WHERE r.location_id = ${this.db.p(1)} AND r.deleted_at IS NULL
         AND ${this.db.dialect.inList("ro.order_id", 2)}`,
      [locationId, orderIds],
    );
    return rows.map((row) => row.order_id);
  }

  /** Of a report's orders that are not stored live, how many were set aside as rejected. */
  rejectedReportOrders(reportId: string): Promise<number> {
    return this.db.count(
      `SELECT COUNT(*) AS n FROM report_order_rows ro JOIN reports r ON r.key = ro.report_key
       WHERE r.id = ${this.db.p(1)}
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
         AND EXISTS (
           SELECT 1 FROM rejected_records rr
           WHERE rr.location_id = r.location_id AND rr.stream = 'orders' AND rr.record_id = ro.order_id
         )`,
      [reportId],
    );
  }

  /** The reports of a location's days, both included, whose totals or orders do not agree with
   * the orders stored. */
  reconciliationProblems(
    locationId: string,
    since: string,
    until: string,
  ): Promise<ReconciliationRow[]> {
    // Computed from the order tables rather than read from v_report_reconciliation: a check must
    // not trust the summary it would check (report_order_sums only follows pos-sync's own writes).
    return this.db.all(
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
         WHERE r.location_id = ${this.db.p(1)} AND r.business_date BETWEEN ${this.db.p(2)} AND ${this.db.p(3)}
           AND r.deleted_at IS NULL
       ) checked
       WHERE "ordersMissing" > 0 OR difference <> 0
       ORDER BY "businessDate"`,
      [locationId, since, until],
    );
  }
}
