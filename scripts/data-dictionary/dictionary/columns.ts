/** Entries for the columns many tables share (see src/db/schema/columns.ts), written once. */
import type { ColumnDoc } from "./types.js";

/** A column whose value comes straight from an API field. */
export const api = (from: string, meaning: string): ColumnDoc => ({ from, meaning });

/** A column pos-sync computes or keeps for itself. */
export const derived = (meaning: string): ColumnDoc => ({ from: null, meaning });

export const locationId = (): ColumnDoc =>
  derived(
    "The location (locations.id) whose API key read this row; every table carries it so that joins read alike.",
  );

/** @param what the record, e.g. "order" */
export const contentHash = (what: string): ColumnDoc =>
  derived(
    `Fingerprint of the ${what}'s JSON as received (the first 48 bits of its SHA-1, a whole number): a record whose hash has not changed is not rewritten. The JSON itself is in raw_records (pos-sync raw).`,
  );

export const syncedAt = (): ColumnDoc =>
  derived(
    "When pos-sync last wrote the row (UTC, ISO 8601); an unchanged record is not rewritten, so this is when its last change arrived.",
  );

/** @param list the API list the rows are a snapshot of, e.g. "products" */
export const deletedAt = (list: string): ColumnDoc =>
  derived(
    `When the row went missing from the API's ${list} list (UTC, ISO 8601); null while the API lists it, cleared when it comes back.`,
  );

/** For orders and reports, which the API lists per day rather than as one whole list. */
export const dayRecordDeletedAt = (record: string): ColumnDoc =>
  derived(
    `When a complete re-read of the ${record}'s day stopped listing it (voided upstream; UTC, ISO 8601); null while the API lists it, cleared when it comes back. Such rows are kept for audit and count in no view.`,
  );

/** @param array the API array, e.g. "items[]" */
export const position = (array: string): ColumnDoc =>
  derived(`Index of the element in \`${array}\` (0 = first), keeping the API's order.`);

/** A full sentence from a clause that gets the time format and an optional note. */
const timed = (when: string, format: string, note?: string): string =>
  note === undefined ? `${when} (${format}).` : `${when} (${format}); ${note}.`;

/** A date-time column: TEXT exactly as the API sent it. @param when e.g. "When the order was opened" */
export const sentAt = (from: string, when: string, note?: string): ColumnDoc =>
  api(from, timed(when, "ISO 8601 with offset, as sent", note));

/** The offset kept beside a date-time (schema/columns.ts, clockColumns). @param what e.g.
 * "created_at" */
export const clockOffset = (what: string): ColumnDoc =>
  derived(
    `Minutes the location's clock was ahead of UTC at ${what} (60 for +01:00): the offset ${what} was sent with, or, where the API sends UTC, the location's time zone setting's at that instant (summer time included); 0 when it sends UTC and no setting is made. The views show ${what} on the location's wall clock: the instant plus this. Recomputed when the setting changes.`,
  );

/** A time pos-sync writes. @param when e.g. "When the run started" */
export const utc = (when: string, note?: string): ColumnDoc =>
  derived(timed(when, "UTC, ISO 8601", note));

/** A 0/1 flag. @param when e.g. "when the order was cancelled" @param note a full sentence */
export const flag = (from: string, when: string, note?: string): ColumnDoc =>
  api(from, note === undefined ? `1 ${when}, 0 otherwise.` : `1 ${when}, 0 otherwise. ${note}`);

/** The day window a record was listed under (the business_date of orders and reports). */
export const businessDate = (what: string): ColumnDoc =>
  derived(
    `Day (YYYY-MM-DD) the API lists the ${what} under when asked for that single day (since = until): the API's own day bucketing, the local calendar date of created_at.`,
  );

/** The closing hour, in orders and in the views that carry it. */
export const CLOSED_HOUR =
  "Hour (0-23) the order was closed, on the location's clock: the hour closed_at shows when the API sends the location's offset (2026-11-21T23:59:58+01:00 → 23); when it sends UTC (…Z or +00:00), converted with the location's time zone setting (locations.time_zone: POS_TIME_ZONE, or the location's timeZone in the config file), summer time included, and UTC's hour when none is set.";
