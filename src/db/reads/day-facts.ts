/** What the sync reads of the records stored, across streams: a key's location, a location's
 * clock, the records of a day as a proof compares them, the rejects set aside, and the orders
 * reports list that no window returned. */

import { LocalClock } from "../../clock/local-clock.js";
import { utcOffsetOf } from "../../clock/offsets.js";
import type { DayStreamTables } from "../normalize/stream-tables.js";
import type { Row } from "../schema/columns.js";
import { relationName } from "../schema/relations.js";
import { ReaderBase } from "./base.js";
import { comparableRows, type RecordRows } from "./comparable-rows.js";
import { storedRecordsOfDay } from "./day-rows.js";

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

export class DayFactReads extends ReaderBase {
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
    const learned = await this.state(locationId, "utc_offset_minutes");
    const offset = learned === undefined ? undefined : Number(learned);
    return () => offset;
  }

  /** The first day the location's API holds, as a run learned it from its reports. */
  startDate(locationId: string): Promise<string | undefined> {
    return this.state(locationId, "start_date");
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

  /**
   * Rejects counted once per record (a record set aside twice under two keys, by a window read
   * and by a read by id, is one record), leaving out those whose record is stored live now.
   * Parameters: location, stream, then the caller's; `by` groups them (a column of rr).
   */
  protected distinctRejectsSql(stream: DayStreamTables, where: string, by?: string): string {
    return `SELECT ${by ? `${by}, ` : ""}COUNT(DISTINCT COALESCE(rr.record_id, rr.record_key)) AS n
      FROM rejected_records rr
      WHERE rr.location_id = ${this.p(1)} AND rr.stream = ${this.p(2)} AND ${where}
        AND NOT EXISTS (
          SELECT 1 FROM "${relationName(stream.table)}" t
          WHERE t.id = rr.record_id AND t.location_id = rr.location_id AND t.deleted_at IS NULL
        )${by ? ` GROUP BY ${by}` : ""}`;
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
}
