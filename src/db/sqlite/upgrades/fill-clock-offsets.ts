/**
 * The clock-offset upgrade: rows stored before the date-times' offsets existed
 * (`closed_at_offset` …: schema/columns.ts, clockColumns) get them, on their location's clock as
 * the rows stored since do (rules/time-zone-change.ts; an order's versions as history keeps them:
 * history/versions.ts). Until then the views show those rows' wall clocks as null.
 */
import type Database from "better-sqlite3";
import { LocalClock } from "../../../clock/local-clock.js";
import { versionOffsets } from "../../history/versions.js";
import {
  CLOCKED_TABLE_NAMES,
  CLOCKED_TABLES,
  type ClockedTable,
  clockValues,
} from "../../rules/time-zone-change.js";
import { offsetColumn } from "../../schema/columns.js";
import { FILL_CLOCK_OFFSETS, type UpgradeProgress } from "../../upgrade-progress.js";
import { prepareClockedUpdate } from "../location-clocks.js";
import { fillInBatches } from "./batches.js";

/** Rows per transaction: a few small integers each, so a batch is cheap to redo. */
const BATCH_ROWS = 5_000;

type StoredRow = { key: number; time_zone: string | null } & Record<string, string | null>;

/** A location's clock by its stored setting. */
const clockOf = (row: StoredRow) => LocalClock.of(row.time_zone);

export function fillClockOffsets(
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void = () => {},
  batchRows = BATCH_ROWS,
): void {
  for (const table of CLOCKED_TABLE_NAMES) fillTable(sqlite, table, onProgress, batchRows);
  fillVersions(sqlite, onProgress, batchRows);
}

function fillTable(
  sqlite: Database.Database,
  table: ClockedTable,
  onProgress: (progress: UpgradeProgress) => void,
  batchRows: number,
): void {
  // Through the relation, which names the location (order_rows keeps it by key).
  const { relation: from, dateTimes: sent } = CLOCKED_TABLES[table];
  const unfilled = `t.${offsetColumn(sent[0])} IS NULL`;
  const update = prepareClockedUpdate(sqlite, table);
  fillInBatches<StoredRow>(
    sqlite,
    {
      upgrade: FILL_CLOCK_OFFSETS,
      part: from,
      count: sqlite.prepare(`SELECT COUNT(*) FROM ${from} t WHERE ${unfilled}`),
      next: sqlite.prepare(
        `SELECT t.key, l.time_zone, ${sent.map((c) => `t.${c}`).join(", ")} FROM ${from} t
         LEFT JOIN locations l ON l.id = t.location_id
         WHERE t.key > ? AND ${unfilled} ORDER BY t.key LIMIT ?`,
      ),
      fill: (row) => {
        const texts: Record<string, string> = {};
        for (const column of sent) if (row[column] !== null) texts[column] = String(row[column]);
        update.run({ ...clockValues(table, texts, clockOf(row)), key: row.key });
      },
    },
    onProgress,
    batchRows,
  );
}

/** An order's earlier versions: their offsets as history would have kept them then. */
function fillVersions(
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void,
  batchRows: number,
): void {
  // The columns versionOffsets fills, whatever it is given.
  const filled = Object.keys(versionOffsets({}));
  const update = sqlite.prepare<[Record<string, number | null>]>(
    `UPDATE order_version_rows SET ${filled.map((c) => `${c} = @${c}`).join(", ")}
     WHERE rowid = @key`,
  );
  fillInBatches<StoredRow>(
    sqlite,
    {
      upgrade: FILL_CLOCK_OFFSETS,
      part: "order_versions",
      count: sqlite.prepare(
        "SELECT COUNT(*) FROM order_version_rows WHERE closed_at_offset IS NULL",
      ),
      next: sqlite.prepare(
        `SELECT v.rowid AS key, l.time_zone, v.closed_at, v.updated_at, v.next_updated_at
         FROM order_version_rows v LEFT JOIN locations l ON l.id = v.location_id
         WHERE v.rowid > ? AND v.closed_at_offset IS NULL ORDER BY v.rowid LIMIT ?`,
      ),
      fill: (row) => {
        const clock = clockOf(row);
        const offsetOf = (text: string | null) => (text === null ? null : clock.offsetOf(text));
        const stored = {
          closed_at_offset: offsetOf(row.closed_at ?? null),
          updated_at_offset: offsetOf(row.updated_at ?? null),
        };
        const next =
          row.next_updated_at === null
            ? undefined
            : { updated_at_offset: offsetOf(row.next_updated_at ?? null) };
        update.run({ ...versionOffsets(stored, next), key: row.key });
      },
    },
    onProgress,
    batchRows,
  );
}
