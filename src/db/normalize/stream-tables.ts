/**
 * What storage needs to know of a stream: its tables and how one record becomes rows. The stream
 * descriptions (src/streams/) fill these in and hand them to the storage port; storage itself
 * never names a stream, so that a new catalog list needs no change here.
 *
 * `toRows` is declared with method syntax on purpose: method parameters are bivariant, so that
 * streams of different record types can be held in one list typed by `Identified` without a
 * cast. Each stream's records only ever meet its own normalizer: the engine hands a stream the
 * records its own schema validated.
 */
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DayStream } from "../../vocabulary.js";
import type { NormalizedRows } from "../rules/record-rows.js";
import type { SnapshotRowSet } from "../rules/snapshot.js";
import type { DayRowContext, RowContext } from "./values.js";

/** Every record the API lists has an id of its own. */
export interface Identified {
  id: string;
}

/** A stream read day by day (orders, reports): records keyed by their id alone. */
export interface DayStreamTables<T extends Identified = Identified> {
  readonly name: DayStream;
  /** Holds one row per record, with `business_date`, `updated_at`, `content_hash`, `deleted_at`. */
  readonly table: SQLiteTable;
  /** One table per array of the record, in the order `toRows` gives their rows. */
  readonly childTables: readonly SQLiteTable[];
  /** Which summaries (rollups.ts) a change of its records refreshes: the days' summaries and
   * their reports' reconciliation (orders), or the reconciliation of the records (reports). */
  readonly summarized?: "days" | "reports";
  /** Where the versions a sync replaces (or the API stops listing) are kept, when the stream
   * keeps a history (orders: history/versions.ts); `paidFrom` is the child table of payments. */
  readonly history?: { readonly table: SQLiteTable; readonly paidFrom: SQLiteTable };
  /** `hash` is contentHash(raw) when the caller has it already. */
  toRows(record: T, raw: string, context: DayRowContext, hash?: number): NormalizedRows;
}

/** Where a record sits in the list the API returned: a device keeps its place as `position`. */
export interface ListRowContext extends RowContext {
  position: number;
}

/** A list the API returns whole (a catalog list, the devices): stored as a snapshot per
 * location, keyed by location and id. */
export interface SnapshotListTables<T extends Identified = Identified> {
  /** The API's name of the list; names its records in rejected_records.stream. */
  readonly name: string;
  readonly table: SQLiteTable;
  readonly childTables: readonly SQLiteTable[];
  toRows(record: T, raw: string, context: ListRowContext): SnapshotRowSet;
}

/** What a destination makes once per stream or list (its writers), on first use. */
export class PerStream<K extends DayStreamTables | SnapshotListTables, V> extends Map<K, V> {
  constructor(private readonly make: (stream: K) => V) {
    super();
  }
  of(stream: K): V {
    if (!this.has(stream)) this.set(stream, this.make(stream));
    return this.get(stream) as V;
  }
}
