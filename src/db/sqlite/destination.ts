/**
 * The SQLite destination: the storage port (destination.ts) over one database file. The sync's
 * writes of records are written once for both databases (sync-writes.ts) and run here on a store
 * of statements prepared once per stream or list (day-writer.ts, snapshot-writer.ts), each write
 * part of the group of writes that commit together, all or none (group-commit.ts). Records' JSON
 * is archived apart (raw-archive.ts); the days and reports a write changed are marked, and summed
 * when their window is recorded (rollups.ts). Reads are the stores of reads (../reads/), on the
 * same connection. SQLite answers synchronously; the promises only keep the port's shape.
 */
import type { DayStream, RunTrigger } from "../../vocabulary.js";
import type { Destination, KeptBesideRows, RunEnd } from "../destination.js";
import {
  type DayStreamTables,
  PerStream,
  type SnapshotListTables,
} from "../normalize/stream-tables.js";
import type { ArchiveTerms } from "../raw/terms.js";
import { composeReader, type Reader } from "../reads/reader.js";
import { ReadSession } from "../reads/session.js";
import type { Row } from "../schema/columns.js";
import { locations, relationName } from "../schema/index.js";
import type { RepairRecord } from "../sql/checkpoints.js";
import { SQLITE_DIALECT } from "../sql/dialect.js";
import { storedLocationSql } from "../sql/locations.js";
import { tableName } from "../sql/table.js";
import { SqlDestination } from "../sql-destination.js";
import { runNow, type Steps, type StoredLocation, type WriteStore } from "../write-store.js";
import { ApiIds } from "./api-ids.js";
import { Checkpoints, type WindowRecord } from "./checkpoints.js";
import { ReplacingWriter } from "./day-writer.js";
import { databaseError, isStorageFailure } from "./errors.js";
import { GroupCommit } from "./group-commit.js";
import { VersionHistory } from "./history.js";
import { LocationClocks } from "./location-clocks.js";
import { type Db, openDatabase } from "./open.js";
import { RawArchive } from "./raw-archive.js";
import { sqliteSession } from "./reader.js";
import { RejectWriter } from "./rejects.js";
import { Rollups } from "./rollups.js";
import { upsertSql } from "./rows.js";
import { SnapshotWriter } from "./snapshot-writer.js";

export interface SqliteDestinationOptions extends KeptBesideRows {
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

/** What the writes use: statements prepared once, and what the file's rows say kept in memory
 * (the archive's dictionaries, the locations' clocks). */
function prepareWriters({ sqlite }: Db, options: SqliteDestinationOptions) {
  const archive = new RawArchive(sqlite, { keep: options.keepRaw });
  const rollups = new Rollups(sqlite);
  const clocks = new LocationClocks(sqlite, rollups);
  const apiIds = new ApiIds(sqlite);
  const keepHistory = options.keepHistory ?? true;
  const lists = new PerStream<SnapshotListTables, SnapshotWriter>(
    (list) => new SnapshotWriter(sqlite, list.table, list.childTables, archive),
  );
  return {
    archive,
    rollups,
    clocks,
    lists,
    checkpoints: new Checkpoints(sqlite),
    rejects: new RejectWriter(sqlite),
    days: new PerStream<DayStreamTables, ReplacingWriter>(
      (stream) =>
        new ReplacingWriter(
          sqlite,
          stream.table,
          stream.childTables,
          archive,
          apiIds,
          keepHistory && stream.history
            ? new VersionHistory(sqlite, stream.table, stream.childTables, stream.history)
            : undefined,
        ),
    ),
    /** Forgets what it remembers of writes that were rolled back: the archive's dictionaries,
     * the locations' clocks and the keys of the ids in api_ids are read again from the file. */
    forgetUncommitted(): void {
      archive.forgetDictionaries();
      clocks.forgetAll();
      apiIds.forget();
    },
  };
}

/** The store the sync's writes run on (write-store.ts): each answer at once. */
function prepareStore(sqlite: Db["sqlite"], w: Omit<Writers, "store">): WriteStore {
  // The time zone is a setting, applied by useTimeZone alone.
  const upsertLocation = sqlite.prepare<[Row]>(upsertSql(locations, ["id"], ["time_zone"]));
  const storedLocation = sqlite.prepare<[Record<number, string>], StoredLocation>(
    storedLocationSql(SQLITE_DIALECT),
  );
  return {
    writeRecords: (stream, records, syncedAt, repair) =>
      w.days.of(stream).write(records, syncedAt, repair),
    markVanished: (stream, ids, at) => w.days.of(stream).markDeleted(ids, at),
    writeSnapshot: (list, snapshot) => w.lists.of(list).write(snapshot),
    markDays: (days) => w.rollups.markDays(days),
    markReports: (locationId, reportIds) => w.rollups.markReports(locationId, reportIds),
    recordRejects: (rejects, context) => w.rejects.record(rejects, context),
    resolveStoredRejects: (locationId, stream, ids) =>
      w.rejects.resolveStored(locationId, stream, ids),
    keepOnlyRejects: (locationId, stream, day, keys) =>
      w.rejects.keepOnly(locationId, stream, day, keys),
    // Its SQL numbers its parameter (?1), as both databases' text does: bound by number.
    storedLocation: (id) => storedLocation.get({ 1: id }),
    putLocation(row, raw) {
      upsertLocation.run(row);
      const { id, synced_at: syncedAt } = row;
      w.archive.put({ tableName: tableName(locations), locationId: id, id, raw, syncedAt });
    },
    // One writer holds the file: no turns to note.
    noteKeyLocation: () => {},
    saveState: (locationId, name, value, now) =>
      w.checkpoints.saveState(locationId, name, value, now),
  };
}

type Writers = ReturnType<typeof prepareWriters> & { store: WriteStore };

/** Writes, and reads through the stores of reads (`reads`) on the same connection. */
export class SqliteDestination extends SqlDestination implements Destination {
  readonly reads: Reader;
  private prepared: Writers | undefined;
  private readonly group: GroupCommit;
  /** The error that lost a group of this run's writes (group-commit.ts), if one did. */
  private groupLoss: unknown;

  constructor(
    readonly db: Db,
    private readonly options: SqliteDestinationOptions = { keepRaw: true, keepHistory: true },
  ) {
    super();
    // A failed read is told as a failed write is; the time zones come from the clocks the writes
    // keep (location-clocks.ts).
    this.reads = composeReader(
      new ReadSession(sqliteSession(db.sqlite), db.path, (error) => this.failed(error)),
      { timeZoneOf: (locationId) => this.step((w) => w.clocks.clockOf(locationId).timeZone) },
    );
    this.group = new GroupCommit(db.sqlite, GROUP_COMMIT_MS, (error) => {
      this.groupLoss = error;
      this.prepared?.forgetUncommitted();
    });
  }

  /** Prepared on first write: status, verify and the daemon's metrics only read, and a
   * read-only connection has no use for the write statements. */
  private get writers(): Writers {
    if (!this.prepared) {
      const writers = prepareWriters(this.db, this.options);
      this.prepared = { ...writers, store: prepareStore(this.db.sqlite, writers) };
    }
    return this.prepared;
  }

  /** Opens (creating and migrating when needed) the database file for writing. */
  static open(path: string, options?: SqliteDestinationOptions): SqliteDestination {
    return new SqliteDestination(openDatabase(path), options);
  }

  /** Runs one step of the sync; a failure of the file itself, or whatever lost a group of
   * writes (other windows' writes went with it), becomes a DatabaseError: the run stops. */
  private async step<T>(work: (writers: Writers) => T): Promise<T> {
    try {
      return work(this.writers);
    } catch (error) {
      throw this.failed(error);
    }
  }

  private failed(error: unknown): unknown {
    if (isStorageFailure(error) || error === this.groupLoss)
      return databaseError(error, this.where, "write to the database");
    return error;
  }

  /** Runs a write of the sync inside the group of writes that commit together. Should it fail,
   * the group is rolled back (onLost) and the run stops. */
  private write<T>(work: (writers: Writers) => T): Promise<T> {
    return this.step((writers) => this.group.write(() => work(writers)));
  }

  protected perform<T>(steps: Steps<T>): Promise<T> {
    return this.write((w) => runNow(steps, w.store));
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
    return this.write((w) => w.checkpoints.closeAbandonedRuns(now));
  }
  /** Records this process's unfinished runs as failed, with what ended their thread, and
   * commits. */
  async failUnfinishedRuns(error: string, now: string) {
    await this.write((w) => w.checkpoints.failUnfinishedRuns(error, now));
    await this.commit();
  }
  /** Records the start of a run, committed at once: a run killed before its first commit of
   * data still shows in the run log (as interrupted, once the next run finds it). */
  async startRun(trigger: RunTrigger, startedAt: string) {
    this.groupLoss = undefined;
    const runId = await this.write((w) => w.checkpoints.startRun(trigger, startedAt));
    await this.commit();
    return runId;
  }
  /** Records the end of a run, and commits everything the run wrote. */
  async finishRun(runId: number, end: RunEnd) {
    await this.write((w) => {
      // Whatever a window left marked (a window that failed midway) is summed before the end.
      w.rollups.settle();
      w.checkpoints.finishRun(runId, end);
    });
    await this.commit();
  }
  /** Records a window, and sums its day (DaysToSettle) and the reports marked (rollups.ts).
   * After a group of the run was rolled back, a window is recorded failed whatever it proved. */
  recordWindow(window: WindowRecord, now: string) {
    return this.write((w) => {
      w.rollups.settle(window.locationId, this.records.daysToSettle.of(window));
      const proven = this.groupLoss === undefined;
      w.checkpoints.recordWindow(proven ? window : unproven(window), now);
    });
  }
  /** Recomputes the summaries of the days and reports changed since (one location's, or all);
   * how many it recomputed. recordWindow and finishRun do it as they record. */
  settleSummaries(locationId?: string): Promise<number> {
    return this.write((w) => w.rollups.settle(locationId));
  }
  recordAuditProof(locationId: string, stream: DayStream, day: string, now: string) {
    return this.write((w) => w.checkpoints.recordAuditProof(locationId, stream, day, now));
  }
  recordRepair(repair: RepairRecord) {
    return this.write((w) => w.checkpoints.recordRepair(repair));
  }

  // The records (sync-writes.ts runs their writes through perform); the time zone.

  useTimeZone(locationId: string, timeZone: string | null) {
    return this.write((w) => w.clocks.apply(locationId, timeZone));
  }
  archiveTerms(stream: DayStreamTables): Promise<ArchiveTerms> {
    if (!this.options.compressAhead)
      return Promise.resolve(
        this.options.keepRaw ? { keep: true, dictionary: null } : { keep: false },
      );
    return this.step((w) => w.archive.termsFor(relationName(stream.table)));
  }
}
