/**
 * The marks of the summaries left to recompute (summary_pending), as SQL both destinations run.
 * A write marks the days and reports it changed, in its own transaction; a settle takes the marks
 * it recomputes, deleting them as it reads them, and recomputes them (rollups.ts) in the same
 * transaction: a settle that fails leaves them marked for the next.
 */
import type { LocationDay } from "../../vocabulary.js";
import type { SqlDialect } from "./dialect.js";

export type MarkKind = "day" | "report";

/** Marks keys of one kind (days, or report ids) of a location: parameter 1 the location,
 * 2 the keys (a list, `dialect.list`). */
export const markSql = (d: SqlDialect, kind: MarkKind) =>
  `INSERT INTO summary_pending (kind, location_id, key)
   SELECT '${kind}', CAST(${d.param(1)} AS TEXT), m.value FROM ${d.elements(2, "m")}
   WHERE true ON CONFLICT DO NOTHING`;
// (`WHERE true`: SQLite reads an ON after a SELECT's FROM as a join's, but for a WHERE between.
// The location is cast: PostgreSQL types a parameter by what it meets, and a SELECT's list
// meets nothing.)

/** Days to mark, as markSql takes them: their keys by location, each once. */
export function keysByLocation(days: Iterable<LocationDay>): Map<string, string[]> {
  const keys = new Map<string, Set<string>>();
  for (const { locationId, day } of days) {
    const of = keys.get(locationId);
    if (of) of.add(day);
    else keys.set(locationId, new Set([day]));
  }
  return new Map([...keys].map(([locationId, of]) => [locationId, [...of]]));
}

/**
 * Takes the marks a settle recomputes, as (kind, location_id, key): those of the location
 * parameter 1 (of every location, for null), of every day (parameter 3 = 1), or else of its
 * reports and of the day parameter 2 alone (none for null). Marks another transaction holds are
 * left to it: it recomputes them.
 */
export const takeMarksSql = (d: SqlDialect) => {
  // Typed: PostgreSQL cannot tell a parameter's type from IS NULL.
  const [location, day, everyDay] = [`CAST(${d.param(1)} AS TEXT)`, d.param(2), d.param(3)];
  const picked = `(${location} IS NULL OR location_id = ${location})
    AND (${everyDay} = 1 OR kind = 'report' OR key = ${day})`;
  return `DELETE FROM summary_pending WHERE ${d.unlocked("summary_pending", picked)}
    RETURNING kind, location_id, key`;
};

/** takeMarksSql's parameters: `day` undefined for every day. */
export function takeMarksParams(locationId: string | null, day: string | null | undefined) {
  return [locationId, day ?? null, day === undefined ? 1 : 0];
}

/** A mark taken. */
export interface SummaryMark {
  kind: MarkKind;
  location_id: string;
  key: string;
}
