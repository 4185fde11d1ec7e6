/**
 * The sync's destination with its SQLite work on a thread of its own (writer-thread.ts), so that
 * reading the API (HTTP, JSON, validation) and normalizing go on in the sync's thread while the
 * other writes: the database work of a backfill is more than half of its CPU.
 *
 * Each call crosses as a message and is answered in the order the database settles it, the same
 * order as with the destination in the sync's own thread. A page is normalized here, on its
 * location's clock, and crosses as rows (a structured copy costs about a tenth of writing them).
 * The queue between the threads is bounded by the sync itself: each window waits for its page to
 * be written before it reads the next.
 */
import type { Worker } from "node:worker_threads";
import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import { type DayPage, headerOf, prepareRecords } from "../db/day-page.js";
import type { RunEnd, SyncDestination, WindowRecord } from "../db/destination.js";
import { DatabaseError } from "../db/errors.js";
import type { ListContext, ListedDevices } from "../db/store.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "../db/stream-tables.js";
import { LocalClock } from "../local-clock.js";
import type { RunTrigger, Stream } from "../vocabulary.js";
import { startModuleThread } from "./module-thread.js";
import {
  fromCrossing,
  type WriterCalls,
  type WriterMethod,
  type WriterReply,
  type WriterRequest,
  type WriterThreadInput,
} from "./writer-protocol.js";
import type { WriterResults } from "./writer-thread.js";

const YOUNG_GENERATION_MB = 16;
/** How long a thread asked to close may take to end before it is stopped. */
const EXIT_GRACE_MS = 5_000;

export interface ThreadedDestinationOptions {
  dbPath: string;
  keepRaw: boolean;
  /** The thread's heap ceiling (POS_MEMORY_MB). */
  heapMb: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class ThreadedDestination implements SyncDestination {
  readonly location: string;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Set once the thread is gone: every call after fails with it. */
  private lost: Error | undefined;
  private closing = false;
  /** Each location's time zone as the writer applies it, asked once. */
  private readonly zones = new Map<string, Promise<string | null>>();
  private readonly exited: Promise<void>;

  private constructor(
    private readonly thread: Worker,
    private readonly options: ThreadedDestinationOptions,
  ) {
    this.location = options.dbPath;
    this.exited = new Promise((resolve) => thread.once("exit", () => resolve()));
    thread.on("message", (reply: WriterReply) => this.settle(reply));
    thread.on("error", (error: Error & { code?: string }) => this.lose(this.lossOf(error)));
    thread.on("exit", (code) => {
      if (!this.closing) this.lose(this.lossOf(new Error(`it ended with code ${code}`)));
    });
  }

  /** Starts the thread and opens the database in it; fails as opening the file would. */
  static start(options: ThreadedDestinationOptions): Promise<ThreadedDestination> {
    const thread = startModuleThread("writer-thread", import.meta.url, {
      workerData: { dbPath: options.dbPath, keepRaw: options.keepRaw } satisfies WriterThreadInput,
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
      stdout: false,
      stderr: false,
    });
    return new Promise((resolve, reject) => {
      const opened = (reply: WriterReply) => {
        if (reply.type === "ready") {
          thread.off("error", failed);
          resolve(new ThreadedDestination(thread, options));
        } else if (reply.type === "unusable") {
          thread.off("error", failed);
          reject(fromCrossing(reply.error));
        }
      };
      const failed = (error: Error) => reject(error);
      thread.once("message", opened);
      thread.once("error", failed);
    });
  }

  private call<M extends WriterMethod>(
    method: M,
    ...args: WriterCalls[M]
  ): Promise<WriterResults[M]> {
    if (this.lost) return Promise.reject(this.lost);
    const id = this.nextId++;
    return new Promise<WriterResults[M]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.thread.postMessage({ id, method, args } satisfies WriterRequest<M>);
    });
  }

  private settle(reply: WriterReply): void {
    if (reply.type !== "answer" && reply.type !== "failure") return;
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.type === "answer") pending.resolve(reply.value);
    else {
      const error = fromCrossing(reply.error);
      // A failed write may have rolled back a time zone applied with it.
      if (error instanceof DatabaseError) this.zones.clear();
      pending.reject(error);
    }
  }

  /** A thread that is gone fails every call in flight and every call after. */
  private lose(error: Error): void {
    this.lost ??= error;
    for (const pending of this.pending.values()) pending.reject(this.lost);
    this.pending.clear();
  }

  private lossOf(error: Error & { code?: string }): DatabaseError {
    const reason =
      error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? `it needed more than ${this.options.heapMb} MB of heap; raise POS_MEMORY_MB`
        : error.message;
    return new DatabaseError(
      `cannot write to the database ${this.location}: the thread writing it stopped (${reason})`,
      error.code ?? "WRITER_THREAD_STOPPED",
    );
  }

  /** Commits what is in hand, closes the file and ends the thread. */
  async close(): Promise<void> {
    if (this.lost) return;
    try {
      await this.call("close");
    } finally {
      this.closing = true;
      const stop = setTimeout(() => void this.thread.terminate(), EXIT_GRACE_MS);
      await this.exited;
      clearTimeout(stop);
    }
  }

  // The run log and checkpoints.

  closeAbandonedRuns(now: string) {
    return this.call("closeAbandonedRuns", now);
  }
  startRun(trigger: RunTrigger, startedAt: string) {
    return this.call("startRun", trigger, startedAt);
  }
  finishRun(runId: number, end: RunEnd) {
    return this.call("finishRun", runId, end);
  }
  windows(locationId: string, stream: Stream) {
    return this.call("windows", locationId, stream);
  }
  recordWindow(window: WindowRecord, now: string) {
    return this.call("recordWindow", window, now);
  }
  startDate(locationId: string) {
    return this.call("startDate", locationId);
  }
  saveStartDate(locationId: string, day: string, now: string) {
    return this.call("saveStartDate", locationId, day, now);
  }
  utcOffsetMinutes(locationId: string, at: Date) {
    return this.call("utcOffsetMinutes", locationId, at);
  }
  saveUtcOffsetMinutes(locationId: string, minutes: number, now: string) {
    return this.call("saveUtcOffsetMinutes", locationId, minutes, now);
  }
  firstRecordedDay(locationId: string) {
    return this.call("firstRecordedDay", locationId);
  }

  // Records.

  storedLocationOfKey(fingerprint: string) {
    return this.call("storedLocationOfKey", fingerprint);
  }
  isLocationStored(locationId: string) {
    return this.call("isLocationStored", locationId);
  }
  writeLocation(
    location: ValidRecord<Location>,
    context: { syncedAt: string; apiKeyFingerprint: string },
    devices?: ListedDevices,
  ) {
    const listed = devices ? { list: devices.list.name, records: devices.records } : undefined;
    return this.call("writeLocation", location, context, listed);
  }
  useTimeZone(locationId: string, timeZone: string | null) {
    this.zones.delete(locationId);
    return this.call("useTimeZone", locationId, timeZone);
  }
  recordLocationReject(
    reject: RejectedRecord,
    context: { runId: number | null; rejectedAt: string },
  ) {
    return this.call("recordLocationReject", reject, context);
  }
  writeList(
    list: SnapshotListTables,
    validated: ValidatedRecords<Identified>,
    context: ListContext,
  ) {
    return this.call("writeList", list.name, validated, context);
  }
  /** Normalizes the page here, on its location's clock, and has the rows written. */
  async writePage(stream: DayStreamTables, page: DayPage) {
    const clock = LocalClock.of(await this.timeZoneOf(page.locationId));
    const records = prepareRecords(stream, page, clock);
    return this.call("writePage", stream.name, headerOf(page), records);
  }
  private timeZoneOf(locationId: string): Promise<string | null> {
    let zone = this.zones.get(locationId);
    if (!zone) {
      zone = this.call("timeZoneOf", locationId);
      this.zones.set(locationId, zone);
      zone.catch(() => this.zones.delete(locationId));
    }
    return zone;
  }
  countStored(stream: DayStreamTables, ids: readonly string[]) {
    return this.call("countStored", stream.name, ids);
  }
  settleWindowRejects(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    rejects: readonly RejectedRecord[],
  ) {
    return this.call("settleWindowRejects", stream.name, locationId, day, rejects);
  }
  unlistedRecords(
    stream: DayStreamTables,
    locationId: string,
    day: string,
    listedIds: readonly string[],
  ) {
    return this.call("unlistedRecords", stream.name, locationId, day, listedIds);
  }
  markDeleted(stream: DayStreamTables, ids: readonly string[], at: string) {
    return this.call("markDeleted", stream.name, ids, at);
  }
  recordRejects(
    stream: string,
    rejects: readonly RejectedRecord[],
    context: { locationId: string; runId: number | null; rejectedAt: string; requestedId?: string },
  ) {
    return this.call("recordRejects", stream, rejects, context);
  }
  missingReportOrders(locationId: string, limit: number) {
    return this.call("missingReportOrders", locationId, limit);
  }
  ordersListedByLiveReport(locationId: string, orderIds: readonly string[]) {
    return this.call("ordersListedByLiveReport", locationId, orderIds);
  }
}
