/**
 * The words every layer shares: the streams of a location, the states of a day window and of a
 * run, and the days a run reads. Lowest level: it imports nothing, so that the API client, the
 * storage and the engine can all speak it without depending on each other.
 *
 * One word, one meaning, in code, logs and docs:
 * - location: a place of business the API serves under one key, never a database's path;
 * - destination: the database a sync writes to; `where` names it in messages (a file's path,
 *   a server and schema);
 * - page: one answer of a list of the API (`size`/`index`); the HTML `status --html` writes
 *   and the daemon serves is the status page, rendered on the status-page thread;
 * - window: one day of one day stream of one location, read and proved as a whole;
 * - history: the earlier versions of orders (order_versions), nothing else; where a location's
 *   data starts is its first day (start_date);
 * - proof: a window's stored records found to agree with the API's listing of its day;
 * - plan: what a run reads (sync/plan.ts), or what a write does (db/rules/), decided before it
 *   happens; what a run is asked to cover (its locations, streams, days) is its scope
 *   (sync/run-scope.ts);
 * - health: whether the sync works and its data can be trusted, as /healthz answers it
 *   (daemon/health.ts), the health alerts raise it and the morning report's health line states
 *   it; the API's own is its health call (POS_PATH_HEALTH);
 * - day range: days both included (DayRange); the API's filter of a list is a Required one.
 * - report: an end-of-session report of the API (the reports stream); what pos-sync sends a
 *   manager each morning is the morning report (morning-report/, `pos-sync report`), never a
 *   bare "report"; what a probe found are its findings (probe/findings.ts);
 * - message: what leaves the machine for a person (the morning report, an alert), composed,
 *   recorded in the outbox and sent by a channel (messages/); the channels (e-mail, a webhook)
 *   are set by POS_REPORT_* and kept as `config.messages`;
 * - proof: as above; its rules and `verify` live in proof/; the audit is the sync's re-proving
 *   of stored days on a pace (sync/audit.ts), nothing else;
 * - clock: a location's today, local moments, zones and offsets, and durations as text, all kept
 *   in clock/.
 */

/** The streams of a location, in the order a run syncs them (what `--streams` takes). */
export const STREAMS = ["location", "catalog", "reports", "orders"] as const;
export type Stream = (typeof STREAMS)[number];

/** Streams read day by day with since = until = day. */
export const DAY_STREAMS = ["reports", "orders"] as const;
export type DayStream = (typeof DAY_STREAMS)[number];

export function isStream(text: string): text is Stream {
  return (STREAMS as readonly string[]).includes(text);
}

/**
 * complete: every record the API counts is stored, and the day is over. open: the same, but the
 * day was still going (today): the next run reads it again. incomplete, failed: not proven.
 * suspicious: read completely, but the API suddenly lists far fewer records than are stored, so
 * nothing was marked deleted; the next run reads it again.
 */
export type WindowStatus = "complete" | "open" | "incomplete" | "failed" | "suspicious";

export type RunStatus = "running" | "succeeded" | "partial" | "failed" | "interrupted";
export type RunTrigger = "cli" | "daemon" | "demo" | "repair";

/** How a run ended, as the rules of the sync's health read the run log (alerts/sync-failing.ts). */
export interface RunOutcome {
  status: string;
  startedAt: string;
  error: string | null;
}

/** One business day of one location (YYYY-MM-DD on its clock). */
export interface LocationDay {
  locationId: string;
  day: string;
}

/** A stored day found disagreeing with the API after it was proved: by what, and how. */
export interface RepairFinding {
  day: string;
  foundBy: "audit" | "verify";
  /** The API's count and the records stored (live and rejected); null when not counted (a
   * report's day that does not agree with its orders). */
  apiCount: number | null;
  storedCount: number | null;
  /** Listed and not stored, stored with other content, stored and no longer listed; null when
   * the content was not compared (the counts differed already). */
  missing: number | null;
  changed: number | null;
  extra: number | null;
  /** The changed records: written again whatever their content hash says (a hand edit of their
   * rows leaves it as it was). */
  rewrite?: readonly string[];
}

/** Days of each location (by id) and day stream to read again, and no others: what `verify
 * --repair` found disagreeing with the API. */
export type RepairDays = Readonly<
  Record<string, Partial<Record<DayStream, readonly RepairFinding[]>>>
>;

/** Days, both included (YYYY-MM-DD): the days asked for explicitly, where without `until` they
 * run through each location's own today (a location ahead of UTC is already on a day that UTC
 * has not reached); the API's filter of a list, `Required<DayRange>`. */
export interface DayRange {
  since: string;
  until?: string;
}
