/**
 * The destination: everything the sync engine, status, verify and the demo ask of the database
 * they write to and read from, and nothing else. SQLite implements it (sqlite-destination.ts);
 * a second destination implements the same interface. Every method answers with a promise, so
 * that a destination on the other side of a network fits without a change to its callers.
 *
 * A failure of the storage itself (a full disk, a broken file, a lost server) surfaces from the
 * sync's methods as a DatabaseError (db/errors.ts), which stops the run; anything else is a
 * failure of the work at hand.
 */
import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import type { RunStatus, RunTrigger, Stream, WindowStatus } from "../vocabulary.js";
import type { WindowRecord } from "./checkpoints.js";
import type { TimeZoneChange } from "./location-clocks.js";
import type { PageHeader } from "./normalize/page.js";
import type { ArchiveTerms } from "./raw/archive.js";
import type {
  DailySalesRow,
  DaysCovered,
  KnownLocation,
  LatestWindow,
  OrderChangeFilter,
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
} from "./read-queries.js";
import type {
  ListContext,
  ListCounts,
  ListedDevices,
  LocationCounts,
  PageCounts,
} from "./store.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "./stream-tables.js";
import type { IncomingRecord } from "./writers/replace.js";

export type { WindowRecord } from "./checkpoints.js";
export type { PageCounts } from "./store.js";

/** The end of a run, as recorded. */
export interface RunEnd {
  status: RunStatus;
  finishedAt: string;
  stats: unknown;
  requests: number;
  error: string | null;
}

/** The run log, and the checkpoints and facts a run resumes from. */
export interface RunState {
  /** Runs left "running" by a process that died are recorded as interrupted. */
  closeAbandonedRuns(now: string): Promise<number>;
  startRun(trigger: RunTrigger, startedAt: string): Promise<number>;
  finishRun(runId: number, end: RunEnd): Promise<void>;
  /** Status of every recorded day of one location and stream. */
  windows(locationId: string, stream: Stream): Promise<Map<string, WindowStatus>>;
  recordWindow(window: WindowRecord, now: string): Promise<void>;
  /** The first day of a location's history, as an incremental run settled it. */
  startDate(locationId: string): Promise<string | undefined>;
  saveStartDate(locationId: string, day: string, now: string): Promise<void>;
  /** The location's UTC offset in minutes at an instant: its time zone setting's once applied,
   * else its latest stored order's, else as learned. */
  utcOffsetMinutes(locationId: string, at: Date): Promise<number | undefined>;
  saveUtcOffsetMinutes(locationId: string, minutes: number, now: string): Promise<void>;
  /** The first day ever recorded for a location's day streams, if any. */
  firstRecordedDay(locationId: string): Promise<string | undefined>;
}

/** What the sync writes, each call one transaction. */
export interface RecordSink {
  /** The stored location a key reads (by the key's fingerprint), if a run stored it. */
  storedLocationOfKey(
    fingerprint: string,
  ): Promise<{ id: string; name: string | null } | undefined>;
  isLocationStored(locationId: string): Promise<boolean>;
  writeLocation(
    location: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices?: ListedDevices,
  ): Promise<LocationCounts>;
  /** Makes a time zone setting (canonical, or null) the clock of a stored location's hours,
   * recomputing the stored ones when it changed; null when nothing changed. */
  useTimeZone(locationId: string, timeZone: string | null): Promise<TimeZoneChange | null>;
  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ): Promise<void>;
  writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ): Promise<ListCounts>;
  /** The time zone a location's new rows are stamped with (null: hours as the API sends them):
   * the clock the sync normalizes its pages on (normalize/page.ts). */
  timeZoneOf(locationId: string): Promise<string | null>;
  /** What a stream's records bring to writePage for the raw archive (raw/archive.ts). */
  archiveTerms(stream: DayStreamTables): Promise<ArchiveTerms>;
  /** Stores a page of a day stream, its records normalized, and its rejects. */
  writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): Promise<PageCounts>;
  /** How many of these records of a day stream are stored now. */
  countStored(stream: DayStreamTables, ids: readonly string[]): Promise<number>;
  settleWindowRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ): Promise<number>;
  unlistedRecords(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ): Promise<{ live: number; unlisted: string[] }>;
  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string): Promise<number>;
  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ): Promise<void>;
  /** Orders that stored reports list and no complete orders window returned. */
  missingReportOrders(locationId: string, limit: number): Promise<string[]>;
  /** Of these orders, the ones a live stored report lists. */
  ordersListedByLiveReport(locationId: string, orderIds: readonly string[]): Promise<string[]>;
}

/** What status, verify and the demo read. */
export interface StoredFacts {
  knownLocations(): Promise<KnownLocation[]>;
  windowRows(locationId: string, stream: Stream): Promise<WindowRow[]>;
  latestWindow(locationId: string, stream: Stream): Promise<LatestWindow | undefined>;
  lastRun(): Promise<RunRow | undefined>;
  /** The latest runs, newest first. */
  recentRuns(limit: number): Promise<RunRow[]>;
  /** When the latest run that succeeded ended, if one did. */
  lastSuccessAt(): Promise<string | null>;
  /** Each location's outcome in the latest run that ended: a rejected key shows there though
   * its location was never read. */
  lastRunLocations(): Promise<RunLocationOutcome[]>;
  /** Distinct records set aside per day (those stored live since left out). */
  rejectedByDay(stream: DayStreamTables, locationId: string): Promise<RejectedOnDay[]>;
  /** A location's sales per business day, both days included (days without orders absent). */
  dailySales(locationId: string, since: string, until: string): Promise<DailySalesRow[]>;
  /** Each report's reconciliation with its stored orders, both days included. */
  reportStates(locationId: string, since: string, until: string): Promise<ReportStateRow[]>;
  /** Rows of a day stream or list table for one location, live and marked deleted. */
  rowCounts(
    owner: DayStreamTables | SnapshotListTables,
    locationId: string,
  ): Promise<{ table: string; counts: RowCounts }>;
  rejectedCount(stream: DayStreamTables, locationId: string): Promise<number>;
  storedForDay(stream: DayStreamTables, locationId: string, day: string): Promise<StoredCounts>;
  reconciliationProblems(
    locationId: string,
    since: string,
    until: string,
  ): Promise<ReconciliationRow[]>;
  /** Of a report's orders that are not stored live, how many were set aside as rejected. */
  rejectedReportOrders(reportId: string): Promise<number>;
  tableRowCount(table: string): Promise<number>;
  completeWindowCount(stream: Stream): Promise<number>;
  daysCovered(stream: Stream): Promise<DaysCovered[]>;
  reconciliationTally(): Promise<{ reports: number; ok: number }>;
  /** The order changes pos-sync saw (v_order_changes), oldest first. */
  orderChanges(filter: OrderChangeFilter): Promise<OrderChangeRow[]>;
  /** An analyst's SQL, as the demo shows it. */
  runQuery(sql: string): Promise<QueryResult>;
}

/** The answer to a claim on a location: the turn is this worker's; another worker holds it;
 * or a turn on it finished since this worker's run started (nothing left to do). */
export type ClaimAnswer =
  | { outcome: "granted"; claimId: number }
  | { outcome: "held"; holder: string | null }
  /** A turn of another worker (`by`, host:pid) finished the location since this run started. */
  | { outcome: "done"; by: string | null };

/** How a location's turn ended. */
export type ClaimEnd = "done" | "failed" | "interrupted";

/**
 * Several workers sharing one destination take turns on each location (PostgreSQL): a worker
 * syncs a location only while it holds it, and a worker that dies lets go of it at once.
 */
export interface LocationClaims {
  /** Takes the location of a key (by its fingerprint) for this run, unless another worker holds
   * it or finished a turn on it since this run started. The destination stamps the turn's start
   * and end on one clock, its own. */
  claim(fingerprint: string, runId: number): Promise<ClaimAnswer>;
  release(claimId: number, end: ClaimEnd): Promise<void>;
}

/** What a sync needs of its destination: the run log and checkpoints, and the writes. */
export interface SyncDestination extends RunState, RecordSink {
  /** Where the data goes, for messages (the database file's path). */
  readonly location: string;
  /** Present where several workers may share the destination; absent where one writer holds
   * all of it (SQLite's writer lease). */
  readonly claims?: LocationClaims;
  close(): Promise<void>;
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

/** What status and verify read: the stored facts, and a location's clock and history. */
export interface ReadableDestination
  extends StoredFacts,
    Pick<RunState, "utcOffsetMinutes" | "firstRecordedDay">,
    Pick<RecordSink, "storedLocationOfKey"> {
  /** Where the data is, for messages. */
  readonly location: string;
  /** Where several workers share the destination: who syncs which location. */
  locationTurns?(): Promise<LocationTurn[]>;
  close(): Promise<void>;
}

export interface Destination extends SyncDestination, StoredFacts {}
