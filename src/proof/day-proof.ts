/**
 * Proving a stored day against the API's listing of it, record by record: the day's pages read
 * whole, each listed record normalized to the rows it makes and held against what is stored for
 * it (its content hash, and its rows in every relation of the contract: a hand edit of the rows
 * leaves the hash as it was), and the day's count against the records stored live and set
 * aside. Shared by `verify --repair` and the daemon's audit; whether the day agrees is
 * agreement.ts's rule.
 */
import type { PosApiClient } from "../api/client.js";
import { LocalClock } from "../clock/local-clock.js";
import { contentHash } from "../content-hash.js";
import type { RecordRows } from "../db/reads/comparable-rows.js";
import type { DayFactReads, StoredVersionOfDay } from "../db/reads/day-facts.js";
import type { LocationReads } from "../db/reads/locations.js";
import { type DayStreamDescription, readDays } from "../streams/index.js";
import type { ContentDifference, DayAccount } from "./agreement.js";
import { sortUnlisted } from "./kept-on-purpose.js";

export interface DayProof extends DayAccount {
  /** The API's count of the day: its listing's totalCount. */
  apiCount: number;
  /** Of the live ones, orders no list shows that a sync keeps on purpose (kept-on-purpose.ts). */
  kept: number;
  content: ContentDifference;
  /** The changed records' ids: a repair writes them again whatever their content hash says. */
  rewrite: string[];
  /** Requests the listing took. */
  requests: number;
}

/** The stores a proof reads: the location's clock, and what is stored of the day. */
interface ProofReads {
  locations: Pick<LocationReads, "timeZoneOf">;
  days: Pick<DayFactReads, "storedForDay" | "storedVersionsOfDay" | "ordersListedByLiveReport">;
}

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
    clock: LocalClock.of(await reads.locations.timeZoneOf(locationId)),
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
    reads.days.storedVersionsOfDay(stream, locationId, day, rows),
    reads.days.storedForDay(stream, locationId, day),
  ]);
  const unlisted = stored.filter((v) => !listed.has(v.id)).map((v) => v.id);
  const { kept, requests } = await sortUnlisted(reads.days, client, stream, locationId, unlisted);
  const { rewrite, ...content } = compareContent(
    listed,
    stored.filter((v) => !kept.has(v.id)),
  );
  return {
    // A walk reads its first page whatever happens, and that page carries the count.
    apiCount: walk.summary.lastTotalCount ?? listed.size,
    stored: counts.records,
    rejected: counts.rejected,
    kept: kept.size,
    content,
    rewrite,
    requests: walk.summary.pages + requests,
  };
}
