/**
 * Proving a stored day against the API's listing of it, record by record: the day's pages read
 * whole, each listed record normalized to the rows it makes and held against what is stored for
 * it (its content hash, and its rows in every relation of the contract: a hand edit of the rows
 * leaves the hash as it was), and the day's count against the records stored live and set
 * aside. Shared by `verify --repair` and the daemon's audit.
 */
import type { PosApiClient } from "../api/client.js";
import { contentHash } from "../content-hash.js";
import type { RecordRows } from "../db/reads/comparable-rows.js";
import type { StoredCounts, StoredVersionOfDay } from "../db/reads/day-facts.js";
import type { SqlReader } from "../db/reads/reader.js";
import { LocalClock } from "../local-clock.js";
import { type DayStreamDescription, readDays } from "../streams/index.js";

/** Where a day's listing and its stored records part. */
export interface ContentDifference {
  /** Listed, and not stored live. */
  missing: number;
  /** Stored with other content than listed: another content hash (a correction that left
   * updatedAt as it was), or other rows (a hand edit). */
  changed: number;
  /** Stored live, and no longer listed. */
  extra: number;
}

export interface DayProof {
  /** The API's count of the day: its listing's totalCount. */
  apiCount: number;
  /** Records stored live for the day, and the distinct ones set aside. */
  stored: StoredCounts;
  /** Of the live ones, orders no list shows that a sync keeps on purpose (keptOnPurpose). */
  kept: number;
  content: ContentDifference;
  /** The changed records' ids: a repair writes them again whatever their content hash says. */
  rewrite: string[];
  /** Requests the listing took. */
  requests: number;
}

type ProofReads = Pick<
  SqlReader,
  "storedForDay" | "storedVersionsOfDay" | "ordersListedByLiveReport" | "timeZoneOf"
>;

/** The listed records' content hashes and rows against the stored ones. */
export function compareContent(
  listed: ReadonlyMap<string, number>,
  stored: readonly StoredVersionOfDay[],
): ContentDifference & { rewrite: string[] } {
  const difference: ContentDifference = { missing: 0, changed: 0, extra: 0 };
  const rewrite: string[] = [];
  const storedIds = new Set<string>();
  for (const version of stored) {
    storedIds.add(version.id);
    const hash = listed.get(version.id);
    if (hash === undefined) difference.extra++;
    // A row stored before content hashes has none to compare.
    else if ((version.contentHash !== null && version.contentHash !== hash) || version.rowsDiffer)
      rewrite.push(version.id);
  }
  for (const id of listed.keys()) if (!storedIds.has(id)) difference.missing++;
  difference.changed = rewrite.length;
  return { ...difference, rewrite };
}

export function contentAgrees(content: ContentDifference): boolean {
  return content.missing + content.changed + content.extra === 0;
}

/** Reads a day's listing whole and compares it with what is stored. */
export async function proveDay(
  reads: ProofReads,
  client: PosApiClient,
  stream: DayStreamDescription,
  locationId: string,
  day: string,
): Promise<DayProof> {
  const listed = new Map<string, number>();
  const rows = new Map<string, RecordRows>();
  // The rows are made on the clock the location's stored rows were (normalize-page.ts).
  const context = {
    locationId,
    businessDate: day,
    clock: LocalClock.of(await reads.timeZoneOf(locationId)),
    syncedAt: "",
  };
  const walk = readDays(stream, client, { since: day, until: day });
  for await (const page of walk)
    for (const { record, raw, hash } of page.records) {
      const recordHash = hash ?? contentHash(raw);
      listed.set(record.id, recordHash);
      rows.set(record.id, stream.toRows(record, raw, context, recordHash));
    }
  const [stored, counts] = await Promise.all([
    reads.storedVersionsOfDay(stream, locationId, day, rows),
    reads.storedForDay(stream, locationId, day),
  ]);
  const unlisted = stored.filter((v) => !listed.has(v.id)).map((v) => v.id);
  const kept = await keptOnPurpose(reads, client, stream, locationId, unlisted);
  const { rewrite, ...content } = compareContent(
    listed,
    stored.filter((v) => !kept.ids.has(v.id)),
  );
  return {
    // A walk reads its first page whatever happens, and that page carries the count.
    apiCount: walk.summary.lastTotalCount ?? listed.size,
    stored: counts,
    kept: kept.ids.size,
    content,
    rewrite,
    requests: walk.summary.pages + kept.requests,
  };
}

/**
 * Of the stored orders a day's list no longer shows, those a sync keeps on purpose
 * (vanished-records.ts): a live report lists them and the API still serves them by id. They are
 * neither extra nor counted against the listing; one the API no longer serves is.
 */
async function keptOnPurpose(
  reads: ProofReads,
  client: PosApiClient,
  stream: DayStreamDescription,
  locationId: string,
  unlisted: readonly string[],
): Promise<{ ids: Set<string>; requests: number }> {
  const ids = new Set<string>();
  if (stream.name !== "orders" || unlisted.length === 0) return { ids, requests: 0 };
  const vouched = await reads.ordersListedByLiveReport(locationId, unlisted);
  for (const id of vouched) if ((await client.order(id)) !== null) ids.add(id);
  return { ids, requests: vouched.length };
}

/** The records a proof counts against the API's count: those stored and set aside, less the
 * orders kept on purpose. */
export function provedCount(proof: DayProof): number {
  return proof.stored.records + proof.stored.rejected - proof.kept;
}

/** Whether a proof found the day as stored: the same count, the same records. */
export function dayAgrees(proof: DayProof): boolean {
  return proof.apiCount === provedCount(proof) && contentAgrees(proof.content);
}
