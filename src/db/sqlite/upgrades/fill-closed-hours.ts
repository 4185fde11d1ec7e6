/**
 * The closing-hour upgrade: orders stored before orders.closed_hour existed get it, on their
 * location's clock (locations.time_zone, hours as the API wrote them when none is applied). It
 * runs before the rollup upgrade, whose hourly summaries group by this column.
 */
import type Database from "better-sqlite3";
import { LocalClock } from "../../../clock/local-clock.js";
import { FILL_CLOSED_HOURS, type UpgradeProgress } from "../../upgrade-progress.js";
import { fillInBatches } from "./batches.js";

/** Orders per transaction: an hour is a few bytes, so a batch is cheap to redo. */
const BATCH_ROWS = 5_000;

interface UnstampedOrder {
  key: number;
  closed_at: string;
  time_zone: string | null;
}

export function fillClosedHours(
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void = () => {},
  batchRows = BATCH_ROWS,
): void {
  const update = sqlite.prepare<[number | null, number]>(
    "UPDATE order_rows SET closed_hour = ? WHERE key = ?",
  );
  fillInBatches<UnstampedOrder>(
    sqlite,
    {
      upgrade: FILL_CLOSED_HOURS,
      part: "orders",
      count: sqlite.prepare("SELECT COUNT(*) FROM orders WHERE closed_hour IS NULL"),
      next: sqlite.prepare(
        `SELECT o.key, o.closed_at, l.time_zone FROM orders o
         LEFT JOIN locations l ON l.id = o.location_id
         WHERE o.key > ? AND o.closed_hour IS NULL ORDER BY o.key LIMIT ?`,
      ),
      fill: (row) => update.run(LocalClock.of(row.time_zone).hourOf(row.closed_at), row.key),
    },
    onProgress,
    batchRows,
  );
}
