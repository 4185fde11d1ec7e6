/**
 * The destination: everything the sync engine asks of the database it writes to and reads from,
 * and nothing else, as one flat port that crosses to another thread by its methods' names
 * (runner/remote-destination.ts). SQLite (sqlite/destination.ts) and PostgreSQL
 * (pg/destination.ts) implement it (sql-destination.ts holds what they share); the sync's reads
 * go to the stores of reads (reads/reader.ts), which status, verify and the demo open alone.
 * Every method answers with a promise, so that a destination on another thread or server fits
 * without a change to callers.
 *
 * A failure of the storage itself (a full disk, a broken file, a lost server) surfaces from the
 * sync's methods as a DatabaseError (db/errors.ts), which stops the run; anything else is a
 * failure of the work at hand.
 */
import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import type { DayStream, RunTrigger } from "../vocabulary.js";
import type { ListContext } from "./list-snapshot.js";
import type { PageHeader } from "./normalize/page.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "./normalize/stream-tables.js";
import type { ArchiveTerms } from "./raw/terms.js";
import type { CheckpointReads } from "./reads/checkpoints.js";
import type { DayFactReads } from "./reads/day-facts.js";
import type { LocationReads } from "./reads/locations.js";
import type { Reader } from "./reads/reader.js";
import type { LocationState } from "./reads/session.js";
import type { IncomingRecord, WriteCounts } from "./rules/day-page.js";
import type { SnapshotCounts } from "./rules/snapshot.js";
import type { TimeZoneChange } from "./rules/time-zone-change.js";
import type { RepairRecord, RunEnd, WindowRecord } from "./sql/checkpoints.js";

export type { ListContext } from "./list-snapshot.js";
export type { RunEnd, WindowRecord } from "./sql/checkpoints.js";

export type PageCounts = WriteCounts & { rejected: number };
export type ListCounts = SnapshotCounts & { rejected: number };

export interface LocationCounts {
  location: "inserted" | "updated" | "unchanged";
  /** Absent when the API did not list devices. */
  devices: SnapshotCounts | undefined;
}

/** What either destination keeps beside the rows. */
export interface KeptBesideRows {
  /** Keep every record's JSON as received (sqlite/raw-archive.ts). */
  keepRaw: boolean;
  /** Keep the versions of changed and vanished orders (order_versions); default true. */
  keepHistory?: boolean;
}

/** The devices listed inside the location record, and the list that stores them. */
export interface ListedDevices {
  list: SnapshotListTables;
  records: readonly ValidRecord<Identified>[];
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

/** The reads the sync makes (each store in reads/ says what each answers). */
export type SyncReads = Pick<
  LocationReads,
  "startDate" | "utcOffsetMinutes" | "storedLocationOfKey" | "isLocationStored" | "timeZoneOf"
> &
  Pick<CheckpointReads, "windows" | "firstRecordedDay" | "provedWindows" | "auditPace"> &
  Pick<
    DayFactReads,
    | "missingReportOrders"
    | "ordersListedByLiveReport"
    | "countStored"
    | "unlistedRecords"
    | "storedForDay"
    | "storedVersionsOfDay"
    | "rejectedInRun"
  >;

/** What a sync needs of its destination: the run log and checkpoints, the writes (each call one
 * transaction), and the reads above. */
export interface SyncDestination extends SyncReads {
  /** Where the data goes, for messages (the database file's path, a server and schema). */
  readonly where: string;
  /** Pages the sync hands over at once, the others waiting unnormalized: set where the
   * destination is on another thread, so that its queue stays short whatever the concurrency. */
  readonly pagesInHand?: number;
  /** Present where several workers may share the destination; absent where one writer holds
   * all of it (SQLite's writer lease). */
  readonly claims?: LocationClaims;
  close(): Promise<void>;
  // The run log, and the checkpoints and facts a run resumes from.
  /** Runs left "running" by a process that died are recorded as interrupted. */
  closeAbandonedRuns(now: string): Promise<number>;
  startRun(trigger: RunTrigger, startedAt: string): Promise<number>;
  finishRun(runId: number, end: RunEnd): Promise<void>;
  recordWindow(window: WindowRecord, now: string): Promise<void>;
  /** A window the audit re-proved against the API's listing, without reading it again. */
  recordAuditProof(locationId: string, stream: DayStream, day: string, now: string): Promise<void>;
  /** A stored day found disagreeing with the API, and what reading it again did. */
  recordRepair(repair: RepairRecord): Promise<void>;
  /** Remembers a value for a location, for the next runs: where the audit's pace stands
   * (audit.ts), the first day of its history, its UTC offset before any order was stored. */
  saveState(locationId: string, name: LocationState, value: string, now: string): Promise<void>;
  // The records.
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
  /** What a stream's records bring to writePage for the raw archive (sqlite/raw-archive.ts). */
  archiveTerms(stream: DayStreamTables): Promise<ArchiveTerms>;
  /** Stores a page of a day stream, its records normalized, and its rejects. */
  writePage(
    stream: DayStreamTables,
    page: PageHeader,
    records: readonly IncomingRecord[],
  ): Promise<PageCounts>;
  forgetFixedRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ): Promise<number>;
  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string): Promise<number>;
  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ): Promise<void>;
}

/** A destination that the sync writes, carrying the reader of the same connection. */
export type Destination = SyncDestination & { readonly reads: Reader };
