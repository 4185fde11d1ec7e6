/**
 * A page of a day window, and its records normalized into rows on the clock of their location:
 * pure work, done by the sync (sync/normalize-page.ts) before the page is handed to storage.
 */
import type { RejectedRecord, ValidRecord } from "../../api/validate.js";
import type { LocalClock } from "../../clock/local-clock.js";
import type { IncomingRecord } from "../rules/day-page.js";
import { packChildren } from "../rules/record-rows.js";
import type { DayStreamTables, Identified } from "./stream-tables.js";
import type { DayRowContext } from "./values.js";

/** A page of a day window, as the API client hands it over. */
export interface DayPage {
  locationId: string;
  day: string;
  /** Taken by the store that writes the page (sync/normalize-page.ts): left empty. */
  records: ValidRecord<Identified>[];
  rejects: readonly RejectedRecord[];
  runId: number | null;
  syncedAt: string;
  /** Set on a repair's read (the audit's, verify --repair's): the records a proof found stored
   * with other rows than the API's, written again whatever their content hash says (possibly
   * none). Its replacements are the database catching up, kept in history as such. */
  rewrite?: readonly string[];
}

/** A page without its records: what the write needs beside the records' rows. */
export type PageHeader = Omit<DayPage, "records">;

export function headerOf({ records: _records, ...header }: DayPage): PageHeader {
  return header;
}

/** On a repair's page: the records it writes again whatever their content hash says. */
export function rewriteOf(page: PageHeader): ReadonlySet<string> | undefined {
  return page.rewrite && new Set(page.rewrite);
}

/** What the rows of a page's records share: their location, day and clock. */
export function rowContextOf(page: DayPage, clock: LocalClock): DayRowContext {
  return { locationId: page.locationId, businessDate: page.day, clock, syncedAt: page.syncedAt };
}

/** A record of a page as rows, with its JSON for the raw archive. */
export function prepareRecord(
  stream: DayStreamTables,
  { record, raw, hash }: ValidRecord<Identified>,
  context: DayRowContext,
): IncomingRecord {
  const { parent, children } = stream.toRows(record, raw, context, hash);
  return { rows: { parent, children: packChildren(stream.childTables, children) }, raw };
}
