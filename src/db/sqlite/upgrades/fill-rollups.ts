/**
 * The rollup upgrade: a database made before the daily summary tables gets them filled from its
 * orders, a few days per transaction. Interrupted, it carries on with the days that have no
 * summary yet; days a sync summarized meanwhile are already right and are passed over.
 */
import type Database from "better-sqlite3";
import { FILL_ROLLUPS, type UpgradeProgress } from "../../upgrade-progress.js";
import { Rollups } from "../rollups.js";
import { writeTransaction } from "../transaction.js";

/** Location days per transaction (a day of a busy location is a few hundred orders). */
const BATCH_DAYS = 50;

export function fillRollups(
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void = () => {},
): void {
  const days = sqlite
    .prepare<[], { locationId: string; day: string }>(
      `SELECT DISTINCT location_id AS locationId, business_date AS day FROM orders
       WHERE deleted_at IS NULL ORDER BY location_id, business_date`,
    )
    .all();
  const reports = sqlite.prepare<[], string>("SELECT id FROM reports").pluck().all();
  if (days.length === 0 && reports.length === 0) return;
  const summarized = sqlite.prepare<[string, string]>(
    "SELECT 1 FROM daily_sales WHERE location_id = ? AND business_date = ?",
  );
  const rollups = new Rollups(sqlite);
  // Every report is recomputed below, once: the days' own reports are not recomputed here.
  const fillBatch = writeTransaction(sqlite, (batch: typeof days) => {
    rollups.refreshDays(batch.filter(({ locationId, day }) => !summarized.get(locationId, day)));
  });
  const report = (done: number) =>
    onProgress({ upgrade: FILL_ROLLUPS, part: "daily summaries", done, items: days.length });
  for (let start = 0; start < days.length; start += BATCH_DAYS) {
    report(start / days.length);
    fillBatch(days.slice(start, start + BATCH_DAYS));
  }
  const fillReports = writeTransaction(sqlite, (batch: string[]) => rollups.refreshReports(batch));
  for (let start = 0; start < reports.length; start += BATCH_DAYS * 4)
    fillReports(reports.slice(start, start + BATCH_DAYS * 4));
  report(1);
}
