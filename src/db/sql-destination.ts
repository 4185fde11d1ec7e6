/**
 * What both databases' destinations share (destination.ts): the sync's reads, answered by the
 * stores of reads on the destination's own connection (`reads`), and the writes of records,
 * written once (sync-writes.ts) and run through the destination's `perform`. Each database adds
 * its run log, its checkpoints and how it runs a write (sqlite/destination.ts,
 * pg/destination.ts). The methods are declared here one by one, not forwarded by a loop: the
 * port crosses threads by the names of its methods (runner/remote-destination.ts).
 */
import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import type { Stream } from "../vocabulary.js";
import type {
  Destination,
  ListContext,
  ListCounts,
  ListedDevices,
  LocationCounts,
  PageCounts,
  SyncReads,
} from "./destination.js";
import type { PageHeader } from "./normalize/page.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "./normalize/stream-tables.js";
import type { RecordRows } from "./reads/comparable-rows.js";
import type { Reader } from "./reads/reader.js";
import type { LocationState } from "./reads/session.js";
import type { IncomingRecord } from "./rules/day-page.js";
import { RecordWrites, type RecordWritesPort } from "./sync-writes.js";
import type { Steps } from "./write-store.js";

/** The port's methods both databases answer alike. */
type SharedPart = Pick<Destination, "reads" | "where"> & SyncReads & RecordWritesPort;

export abstract class SqlDestination implements SharedPart {
  /** The stores of reads on the destination's connection. */
  abstract readonly reads: Reader;
  /** The writes of records, each run as one write of the database. */
  protected readonly records = new RecordWrites((steps) => this.perform(steps));

  /** Runs a write's steps as one write of the database. */
  protected abstract perform<T>(steps: Steps<T>): Promise<T>;

  get where(): string {
    return this.reads.where;
  }

  // The sync's reads.

  windows(locationId: string, stream: Stream) {
    return this.reads.checkpoints.windows(locationId, stream);
  }
  firstRecordedDay(locationId: string) {
    return this.reads.checkpoints.firstRecordedDay(locationId);
  }
  provedWindows(locationId: string, before: string) {
    return this.reads.checkpoints.provedWindows(locationId, before);
  }
  auditPace(locationId: string) {
    return this.reads.checkpoints.auditPace(locationId);
  }
  startDate(locationId: string) {
    return this.reads.locations.startDate(locationId);
  }
  utcOffsetMinutes(locationId: string, at: Date) {
    return this.reads.locations.utcOffsetMinutes(locationId, at);
  }
  storedLocationOfKey(fingerprint: string) {
    return this.reads.locations.storedLocationOfKey(fingerprint);
  }
  isLocationStored(locationId: string) {
    return this.reads.locations.isLocationStored(locationId);
  }
  timeZoneOf(locationId: string) {
    return this.reads.locations.timeZoneOf(locationId);
  }
  missingReportOrders(locationId: string, limit: number) {
    return this.reads.days.missingReportOrders(locationId, limit);
  }
  ordersListedByLiveReport(locationId: string, orderIds: readonly string[]) {
    return this.reads.days.ordersListedByLiveReport(locationId, orderIds);
  }
  countStored(stream: DayStreamTables, ids: readonly string[]) {
    return this.reads.days.countStored(stream, ids);
  }
  unlistedRecords(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ) {
    return this.reads.days.unlistedRecords(stream, locationId, day, listedIds);
  }
  storedForDay(stream: DayStreamTables, locationId: string, day: string) {
    return this.reads.days.storedForDay(stream, locationId, day);
  }
  storedVersionsOfDay(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listed: ReadonlyMap<string, RecordRows>,
  ) {
    return this.reads.days.storedVersionsOfDay(stream, locationId, day, listed);
  }
  rejectedInRun(locationId: string, stream: string, recordKey: string, runId: number) {
    return this.reads.days.rejectedInRun(locationId, stream, recordKey, runId);
  }

  // The writes of records (sync-writes.ts).

  writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): Promise<PageCounts> {
    return this.records.writePage(stream, page, records);
  }
  writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): Promise<ListCounts> {
    return this.records.writeList(list, validated, context);
  }
  writeLocation(
    valid: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices?: ListedDevices,
  ): Promise<LocationCounts> {
    return this.records.writeLocation(valid, context, devices);
  }
  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string): Promise<number> {
    return this.records.markDeleted(stream, ids, at);
  }
  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ): Promise<void> {
    return this.records.recordLocationReject(reject, context);
  }
  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ): Promise<void> {
    return this.records.recordRejects(stream, rejects, context);
  }
  forgetFixedRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ): Promise<number> {
    return this.records.forgetFixedRejects(stream, locationId, day, rejects);
  }
  saveState(locationId: string, name: LocationState, value: string, now: string): Promise<void> {
    return this.records.saveState(locationId, name, value, now);
  }
}
