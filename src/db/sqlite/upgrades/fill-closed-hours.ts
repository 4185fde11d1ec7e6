/**
 * The closing-hour upgrade: orders stored before orders.closed_hour existed get it, on their
 * location's clock (locations.time_zone, hours as the API wrote them when none is applied). It
 * walks the table once by rowid, a batch per transaction; interrupted, it carries on with the
 * orders that still have no hour. It runs before the rollup upgrade, whose hourly summaries group
 * by this column.
 */
import type Database from "better-sqlite3";
import { LocalClock } from "../../../clock/local-clock.js";
import { FILL_CLOSED_HOURS, type UpgradeProgress } from "../../upgrade-progress.js";
import { writeTransaction } from "../transaction.js";

/** Orders per transaction: an hour is a few bytes, so a batch is cheap to redo. */
const BATCH_ROWS = 5_000;

interface UnstampedOrder {
  rowid: number;
  closed_at: string;
  time_zone: string | null;
}

export function fillClosedHours(
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void = () => {},
  batchRows = BATCH_ROWS,
): void {
  const total = Number(
    sqlite.prepare("SELECT COUNT(*) FROM orders WHERE closed_hour IS NULL").pluck().get(),
  );
  if (total === 0) return;
  const select = sqlite.prepare<[number, number], UnstampedOrder>(
    `SELECT o.key AS rowid, o.closed_at, l.time_zone FROM orders o
     LEFT JOIN locations l ON l.id = o.location_id
     WHERE o.key > ? AND o.closed_hour IS NULL ORDER BY o.key LIMIT ?`,
  );
  const update = sqlite.prepare<[number | null, number]>(
    "UPDATE order_rows SET closed_hour = ? WHERE key = ?",
  );
  /** Stamps the next batch after `after`; returns how many and the rowid reached. */
  const stampBatch = writeTransaction(sqlite, (after: number) => {
    const batch = select.all(after, batchRows);
    for (const row of batch)
      update.run(LocalClock.of(row.time_zone).hourOf(row.closed_at), row.rowid);
    return { stamped: batch.length, reached: batch.at(-1)?.rowid ?? after };
  });
  let done = 0;
  const report = () =>
    onProgress({ upgrade: FILL_CLOSED_HOURS, part: "orders", done: done / total, items: total });
  report();
  for (let after = 0; ; ) {
    const { stamped, reached } = stampBatch(after);
    if (stamped === 0) break;
    done = Math.min(total, done + stamped);
    after = reached;
    report();
  }
}
