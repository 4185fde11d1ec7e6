/**
 * Marking the records a complete read of their day no longer lists deleted (soft: their rows
 * stay for audit, every view leaves them out), as SQL both destinations run. The days are read
 * first, in the same transaction: those of the records the mark changes, whose summaries follow.
 */
import type { SqlDialect } from "./dialect.js";

/** The location days the live ones of the records (parameter 1, a list of ids) are listed
 * under, as (locationId, day): read through the records' relation, which names the location
 * (the table may keep it by key). */
export const vanishedDaysSql = (d: SqlDialect, relation: string) =>
  `SELECT DISTINCT location_id AS "locationId", business_date AS day FROM "${relation}"
   WHERE ${d.inList("id", 1)} AND deleted_at IS NULL`;

/** Marks the live ones of the records (parameter 1, a list of ids) deleted at parameter 2. */
export const markVanishedSql = (d: SqlDialect, table: string) =>
  `UPDATE "${table}" SET deleted_at = ${d.param(2)}
   WHERE ${d.inList("id", 1)} AND deleted_at IS NULL`;
