/**
 * What a stream is, in one typed object: its name, how the API lists it, the schema each record
 * must pass, the tables it fills and how a record becomes their rows, its primary key. The
 * engine, the storage, status and verify iterate over these descriptions (index.ts); no code
 * outside a description branches on a stream's name. Modelled on the `streams()` list of an
 * Airbyte source: one small object per stream.
 *
 * Two families: day streams, read one day window at a time (orders, reports), and snapshot
 * lists, which the API returns whole (the catalog lists, the devices).
 */
import type { z } from "zod";
import type { ListFilter, Listing, PosApiClient } from "../api/client.js";
import type { PageWalk } from "../api/pagination.js";
import type { ValidatedRecords } from "../api/validate.js";
import type {
  DayStreamTables,
  Identified,
  ListRowContext,
  SnapshotListTables,
} from "../db/normalize/stream-tables.js";
import type { SnapshotRowSet } from "../db/rules/snapshot.js";

export interface DayStreamDescription<T extends Identified = Identified>
  extends DayStreamTables<T> {
  /** The list operation, read with since = until = the day. */
  readonly listing: Listing;
  readonly schema: z.ZodType<T>;
  /** Stored reports list this stream's records (orders): one missing from every list may still
   * exist, so it is asked for by id before it is marked deleted (see sync/vanished-records.ts). */
  readonly vouchedByReports?: boolean;
}

export interface SnapshotListDescription<T extends Identified = Identified>
  extends SnapshotListTables<T> {
  readonly schema: z.ZodType<T>;
}

/** A catalog list: one request returns it whole. */
export interface CatalogListDescription<T extends Identified = Identified>
  extends SnapshotListDescription<T> {
  readonly listing: Listing;
}

/** `toRows` of a list whose records have no arrays: one row each, no child rows. */
export function withoutChildren<T>(
  normalize: (record: T, raw: string, context: ListRowContext) => SnapshotRowSet["parent"],
): (record: T, raw: string, context: ListRowContext) => SnapshotRowSet {
  return (record, raw, context) => ({ parent: normalize(record, raw, context), children: [] });
}

/** Reads one day (or a span) of a day stream, page by page. */
export function readDays<T extends Identified>(
  stream: DayStreamDescription<T>,
  client: PosApiClient,
  filter: ListFilter,
): PageWalk<z.ZodType<T>> {
  return client.walk(stream.listing, stream.schema, filter);
}

/** The API's count of a day stream's records in a span, read with size=1. */
export function countDays(
  stream: DayStreamDescription,
  client: PosApiClient,
  span: ListFilter,
): Promise<number> {
  return client.count(stream.listing, span);
}

/** Reads a catalog list whole. */
export function readList<T extends Identified>(
  list: CatalogListDescription<T>,
  client: PosApiClient,
): Promise<ValidatedRecords<T>> {
  return client.list(list.listing, list.schema);
}
