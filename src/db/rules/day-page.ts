/**
 * What a page of a day stream's records does to the records stored: each one inserted, replaced
 * (its stored version kept in history), rewritten in place, or kept. Decided here once; each
 * destination carries it out (sqlite/day-writer.ts, pg/day-writer.ts).
 */

import type { CompressedRaw } from "../raw/terms.js";
import type { RowSet } from "./record-rows.js";

/** A record's rows, and its JSON as received for the raw archive: as text, compressed ahead
 * (then the text may stay behind), or neither when the archive keeps no JSON (ArchiveTerms). */
export interface IncomingRecord {
  rows: RowSet;
  raw?: string;
  compressed?: CompressedRaw;
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows written across all tables: the figure a benchmark divides by. */
  rowsWritten: number;
}

/** What a write did, and the other days that records it replaced were listed under before (a
 * record the API moved from one day to another leaves the earlier day changed too). */
export interface WriteOutcome {
  counts: WriteCounts;
  earlierDays: string[];
}

export function emptyCounts(): WriteCounts {
  return { inserted: 0, updated: 0, unchanged: 0, rowsWritten: 0 };
}

export interface StoredVersion {
  id: string;
  updated_at: string;
  business_date: string;
  content_hash: number | null;
  /** Set when the API stopped listing the record; a record listed again is stored again. */
  deleted_at: string | null;
}

/** insert: a new record; replace: a new version, the one stored kept in history; rewrite: the
 * version stored, whose rows a proof found other than the API's (a hand edit), written again in
 * place (its key and synced_at kept, no version kept); keep: nothing to write. */
export type Decision = "insert" | "replace" | "rewrite" | "keep";

/** Newer or different content replaces; the same content, or an older version, is kept; a record
 * marked deleted that the API lists again comes back. A record a repair is told to write again
 * (`rewrite`) is rewritten in place when its content is the same, replaced whatever its version
 * when not: the API's listing is what a repair restores. */
export function decide(
  incoming: RowSet["parent"],
  stored: StoredVersion | undefined,
  rewrite = false,
): Decision {
  if (!stored) return "insert";
  if (stored.deleted_at !== null) return "replace";
  if (
    stored.content_hash === incoming.content_hash &&
    stored.business_date === incoming.business_date
  )
    return rewrite ? "rewrite" : "keep";
  if (rewrite) return "replace";
  return Date.parse(incoming.updated_at) < Date.parse(stored.updated_at) ? "keep" : "replace";
}

/** A record to write, once, as its last version in the page, with the version stored before
 * the page that it replaces (undefined: a new record). */
export interface PlannedWrite {
  record: IncomingRecord;
  replaces: StoredVersion | undefined;
}

/** What a page does, decided before anything is written: each destination carries it out. */
export interface PagePlan {
  /** Inserted, updated and unchanged as the page's records are counted (rowsWritten: 0; the
   * destination adds the rows it writes). */
  counts: WriteCounts;
  /** Stored records written again in place (decide's rewrite), by id. */
  rewrites: Map<string, RowSet>;
  /** Records to insert, or to replace (the stored version deleted, its child rows with it, and
   * kept in history while it was live), by id, in the page's order. */
  writes: Map<string, PlannedWrite>;
  /** Other days that replaced records were stored under (a record the API moved from one day to
   * another leaves the earlier day changed too). */
  earlierDays: string[];
}

/** Decides a page against the versions stored before it (`stored`, by id); `repair`: the
 * records a repair's read writes again whatever their content hash says. A record twice in a
 * page meets its earlier entry as stored, and is written once. */
export function planPage(
  records: readonly IncomingRecord[],
  stored: ReadonlyMap<string, StoredVersion>,
  repair?: ReadonlySet<string>,
): PagePlan {
  const counts = emptyCounts();
  const current = new Map(stored);
  const rewrites = new Map<string, RowSet>();
  const writes = new Map<string, PlannedWrite>();
  const earlierDays = new Set<string>();
  for (const record of records) {
    const { parent } = record.rows;
    const decision = decide(parent, current.get(parent.id), repair?.has(parent.id));
    if (decision === "keep") {
      counts.unchanged++;
      continue;
    }
    if (decision === "rewrite") {
      counts.updated++;
      rewrites.set(parent.id, record.rows);
      continue;
    }
    if (decision === "insert") counts.inserted++;
    else counts.updated++;
    // Written once: a later entry replaces what the first replaced, the version stored before.
    const first = writes.get(parent.id);
    const replaces = first ? first.replaces : stored.get(parent.id);
    // Checked at every entry: the one that moves the record off the day it was stored under
    // may be the second.
    if (replaces && replaces.business_date !== parent.business_date)
      earlierDays.add(replaces.business_date);
    writes.set(parent.id, { record, replaces });
    current.set(parent.id, { ...parent, deleted_at: null });
  }
  return { counts, rewrites, writes, earlierDays: [...earlierDays] };
}
