/**
 * Walking a table's rows that an upgrade has yet to fill, by key, a batch per transaction:
 * interrupted, the next open carries on with the rows still unfilled.
 */
import type Database from "better-sqlite3";
import type { UpgradeProgress } from "../../upgrade-progress.js";
import { writeTransaction } from "../transaction.js";

export interface UnfilledRows<Row extends { key: number }> {
  upgrade: string;
  /** The part named in the progress (a table). */
  part: string;
  /** How many rows are to fill. */
  count: Database.Statement<[], number>;
  /** The next rows to fill after a key, in key order, at most a limit. */
  next: Database.Statement<[number, number], Row>;
  /** Fills one row. */
  fill: (row: Row) => void;
}

export function fillInBatches<Row extends { key: number }>(
  sqlite: Database.Database,
  rows: UnfilledRows<Row>,
  onProgress: (progress: UpgradeProgress) => void,
  batchRows: number,
): void {
  const total = Number(rows.count.pluck().get());
  if (total === 0) return;
  /** Fills the next batch after `after`; returns how many and the key reached. */
  const fillBatch = writeTransaction(sqlite, (after: number) => {
    const batch = rows.next.all(after, batchRows);
    for (const row of batch) rows.fill(row);
    return { filled: batch.length, reached: batch.at(-1)?.key ?? after };
  });
  let done = 0;
  const report = () =>
    onProgress({ upgrade: rows.upgrade, part: rows.part, done: done / total, items: total });
  report();
  for (let after = 0; ; ) {
    const { filled, reached } = fillBatch(after);
    if (filled === 0) break;
    done = Math.min(total, done + filled);
    after = reached;
    report();
  }
}
