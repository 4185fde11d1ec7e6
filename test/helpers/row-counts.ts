/** The row counts the triggers keep (location_row_counts), held against the rows themselves. */
import { expect } from "vitest";
import type { StoredData } from "./stored-data.js";

export async function expectRowCountsKept(stored: StoredData): Promise<void> {
  const counted = (relation: string) =>
    `SELECT '${relation}' AS relation, location_id, COUNT(*) - COUNT(deleted_at) AS live,
       COUNT(deleted_at) AS deleted
     FROM ${relation} GROUP BY location_id`;
  const kept = await stored.rows(
    `SELECT relation, location_id, live, deleted FROM location_row_counts
     WHERE live <> 0 OR deleted <> 0 ORDER BY relation, location_id`,
  );
  const actual = await stored.rows(
    `SELECT * FROM (${counted("orders")} UNION ALL ${counted("reports")}) c
     ORDER BY relation, location_id`,
  );
  expect(
    kept.map((row) => ({ ...row, live: Number(row.live), deleted: Number(row.deleted) })),
  ).toEqual(
    actual.map((row) => ({ ...row, live: Number(row.live), deleted: Number(row.deleted) })),
  );
  expect(actual.length).toBeGreaterThan(1);
}
