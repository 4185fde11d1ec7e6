/**
 * The sync's destination when the sync runs in a worker thread: its calls cross a message port to
 * the thread that holds the database (destination-service.ts, in the command's thread, which is
 * otherwise idle), so that reading the API (HTTP, JSON, validation) and normalizing go on here
 * while the other thread writes: the database work of a backfill is more than half of its CPU.
 *
 * Calls are answered in the order the database settles them, the same order as with the
 * destination in the sync's own thread. A page is normalized here, on its location's clock, and
 * crosses as rows (a structured copy costs about a tenth of writing them). At most a few pages
 * wait for the other thread at once, so that its memory stays flat whatever the concurrency.
 */
import type { MessagePort } from "node:worker_threads";
import pLimit from "p-limit";
import type { Location } from "../api/schemas.js";
import type { RejectedRecord, ValidatedRecords, ValidRecord } from "../api/validate.js";
import { type DayPage, headerOf, prepareRecords } from "../db/day-page.js";
import type { RunEnd, SyncDestination, WindowRecord } from "../db/destination.js";
import { DatabaseError } from "../db/errors.js";
import type { ArchiveTerms } from "../db/raw/archive.js";
import { AheadCompressor } from "../db/raw/compress-ahead.js";
import type { ListContext, ListedDevices } from "../db/store.js";
import type { DayStreamTables, Identified, SnapshotListTables } from "../db/stream-tables.js";
import { LocalClock } from "../local-clock.js";
import type { DayStream, RunTrigger, Stream } from "../vocabulary.js";
import {
  type DestinationCalls,
  type DestinationMethod,
  type DestinationReply,
  type DestinationRequest,
  fromCrossing,
} from "./destination-protocol.js";
import type { DestinationResults } from "./destination-service.js";

/** Pages handed over and not yet written: enough to keep the writing thread busy. */
const PAGES_IN_HAND = 4;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The other side's answer for each key, asked once: a failed ask is asked again next time, and
 * so is an answer `settled` does not accept yet. */
class AskedOnce<K, V> {
  private readonly answers = new Map<K, Promise<V>>();

  constructor(private readonly settled: (answer: V) => boolean = () => true) {}

  get(key: K, ask: () => Promise<V>): Promise<V> {
    const known = this.answers.get(key);
    if (known) return known;
    const answer = ask();
    this.answers.set(key, answer);
    const forget = () => {
      if (this.answers.get(key) === answer) this.answers.delete(key);
    };
    answer.then((value) => {
      if (!this.settled(value)) forget();
    }, forget);
    return answer;
  }

  forget(key: K): void {
    this.answers.delete(key);
  }

  clear(): void {
    this.answers.clear();
  }
}

export class RemoteDestination implements SyncDestination {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Set once the other side is gone: every call after fails with it. */
  private lost: Error | undefined;
  private closing = false;
  /** Each location's time zone as the database applies it. */
  private readonly zones = new AskedOnce<string, string | null>();
  private readonly pageSlots = pLimit(PAGES_IN_HAND);
  /** What each stream's records bring for the raw archive: asked again until the table has a
   * dictionary, which its first page written gives it. */
  private readonly archiveTerms = new AskedOnce<DayStream, ArchiveTerms>(
    (terms) => !terms.keep || terms.dictionary !== null,
  );
  private readonly compressor = new AheadCompressor();

  /** `location` is the database's, for messages. */
  constructor(
    private readonly port: MessagePort,
    readonly location: string,
  ) {
    port.on("message", (reply: DestinationReply) => this.settle(reply));
    port.on("close", () => {
      if (!this.closing) this.lose();
    });
  }

  private call<M extends DestinationMethod>(
    method: M,
    ...args: DestinationCalls[M]
  ): Promise<DestinationResults[M]> {
    return this.callHandingOver([], method, ...args);
  }

  /** A call whose arguments view `transfer`: the buffers move to the other side, uncopied. */
  private callHandingOver<M extends DestinationMethod>(
    transfer: ArrayBuffer[],
    method: M,
    ...args: DestinationCalls[M]
  ): Promise<DestinationResults[M]> {
    if (this.lost) return Promise.reject(this.lost);
    const id = this.nextId++;
    return new Promise<DestinationResults[M]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.port.postMessage({ id, method, args } satisfies DestinationRequest<M>, transfer);
    });
  }

  private settle(reply: DestinationReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.type === "answer") pending.resolve(reply.value);
    else {
      const error = fromCrossing(reply.error);
      // A failed write may have rolled back a time zone applied, or a dictionary learned, with it.
      if (error instanceof DatabaseError) {
        this.zones.clear();
        this.archiveTerms.clear();
      }
      pending.reject(error);
    }
  }

  /** The other side gone fails every call in flight and every call after. */
  private lose(): void {
    this.lost ??= new DatabaseError(
      `cannot write to the database ${this.location}: the thread writing it stopped`,
      "DESTINATION_GONE",
    );
    for (const pending of this.pending.values()) pending.reject(this.lost);
    this.pending.clear();
  }

  /** Has what is in hand committed, then lets go of the port (the connection is the command's). */
  async close(): Promise<void> {
    if (this.lost) return;
    try {
      await this.call("close");
    } finally {
      this.closing = true;
      this.port.close();
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
    this.zones.forget(locationId);
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
  /** Normalizes the page here, on its location's clock, compresses its JSON for the archive,
   * and has the rows written. */
  writePage(stream: DayStreamTables, page: DayPage) {
    return this.pageSlots(async () => {
      const zone = this.zones.get(page.locationId, () => this.call("timeZoneOf", page.locationId));
      const records = prepareRecords(stream, page, LocalClock.of(await zone));
      const terms = this.archiveTerms.get(stream.name, () =>
        this.call("archiveTerms", stream.name),
      );
      const payloads = this.compressor.prepare(records, await terms);
      const transfer = payloads ? [payloads] : [];
      return this.callHandingOver(transfer, "writePage", stream.name, headerOf(page), records);
    });
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
