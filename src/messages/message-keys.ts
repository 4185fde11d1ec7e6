/**
 * The keys messages are recorded under (deliveries.key), and how people read them. A morning
 * report's names the day and the locations it covers, never their clock: a clock is learned (the
 * offset the API's timestamps carry moves at a daylight-saving change) and may be set later
 * (POS_TIME_ZONE), and neither may make a day's report a new one for someone who had it.
 */
import { createHash } from "node:crypto";
import { plural } from "../plural.js";

/** The deliveries' key of a day's report of these locations: `2026-11-28 of <id>,<id>`. */
export function morningReportKey(day: string, locationIds: readonly string[]): string {
  return `${day} of ${[...locationIds].sort().join(",")}`;
}

/**
 * The key of a report sent again on purpose (`report --resend`): its own key, so that the unique
 * key of the first one holds and the history shows both; the same locations, so that it covers
 * them as the first did; and its own Message-ID, as the outbox makes it from the key: a resend is
 * a new message, which a mail client must not fold into the first.
 */
export function resentKey(key: string, at: Date): string {
  return `${key} resent ${at.toISOString()}`;
}

const REPORT_KEY = /^(\d{4}-\d\d-\d\d) of (.+?)( resent \S+)?$/;

/**
 * The locations a recorded report covers, by its key; `all` for a key of the form an earlier
 * version recorded (`2026-11-28 Europe/Paris`, `2026-11-28 UTC+01:00`), which named the clock
 * rather than the locations: such a report is taken to have covered its day everywhere.
 */
export function locationsOfKey(key: string): readonly string[] | "all" {
  const named = REPORT_KEY.exec(key);
  return named ? (named[2] as string).split(",") : "all";
}

/** A message's key as people read it: a morning report's day and how many locations it covers
 * (its key lists their ids), and whether it was sent again; an alert's as it is. */
export function shownMessageKey(kind: string, key: string): string {
  if (kind !== "morning report") return key;
  const named = REPORT_KEY.exec(key);
  if (!named) return key;
  const locations = (named[2] as string).split(",").length;
  return `${named[1]} (${locations} ${plural("location", locations)})${named[3] ? ", resent" : ""}`;
}

/** One id per message and recipient, whatever the attempt: an e-mail's Message-ID, a webhook's
 * Idempotency-Key, by which a receiver may tell a message sent twice. A resend's key is its own,
 * and so is its id. */
export function stableMessageId(delivery: {
  kind: string;
  key: string;
  recipient: string;
}): string {
  return createHash("sha256")
    .update(`${delivery.kind}\n${delivery.key}\n${delivery.recipient}`)
    .digest("hex")
    .slice(0, 32);
}
