/**
 * The narrow store each database offers the sync's writes (sync-writes.ts), and how a write's
 * steps run on it. A write (a page, a list, a location) is written once, as a generator that
 * yields its steps, each a call to the store, and takes back each answer: SQLite's store answers
 * at once, inside the group of writes that commits together (group commit runs no await inside a
 * write), PostgreSQL's answers later, inside the write's transaction.
 */
import type { RejectedRecord } from "../api/validate.js";
import type { LocationDay } from "../vocabulary.js";
import type { DayStreamTables, SnapshotListTables } from "./normalize/stream-tables.js";
import type { LocationState } from "./reads/session.js";
import type { RejectContext } from "./reject-rows.js";
import type { IncomingRecord, WriteOutcome } from "./rules/day-page.js";
import type { Snapshot, SnapshotCounts } from "./rules/snapshot.js";
import type { Row } from "./schema/columns.js";

/** An answer now (SQLite) or later (PostgreSQL). */
type Answer<T> = T | Promise<T>;

/** The location as stored, as far as a write of it needs. */
export interface StoredLocation {
  content_hash: number | null;
  api_key_fingerprint: string | null;
}

export interface WriteStore {
  /** Carries out a page's plan (rules/day-page.ts): its records inserted, replaced, rewritten. */
  writeRecords(
    stream: DayStreamTables,
    records: readonly IncomingRecord[],
    syncedAt: string,
    repair: ReadonlySet<string> | undefined,
  ): Answer<WriteOutcome>;
  /** Marks records deleted upstream, keeping their live versions in history: how many, and
   * the location days they were listed under. */
  markVanished(
    stream: DayStreamTables,
    ids: readonly string[],
    at: string,
  ): Answer<{ marked: number; days: LocationDay[] }>;
  /** Carries out a snapshot's plan (rules/snapshot.ts). */
  writeSnapshot(list: SnapshotListTables, snapshot: Snapshot): Answer<SnapshotCounts>;
  /** Days and reports whose summaries the end of their window recomputes. */
  markDays(days: readonly LocationDay[]): Answer<void>;
  markReports(locationId: string, reportIds: readonly string[]): Answer<void>;
  recordRejects(rejects: readonly RejectedRecord[], context: RejectContext): Answer<void>;
  /** Rejects of records now stored live are no longer set aside. */
  resolveStoredRejects(
    locationId: string,
    stream: string,
    storedIds: readonly string[],
  ): Answer<void>;
  /** Keeps only these rejects of a list (day null) or a day; how many went. */
  keepOnlyRejects(
    locationId: string,
    stream: string,
    day: string | null,
    rejectKeys: readonly string[],
  ): Answer<number>;
  storedLocation(id: string): Answer<StoredLocation | undefined>;
  /** Writes the location's row, with its JSON to the raw archive. */
  putLocation(row: Row & { id: string; synced_at: string }, raw: string): Answer<void>;
  /** A key's location, where several workers take turns on keys (PostgreSQL's claims.ts). */
  noteKeyLocation(fingerprint: string, locationId: string): Answer<void>;
  saveState(locationId: string, name: LocationState, value: string, now: string): Answer<void>;
}

/** A step of a write: a call to the store, whose answer the write takes back. */
type Step = (store: WriteStore) => unknown;

/** A write's steps, ending with what it returns. */
export type Steps<T> = Generator<Step, T, unknown>;

/** A step whose answer comes back typed. */
export function* ask<T>(step: (store: WriteStore) => Answer<T>): Steps<T> {
  // The runners below hand each step's answer back unchanged (awaited on PostgreSQL).
  return (yield step) as T;
}

/** Runs a write's steps on a store that answers at once. */
export function runNow<T>(steps: Steps<T>, store: WriteStore): T {
  let next = steps.next();
  while (!next.done) {
    const answer = next.value(store);
    // An await here would let the group of writes commit between two steps of one write.
    if (answer instanceof Promise) throw new Error("a store that answers at once answered later");
    next = steps.next(answer);
  }
  return next.value;
}

/** Runs a write's steps on a store that answers later, one step after the other. */
export async function runAwaiting<T>(steps: Steps<T>, store: WriteStore): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await next.value(store));
  return next.value;
}
