/**
 * The sync's writes of records, written once for both databases: a page of a day stream, a
 * whole list, the location, records marked deleted, rejects and the values remembered per
 * location. Each is a sequence of steps on the database's store (write-store.ts), which the
 * destination runs as one write (its `perform`): a write of SQLite's group commit, a PostgreSQL
 * transaction.
 */
import type { Location } from "../api/schemas.js";
import {
  type RejectedRecord,
  rejectKey,
  type ValidatedRecords,
  type ValidRecord,
} from "../api/validate.js";
import type {
  ListCounts,
  ListedDevices,
  LocationCounts,
  PageCounts,
  SyncDestination,
} from "./destination.js";
import { type ListContext, listSnapshot } from "./list-snapshot.js";
import { normalizeLocation } from "./normalize/catalog.js";
import { type PageHeader, rewriteOf } from "./normalize/page.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "./normalize/stream-tables.js";
import type { LocationState } from "./reads/session.js";
import { listRejectContext, locationRejectContext, pageRejectContext } from "./reject-rows.js";
import type { IncomingRecord } from "./rules/day-page.js";
import type { SnapshotCounts } from "./rules/snapshot.js";
import { DaysToSettle, summariesToMark } from "./sql/rollups.js";
import { ask, type Steps } from "./write-store.js";

/** The port's writes of records, which RecordWrites answers for both databases. */
export type RecordWritesPort = Pick<
  SyncDestination,
  | "writePage"
  | "writeList"
  | "writeLocation"
  | "markDeleted"
  | "recordLocationReject"
  | "recordRejects"
  | "forgetFixedRejects"
  | "saveState"
>;

/** Runs a write's steps as one write of the database. */
export type Perform = <T>(steps: Steps<T>) => Promise<T>;

export class RecordWrites implements RecordWritesPort {
  /** Which streams' writes marked days, so that recording a window sums its day. */
  readonly daysToSettle = new DaysToSettle();

  constructor(private readonly perform: Perform) {}

  /** Stores a page of a day stream, its records normalized, and its rejects. */
  writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): Promise<PageCounts> {
    return this.perform(this.pageSteps(stream, page, records));
  }

  private *pageSteps(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): Steps<PageCounts> {
    const { counts, earlierDays } = yield* ask((s) =>
      s.writeRecords(stream, records, page.syncedAt, rewriteOf(page)),
    );
    const ids = records.map((r) => r.rows.parent.id);
    if (counts.inserted + counts.updated > 0) {
      const marks = summariesToMark(stream, page, { ids, earlierDays });
      this.daysToSettle.marked(stream, marks.days);
      yield* ask((s) => s.markDays(marks.days));
      yield* ask((s) => s.markReports(page.locationId, marks.reports));
    }
    yield* ask((s) => s.resolveStoredRejects(page.locationId, stream.name, ids));
    yield* ask((s) => s.recordRejects(page.rejects, pageRejectContext(stream.name, page)));
    return { ...counts, rejected: page.rejects.length };
  }

  /** Stores one whole list of a location (a catalog list) as a snapshot, with its rejects. */
  writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): Promise<ListCounts> {
    return this.perform(this.listSteps(list, validated, context));
  }

  private *listSteps(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): Steps<ListCounts> {
    const snapshot = listSnapshot(list, validated, context);
    const counts = yield* ask((s) => s.writeSnapshot(list, snapshot));
    // The list is whole: its rejects replace the earlier ones.
    const keys = validated.rejects.map(rejectKey);
    yield* ask((s) => s.keepOnlyRejects(context.locationId, list.name, null, keys));
    yield* ask((s) => s.recordRejects(validated.rejects, listRejectContext(list.name, context)));
    return { ...counts, rejected: validated.rejects.length };
  }

  /** Stores the location (unless the same content under the same key is stored), and the
   * devices it lists as a snapshot. */
  writeLocation(
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices?: ListedDevices,
  ): Promise<LocationCounts> {
    return this.perform(this.locationSteps(valid, context, devices));
  }

  private *locationSteps(
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices: ListedDevices | undefined,
  ): Steps<LocationCounts> {
    const row = normalizeLocation(valid.record, valid.raw, context);
    const stored = yield* ask((s) => s.storedLocation(row.id));
    const unchanged =
      stored?.content_hash === row.content_hash &&
      stored.api_key_fingerprint === row.api_key_fingerprint;
    yield* ask((s) => s.noteKeyLocation(context.apiKeyFingerprint, row.id));
    if (!unchanged) yield* ask((s) => s.putLocation(row, valid.raw));
    const location: LocationCounts["location"] =
      stored === undefined ? "inserted" : unchanged ? "unchanged" : "updated";
    if (!devices) return { location, devices: undefined };
    const listed = { records: [...devices.records], rejects: [] };
    const listContext = { locationId: row.id, syncedAt: context.syncedAt, runId: null };
    const snapshot = listSnapshot(devices.list, listed, listContext);
    const counts: SnapshotCounts = yield* ask((s) => s.writeSnapshot(devices.list, snapshot));
    return { location, devices: counts };
  }

  /** Marks records deleted upstream (soft: the rows stay, every view leaves them out). */
  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.perform(this.vanishedSteps(stream, ids, at));
  }

  private *vanishedSteps(stream: DayStreamTables, ids: readonly string[], at: string) {
    const { marked, days } = yield* ask((s) => s.markVanished(stream, ids, at));
    if (marked > 0 && stream.summarized === "days") {
      this.daysToSettle.marked(stream, days);
      yield* ask((s) => s.markDays(days));
    }
    return marked;
  }

  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ): Promise<void> {
    const where = locationRejectContext(reject, context);
    return this.perform(ask((s) => s.recordRejects([reject], where)));
  }

  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ): Promise<void> {
    return this.perform(ask((s) => s.recordRejects(rejects, { ...context, stream, day: null })));
  }

  /** Keeps only the rejects a complete read of a day still found; how many went. */
  forgetFixedRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ): Promise<number> {
    const keys = rejects.map(rejectKey);
    return this.perform(ask((s) => s.keepOnlyRejects(locationId, stream.name, day, keys)));
  }

  /** Remembers a value for a location (sync_state), for the next runs. */
  saveState(locationId: string, name: LocationState, value: string, now: string): Promise<void> {
    return this.perform(ask((s) => s.saveState(locationId, name, value, now)));
  }
}
