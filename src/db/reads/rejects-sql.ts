/** The records a stream set aside, counted as status and the day facts count them. */

import type { DayStreamTables } from "../normalize/stream-tables.js";
import { relationName } from "../schema/relations.js";
import type { SqlDialect } from "../sql/dialect.js";

/**
 * Rejects counted once per record (a record set aside twice under two keys, by a window read
 * and by a read by id, is one record), leaving out those whose record is stored live now.
 * Parameters: location, stream, then the caller's; `by` groups them (a column of rr).
 */
export function distinctRejectsSql(
  dialect: SqlDialect,
  stream: DayStreamTables,
  where: string,
  by?: string,
): string {
  return `SELECT ${by ? `${by}, ` : ""}COUNT(DISTINCT COALESCE(rr.record_id, rr.record_key)) AS n
      FROM rejected_records rr
      WHERE rr.location_id = ${dialect.param(1)} AND rr.stream = ${dialect.param(2)} AND ${where}
        AND NOT EXISTS (
          SELECT 1 FROM "${relationName(stream.table)}" t
          WHERE t.id = rr.record_id AND t.location_id = rr.location_id AND t.deleted_at IS NULL
        )${by ? ` GROUP BY ${by}` : ""}`;
}
