/**
 * The SQLite destination: the storage port (destination.ts) over one database file. Writes go
 * through the Store (statements prepared once), the run log and checkpoints through Checkpoints,
 * reads through the query modules. SQLite answers synchronously; the promises only keep the
 * port's shape.
 */
import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import type { RunTrigger } from "../vocabulary.js";
import { Checkpoints, type WindowRecord } from "./checkpoints.js";
import type { Destination, RunEnd } from "./destination.js";
import { databaseError, isStorageFailure } from "./errors.js";
import { GroupCommit } from "./group-commit.js";
import type { PageHeader } from "./normalize/page.js";
import { type Db, openDatabase } from "./open.js";
import type { ArchiveTerms } from "./raw/archive.js";
import { SqlReader, START_DATE_STATE, UTC_OFFSET_STATE } from "./reader.js";
import { sqliteSession } from "./sql.js";
import { type ListContext, type ListedDevices, Store } from "./store.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "./stream-tables.js";
import type { IncomingRecord } from "./writers/replace.js";

export interface SqliteDestinationOptions {
  /** Keep every record's JSON as received (raw/archive.ts). */
  keepRaw: boolean;
  /** Keep the versions of changed and vanished orders (order_versions); default true. */
  keepHistory?: boolean;
  /** Lend the archive's dictionaries, so that the sync compresses records' JSON before it hands
   * them over (sync/compress-ahead.ts): for a sync on another thread, which then spares this
   * one the work. Otherwise the JSON comes as text and only new and changed records' is
   * compressed, here. */
  compressAhead?: boolean;
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

/** Writes, and reads as every destination reads (SqlReader) through the same connection. */
export class SqliteDestination extends SqlReader implements Destination {
  private writes: Store | undefined;
  private readonly checkpoints: Checkpoints;
  private readonly group: GroupCommit;
  /** The error with which SQLite rolled back a group of this run's writes, if it did. */
  private groupLoss: unknown;

  constructor(
    readonly db: Db,
    private readonly options: SqliteDestinationOptions = { keepRaw: true, keepHistory: true },
  ) {
    super(sqliteSession(db.sqlite), db.path);
    this.checkpoints = new Checkpoints(db.sqlite);
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
      throw this.failed(error);
    }
  }

  protected override failed(error: unknown): unknown {
    if (isStorageFailure(error) || error === this.groupLoss)
      return databaseError(error, this.location, "write to the database");
    return error;
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

  override async close(): Promise<void> {
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
  /** Records a window, and sums the days and reports its pages changed (rollups.ts). After a
   * group of the run was rolled back, a window is recorded failed whatever it proved. */
  recordWindow(window: WindowRecord, now: string) {
    return this.write(() => {
      this.store.settleSummaries(window.locationId);
      const proven = this.groupLoss === undefined;
      this.checkpoints.recordWindow(proven ? window : unproven(window), now);
    });
  }
  saveStartDate(locationId: string, day: string, now: string) {
    return this.write(() => this.checkpoints.saveState(locationId, START_DATE_STATE, day, now));
  }
  saveUtcOffsetMinutes(locationId: string, minutes: number, now: string) {
    return this.write(() =>
      this.checkpoints.saveState(locationId, UTC_OFFSET_STATE, String(minutes), now),
    );
  }

  // Records.

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
  archiveTerms(stream: DayStreamTables): Promise<ArchiveTerms> {
    if (!this.options.compressAhead)
      return Promise.resolve(
        this.options.keepRaw ? { keep: true, dictionary: null } : { keep: false },
      );
    return this.step(() => this.store.archiveTerms(stream));
  }
  countStored(stream: DayStreamTables, ids: readonly string[]) {
    return this.step(() => this.store.countStored(stream, ids));
  }
  forgetFixedRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ) {
    return this.write(() => this.store.forgetFixedRejects(stream, locationId, day, rejects));
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
}
