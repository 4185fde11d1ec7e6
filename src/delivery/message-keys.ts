/**
 * The keys messages are recorded under (deliveries.key), and how people read them. A morning
 * report's names the day and the locations it covers, never their clock: a clock is learned (the
 * offset the API's timestamps carry moves at a daylight-saving change) and may be set later
 * (POS_TIME_ZONE), and neither may make a day's report a new one for someone who had it.
 */
import { plural } from "../plural.js";

/** The deliveries' key of a day's report of these locations: `2026-11-28 of <id>,<id>`. */
export function morningReportKey(day: string, locationIds: readonly string[]): string {
  return `${day} of ${[...locationIds].sort().join(",")}`;
}

/**
 * The locations a recorded report covers, by its key; `all` for a key of the form an earlier
 * version recorded (`2026-11-28 Europe/Paris`, `2026-11-28 UTC+01:00`), which named the clock
 * rather than the locations: such a report is taken to have covered its day everywhere.
 */
export function locationsOfKey(key: string): readonly string[] | "all" {
  const named = /^\d{4}-\d\d-\d\d of (.+)$/.exec(key);
  return named ? (named[1] as string).split(",") : "all";
}

/** A message's key as people read it: a morning report's day and how many locations it covers
 * (its key lists their ids), an alert's as it is. */
export function shownMessageKey(kind: string, key: string): string {
  if (kind !== "morning report") return key;
  const locations = locationsOfKey(key);
  if (locations === "all") return key;
  return `${key.slice(0, 10)} (${locations.length} ${plural("location", locations.length)})`;
}
