/**
 * The SQLite destination: the storage port (destination.ts) over one database file. Writes go
 * through the Store (statements prepared once), the run log and checkpoints through Checkpoints,
 * reads through the query modules. SQLite answers synchronously; the promises only keep the
 * port's shape.
 */
import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import type { RunTrigger, Stream } from "../vocabulary.js";
import { Checkpoints, type WindowRecord } from "./checkpoints.js";
import type { Destination, RunEnd } from "./destination.js";
import { databaseError, isStorageFailure } from "./errors.js";
import { GroupCommit } from "./group-commit.js";
import type { PageHeader } from "./normalize/page.js";
import { type Db, openDatabase } from "./open.js";
import {
  locationOffsetMinutes,
  missingReportOrders,
  ordersListedByLiveReport,
  storedLocationOfKey,
  UTC_OFFSET_STATE,
} from "./queries.js";
import * as read from "./read-queries.js";
import { type ListContext, type ListedDevices, Store } from "./store.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "./stream-tables.js";
import type { IncomingRecord } from "./writers/replace.js";
import { tableName } from "./writers/statements.js";

export interface SqliteDestinationOptions {
  /** Keep every record's JSON as received (raw/archive.ts). */
  keepRaw: boolean;
  /** Keep the versions of changed and vanished orders (order_versions); default true. */
  keepHistory?: boolean;
}

/** How long the sync's writes share one transaction before they commit (group-commit.ts). */
export const GROUP_COMMIT_MS = 250;

/** Why a window that counted its rows is not recorded proven after a group was rolled back. */
export const ROLLED_BACK =
  "rows of this day may have been rolled back with writes the database could not commit; it is read again next run";

/** A window as recorded once a group of this run was lost: a count taken before the loss may
 * have seen rows that are gone, so nothing it proved is trusted. */
function unproven(window: WindowRecord): WindowRecord {
  if (window.status !== "complete" && window.status !== "open") return window;
  return { ...window, status: "failed", storedCount: null, lastError: ROLLED_BACK };
}

export class SqliteDestination implements Destination {
  readonly location: string;
  private writes: Store | undefined;
  private readonly checkpoints: Checkpoints;
  private readonly group: GroupCommit;
  /** The error with which SQLite rolled back a group of this run's writes, if it did. */
  private groupLoss: unknown;

  constructor(
    readonly db: Db,
    private readonly options: SqliteDestinationOptions = { keepRaw: true, keepHistory: true },
  ) {
    this.location = db.path;
    this.checkpoints = new Checkpoints(db);
    this.group = new GroupCommit(db.sqlite, GROUP_COMMIT_MS, (error) => {
      this.groupLoss = error;
      this.writes?.forgetUncommitted();
    });
  }

  /** Prepared on first write: status, verify and the daemon's metrics only read, and a
   * read-only connection has no use for the write statements. */
  private get store(): Store {
    this.writes ??= new Store(
      this.db,
      { keep: this.options.keepRaw },
      { keepHistory: this.options.keepHistory ?? true },
    );
    return this.writes;
  }

  /** Opens (creating and migrating when needed) the database file for writing. */
  static open(path: string, options?: SqliteDestinationOptions): SqliteDestination {
    return new SqliteDestination(openDatabase(path), options);
  }

  /** Runs one step of the sync; a failure of the file itself, or whatever made SQLite roll back
   * a group (other windows' writes went with it), becomes a DatabaseError: the run stops. */
  private async step<T>(work: () => T): Promise<T> {
    try {
      return work();
    } catch (error) {
      if (isStorageFailure(error) || error === this.groupLoss)
        throw databaseError(error, this.location, "write to the database");
      throw error;
    }
  }

  /** Runs a write of the sync inside the group of writes that commit together. */
  private write<T>(work: () => T): Promise<T> {
    return this.step(() => this.group.write(work));
  }

  /** Commits the writes in hand (finishRun and close do; so does a command that lent its
   * connection to a run, when the run ends; benchmarks time it). */
  commit(): Promise<void> {
    return this.step(() => this.group.flush());
  }

  async close(): Promise<void> {
    try {
      await this.commit();
    } finally {
      this.db.close();
    }
  }

  // The run log and checkpoints.

  closeAbandonedRuns(now: string) {
    return this.write(() => this.checkpoints.closeAbandonedRuns(now));
  }
  /** Records the start of a run, committed at once: a run killed before its first commit of
   * data still shows in the run log (as interrupted, once the next run finds it). */
  async startRun(trigger: RunTrigger, startedAt: string) {
    this.groupLoss = undefined;
    const runId = await this.write(() => this.checkpoints.startRun(trigger, startedAt));
    await this.commit();
    return runId;
  }
  /** Records the end of a run, and commits everything the run wrote. */
  async finishRun(runId: number, end: RunEnd) {
    await this.write(() => {
      // Whatever a window left marked (a window that failed midway) is summed before the end.
      this.store.settleSummaries();
      this.checkpoints.finishRun(runId, end);
    });
    await this.commit();
  }
  windows(locationId: string, stream: Stream) {
    return this.step(() => this.checkpoints.windows(locationId, stream));
  }
  /** Records a window, and sums the days and reports its pages changed (rollups.ts). After a
   * group of the run was rolled back, a window is recorded failed whatever it proved. */
  recordWindow(window: WindowRecord, now: string) {
    return this.write(() => {
      this.store.settleSummaries(window.locationId);
      const proven = this.groupLoss === undefined;
      this.checkpoints.record(proven ? window : unproven(window), now);
    });
  }
  startDate(locationId: string) {
    return this.step(() => this.checkpoints.startDate(locationId));
  }
  saveStartDate(locationId: string, day: string, now: string) {
    return this.write(() => this.checkpoints.saveStartDate(locationId, day, now));
  }
  utcOffsetMinutes(locationId: string, at: Date) {
    return this.step(() => locationOffsetMinutes(this.db, locationId, at));
  }
  saveUtcOffsetMinutes(locationId: string, minutes: number, now: string) {
    return this.write(() =>
      this.checkpoints.saveState(locationId, UTC_OFFSET_STATE, String(minutes), now),
    );
  }
  firstRecordedDay(locationId: string) {
    return this.step(() => this.checkpoints.firstRecordedDay(locationId));
  }

  // Records.

  storedLocationOfKey(fingerprint: string) {
    return this.step(() => storedLocationOfKey(this.db, fingerprint));
  }
  isLocationStored(locationId: string) {
    return this.step(() => this.store.isLocationStored(locationId));
  }
  writeLocation(
    location: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices?: ListedDevices,
  ) {
    return this.write(() => this.store.writeLocation(location, context, devices));
  }
  useTimeZone(locationId: string, timeZone: string | null) {
    return this.write(() => this.store.useTimeZone(locationId, timeZone));
  }
  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ) {
    return this.write(() => this.store.recordLocationReject(reject, context));
  }
  writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ) {
    return this.write(() => this.store.writeList(list, validated, context));
  }
  writePage(stream: DayStreamTables, page: PageHeader, records: readonly IncomingRecord[]) {
    return this.write(() => this.store.writePage(stream, page, records));
  }
  timeZoneOf(locationId: string) {
    return this.step(() => this.store.clockOf(locationId).timeZone);
  }
  archiveTerms(stream: DayStreamTables) {
    return this.step(() => this.store.archiveTerms(stream));
  }
  countStored(stream: DayStreamTables, ids: readonly string[]) {
    return this.step(() => this.store.countStored(stream, ids));
  }
  settleWindowRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ) {
    return this.write(() => this.store.settleWindowRejects(stream, locationId, day, rejects));
  }
  unlistedRecords(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ) {
    return this.step(() => this.store.unlistedRecords(stream, locationId, day, listedIds));
  }
  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string) {
    return this.write(() => this.store.markDeleted(stream, ids, at));
  }
  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ) {
    return this.write(() => this.store.recordRejects(stream, rejects, context));
  }
  missingReportOrders(locationId: string, limit: number) {
    return this.step(() => missingReportOrders(this.db, locationId, limit));
  }
  ordersListedByLiveReport(locationId: string, orderIds: readonly string[]) {
    return this.step(() => ordersListedByLiveReport(this.db, locationId, orderIds));
  }

  // What status, verify and the demo read: failures come as SQLite raised them.

  async knownLocations() {
    return read.knownLocations(this.db);
  }
  async windowRows(locationId: string, stream: Stream) {
    return read.windowRows(this.db, locationId, stream);
  }
  async latestWindow(locationId: string, stream: Stream) {
    return read.latestWindow(this.db, locationId, stream);
  }
  async lastRun() {
    return read.lastRunRow(this.db);
  }
  async recentRuns(limit: number) {
    return read.recentRuns(this.db, limit);
  }
  async lastSuccessAt() {
    return read.lastSuccessAt(this.db);
  }
  async lastRunLocations() {
    return read.lastRunLocations(this.db);
  }
  async rejectedByDay(stream: DayStreamTables, locationId: string) {
    return read.rejectedByDay(this.db, stream, locationId);
  }
  async dailySales(locationId: string, since: string, until: string) {
    return read.dailySales(this.db, locationId, since, until);
  }
  async reportStates(locationId: string, since: string, until: string) {
    return read.reportStates(this.db, locationId, since, until);
  }
  async rowCounts(owner: DayStreamTables | SnapshotListTables, locationId: string) {
    const table = tableName(owner.table);
    return { table, counts: read.countRows(this.db, table, locationId) };
  }
  async rejectedCount(stream: DayStreamTables, locationId: string) {
    return read.countRejected(this.db, stream, locationId);
  }
  async storedForDay(stream: DayStreamTables, locationId: string, day: string) {
    return read.storedForDay(this.db, stream, locationId, day);
  }
  async reconciliationProblems(locationId: string, since: string, until: string) {
    return read.reconciliationProblems(this.db, locationId, since, until);
  }
  async rejectedReportOrders(reportId: string) {
    return read.rejectedReportOrders(this.db, reportId);
  }
  async tableRowCount(table: string) {
    return read.tableRowCount(this.db, table);
  }
  async completeWindowCount(stream: Stream) {
    return read.completeWindowCount(this.db, stream);
  }
  async daysCovered(stream: Stream) {
    return read.daysCovered(this.db, stream);
  }
  async reconciliationTally() {
    return read.reconciliationTally(this.db);
  }
  async orderChanges(filter: read.OrderChangeFilter) {
    return read.orderChanges(this.db, filter);
  }
  async runQuery(sql: string) {
    return read.runQuery(this.db, sql);
  }
}
