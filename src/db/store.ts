/**
 * Everything the sync writes, one transaction per call: a page of a day stream with its rejects,
 * a whole list (a catalog list), the location and its devices. Which tables a stream fills and
 * how a record becomes rows come with the stream (stream-tables.ts); records are normalized here
 * and written with statements prepared once per stream (writers/), their JSON archived apart
 * (raw/archive.ts); the days and reports a write changed are marked for their summaries to be
 * recomputed by `settleSummaries` (rollups.ts).
 */
import type { Location } from "../api/schemas.js";
import {
  type RejectedRecord,
  rejectKey,
  type ValidatedRecords,
  type ValidRecord,
} from "../api/validate.js";
import type { LocalClock } from "../local-clock.js";
import { type ListContext, listSnapshot } from "./list-snapshot.js";
import { LocationClocks, type TimeZoneChange } from "./location-clocks.js";
import { normalizeLocation } from "./normalize/catalog.js";
import type { PageHeader } from "./normalize/page.js";
import type { Db } from "./open.js";
import { type ArchiveTerms, RawArchive, type RawArchiveOptions } from "./raw/archive.js";
import { summariesToMark } from "./rollup-sql.js";
import { Rollups } from "./rollups.js";
import { locations } from "./schema/index.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "./stream-tables.js";
import { writeTransaction } from "./write-transaction.js";
import { DayDeletions } from "./writers/day-deletions.js";
import { VersionHistory } from "./writers/history.js";
import {
  listRejectContext,
  locationRejectContext,
  pageRejectContext,
  RejectWriter,
} from "./writers/rejects.js";
import { type IncomingRecord, ReplacingWriter, type WriteCounts } from "./writers/replace.js";
import { type SnapshotCounts, SnapshotWriter } from "./writers/snapshot.js";
import { type Row, tableName, upsertSql } from "./writers/statements.js";

export type { DayPage, PageHeader } from "./normalize/page.js";

export interface PageCounts extends WriteCounts {
  rejected: number;
}

export type ListCounts = SnapshotCounts & { rejected: number };

export type { ListContext } from "./list-snapshot.js";

export interface LocationCounts {
  location: "inserted" | "updated" | "unchanged";
  /** Absent when the API did not list devices. */
  devices: SnapshotCounts | undefined;
}

/** The devices listed inside the location record, and the list that stores them. */
export interface ListedDevices {
  list: SnapshotListTables;
  records: readonly ValidRecord<Identified>[];
}

export interface StoreOptions {
  /** Keep the versions of changed and vanished orders (order_versions); on by default. */
  keepHistory: boolean;
}

/** Writers prepared on first use, one per stream or list. */
class WriterCache<K, W> {
  private readonly writers = new Map<K, W>();
  constructor(private readonly make: (key: K) => W) {}
  get(key: K): W {
    if (this.writers.has(key)) return this.writers.get(key) as W;
    const writer = this.make(key);
    this.writers.set(key, writer);
    return writer;
  }
}

export class Store {
  private readonly dayWriters: WriterCache<DayStreamTables, ReplacingWriter>;
  private readonly histories: WriterCache<DayStreamTables, VersionHistory | undefined>;
  private readonly deletions: WriterCache<DayStreamTables, DayDeletions>;
  private readonly listWriters: WriterCache<SnapshotListTables, SnapshotWriter>;
  private readonly rejectWriter: RejectWriter;
  private readonly upsertLocation;
  private readonly storedLocation;
  private readonly writeDayPage: (
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ) => PageCounts;
  private readonly writeWholeList: (
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ) => ListCounts;
  private readonly markDeletedInTransaction: (
    stream: DayStreamTables,
    ids: string[],
    at: string,
  ) => number;
  private readonly writeLocationAndDevices: (
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices: ListedDevices | undefined,
  ) => LocationCounts;

  private readonly archive: RawArchive;
  private readonly rollups: Rollups;
  private readonly clocks: LocationClocks;

  constructor(
    readonly db: Db,
    rawArchive: RawArchiveOptions = { keep: true },
    options: StoreOptions = { keepHistory: true },
  ) {
    const { sqlite } = db;
    const archive = new RawArchive(sqlite, rawArchive);
    this.archive = archive;
    this.rollups = new Rollups(sqlite);
    this.clocks = new LocationClocks(sqlite, this.rollups);
    this.histories = new WriterCache((stream) =>
      options.keepHistory && stream.history
        ? new VersionHistory(sqlite, stream.table, stream.childTables, stream.history)
        : undefined,
    );
    this.dayWriters = new WriterCache(
      (stream) =>
        new ReplacingWriter(
          sqlite,
          stream.table,
          stream.childTables,
          archive,
          this.histories.get(stream),
        ),
    );
    this.deletions = new WriterCache((stream) => new DayDeletions(sqlite, tableName(stream.table)));
    this.listWriters = new WriterCache(
      (list) => new SnapshotWriter(sqlite, list.table, list.childTables, archive),
    );
    this.rejectWriter = new RejectWriter(sqlite);
    // The time zone is a setting, applied by useTimeZone alone.
    this.upsertLocation = sqlite.prepare<[Row]>(upsertSql(locations, ["id"], ["time_zone"]));
    this.storedLocation = sqlite.prepare<
      [string],
      { content_hash: number | null; api_key_fingerprint: string | null }
    >("SELECT content_hash, api_key_fingerprint FROM locations WHERE id = ?");
    this.writeDayPage = this.archivingTransaction(
      (stream: DayStreamTables, page: PageHeader, records: readonly IncomingRecord[]) =>
        this.dayPage(stream, page, records),
    );
    this.writeWholeList = this.archivingTransaction(
      (list: SnapshotListTables, validated: ValidatedRecords<Identified>, context: ListContext) =>
        this.wholeList(list, validated, context),
    );
    this.markDeletedInTransaction = writeTransaction(
      sqlite,
      (stream: DayStreamTables, ids: string[], at: string) => {
        const deletions = this.deletions.get(stream);
        const days = stream.summarized === "days" ? deletions.daysOf(ids) : [];
        this.histories.get(stream)?.keepVanished(ids, at);
        const marked = deletions.markDeleted(ids, at);
        if (marked > 0) this.rollups.markDays(days);
        return marked;
      },
    );
    this.writeLocationAndDevices = this.archivingTransaction(
      (
        valid: ValidRecord<Location>,
        context: { syncedAt: string; apiKeyFingerprint: string },
        devices: ListedDevices | undefined,
      ) => this.locationAndDevices(valid, context, devices),
    );
  }

  /** A write transaction that archives raw JSON: should it fail, the archive also forgets the
   * dictionaries it holds in memory, since one it learned inside is rolled back with it. */
  private archivingTransaction<A extends unknown[], R>(work: (...args: A) => R): (...args: A) => R {
    const transaction = writeTransaction(this.db.sqlite, work);
    return (...args) => {
      try {
        return transaction(...args);
      } catch (error) {
        this.archive.forgetDictionaries();
        throw error;
      }
    };
  }

  /** Stores a page of a day stream (its records normalized: normalize/page.ts) and its rejects
   * in one transaction. */
  writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): PageCounts {
    return this.writeDayPage(stream, page, records);
  }

  /** The clock a location's new rows are stamped with (its applied time zone setting). */
  clockOf(locationId: string): LocalClock {
    return this.clocks.clockOf(locationId);
  }

  /** What a day stream's records should bring to their write for the raw archive
   * (sync/compress-ahead.ts). */
  archiveTerms(stream: DayStreamTables): ArchiveTerms {
    return this.archive.termsFor(tableName(stream.table));
  }

  private dayPage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): PageCounts {
    const { counts, earlierDays } = this.dayWriters.get(stream).write(records, page.syncedAt);
    const ids = records.map((r) => r.rows.parent.id);
    if (counts.inserted + counts.updated > 0) {
      const marks = summariesToMark(stream, page, { ids, earlierDays });
      this.rollups.markDays(marks.days);
      this.rollups.markReports(page.locationId, marks.reports);
    }
    this.rejectWriter.resolveStored(page.locationId, stream.name, ids);
    this.rejectWriter.record(page.rejects, pageRejectContext(stream.name, page));
    return { ...counts, rejected: page.rejects.length };
  }

  /** How many of these records of a day stream are stored now (after a window's read). */
  countStored(stream: DayStreamTables, ids: readonly string[]): number {
    return this.deletions.get(stream).countStored(ids);
  }

  /** After a complete read of a day window: forgets the window's rejects that the read did not
   * return again (the API fixed or dropped those records). */
  forgetFixedRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ): number {
    return this.rejectWriter.keepOnly(locationId, stream.name, day, rejects.map(rejectKey));
  }

  /** What a complete read of a day means for the records stored for it: how many are live,
   * and which of those the read did not list (neither as a record nor as a reject). */
  unlistedRecords(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ): { live: number; unlisted: string[] } {
    const deletions = this.deletions.get(stream);
    return {
      live: deletions.liveCount(locationId, day),
      unlisted: deletions.unlisted(locationId, day, listedIds),
    };
  }

  /** Marks records deleted upstream (soft: the rows stay, every view leaves them out). */
  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string): number {
    if (ids.length === 0) return 0;
    return this.markDeletedInTransaction(stream, [...ids], at);
  }

  /** Sets aside records read outside any window (by id): one transaction. */
  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ): void {
    writeTransaction(this.db.sqlite, () =>
      this.rejectWriter.record(rejects, { ...context, stream, day: null }),
    )();
  }

  /** Sets aside a location record that breaks the spec (its id, if any, is the location's). */
  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ): void {
    this.rejectWriter.record([reject], locationRejectContext(reject, context));
  }

  /** Stores one whole list of a location (a catalog list) as a snapshot, with its rejects. */
  writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): ListCounts {
    return this.writeWholeList(list, validated, context);
  }

  private wholeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): ListCounts {
    const counts = this.snapshot(list, validated, context);
    // The list is whole: its rejects replace the earlier ones.
    this.rejectWriter.keepOnly(
      context.locationId,
      list.name,
      null,
      validated.rejects.map(rejectKey),
    );
    this.rejectWriter.record(validated.rejects, listRejectContext(list.name, context));
    return { ...counts, rejected: validated.rejects.length };
  }

  private snapshot(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): SnapshotCounts {
    return this.listWriters.get(list).write(listSnapshot(list, validated, context));
  }

  /** Recomputes the summaries of the days and reports changed since the last call (one
   * location's, or all): at the end of a day window, and of a run. One transaction. */
  settleSummaries(locationId?: string): number {
    return writeTransaction(this.db.sqlite, () => this.rollups.settle(locationId))();
  }

  /**
   * Makes a time zone setting (canonical, or null for hours as the API writes them) the clock of
   * a stored location's hours: when it differs from the one applied, the hours of its stored
   * orders and their hourly summaries are recomputed, in one transaction. Null when nothing
   * changed.
   */
  useTimeZone(locationId: string, timeZone: string | null): TimeZoneChange | null {
    try {
      return writeTransaction(this.db.sqlite, () => this.clocks.apply(locationId, timeZone))();
    } catch (error) {
      this.clocks.forget(locationId);
      throw error;
    }
  }

  /** Forgets what it remembers of writes that were rolled back with their group (group-commit.ts):
   * the archive's dictionaries and the locations' clocks are read again from the file. */
  forgetUncommitted(): void {
    this.archive.forgetDictionaries();
    this.clocks.forgetAll();
  }

  /** Whether a run stored this location already. */
  isLocationStored(locationId: string): boolean {
    return this.storedLocation.get(locationId) !== undefined;
  }

  /** Stores the location, and its devices as a snapshot when the API listed them: one
   * transaction. */
  writeLocation(
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices?: ListedDevices,
  ): LocationCounts {
    return this.writeLocationAndDevices(valid, context, devices);
  }

  private locationAndDevices(
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices: ListedDevices | undefined,
  ): LocationCounts {
    const row = normalizeLocation(valid.record, valid.raw, context);
    const stored = this.storedLocation.get(row.id);
    const unchanged =
      stored?.content_hash === row.content_hash &&
      stored.api_key_fingerprint === row.api_key_fingerprint;
    if (!unchanged) {
      this.upsertLocation.run(row);
      const { id, synced_at: syncedAt } = row;
      this.archive.put({
        tableName: tableName(locations),
        locationId: id,
        id,
        raw: valid.raw,
        syncedAt,
      });
    }
    const location: LocationCounts["location"] =
      stored === undefined ? "inserted" : unchanged ? "unchanged" : "updated";
    if (!devices) return { location, devices: undefined };
    const listed = { records: [...devices.records], rejects: [] };
    const listContext = { locationId: row.id, syncedAt: context.syncedAt, runId: null };
    return { location, devices: this.snapshot(devices.list, listed, listContext) };
  }
}
