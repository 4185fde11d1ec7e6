/**
 * A page of a day window, and its records normalized into rows on the clock of their location:
 * pure work, done by the sync (sync/normalize-page.ts) before the page is handed to storage.
 */
import type { RejectedRecord, ValidRecord } from "../../api/validate.js";
import type { LocalClock } from "../../local-clock.js";
import type { DayStreamTables, Identified } from "../stream-tables.js";
import type { IncomingRecord } from "../writers/replace.js";

/** A page of a day window, as the API client hands it over. */
export interface DayPage {
  locationId: string;
  day: string;
  /** Taken by the store that writes the page (sync/normalize-page.ts): left empty. */
  records: ValidRecord<Identified>[];
  rejects: readonly RejectedRecord[];
  runId: number | null;
  syncedAt: string;
}

/** A page without its records: what the write needs beside the records' rows. */
export type PageHeader = Omit<DayPage, "records">;

export function headerOf({ records: _records, ...header }: DayPage): PageHeader {
  return header;
}

/** A page's records as rows, each with its JSON for the raw archive. */
export function prepareRecords(
  stream: DayStreamTables,
  page: DayPage,
  clock: LocalClock,
): IncomingRecord[] {
  const context = {
    locationId: page.locationId,
    businessDate: page.day,
    clock,
    syncedAt: page.syncedAt,
  };
  return page.records.map(({ record, raw, hash }) => ({
    rows: stream.toRows(record, raw, context, hash),
    raw,
  }));
}
