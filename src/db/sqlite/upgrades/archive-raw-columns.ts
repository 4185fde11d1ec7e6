/**
 * The raw-archive upgrade: databases written before the raw archive kept each record's JSON in a
 * `raw` column of its typed table. This moves that JSON into `raw_records` (compressed, as the
 * sync now writes it), gives each row its content hash, then drops the column.
 *
 * It works in batches, each one transaction: an interruption loses at most the batch in hand, and
 * the next start carries on from the rows that still have no content hash. Every batch checks
 * again, under the write lock, what is left to do, so two processes starting at once take turns
 * rather than trip over each other. Nothing is lost: a row's JSON leaves its column in the same
 * transaction that archives it.
 */
import type Database from "better-sqlite3";
import { contentHash } from "../../../content-hash.js";
import { ARCHIVED_TABLES } from "../../raw/archived-tables.js";
import { ARCHIVE_RAW_COLUMNS, type UpgradeProgress } from "../../upgrade-progress.js";
import { RawArchive } from "../raw-archive.js";
import { writeTransaction } from "../transaction.js";

/** Rows per transaction: large enough that commits cost little, small enough that an
 * interruption loses little (about half a megabyte of JSON). */
const BATCH_ROWS = 200;

interface RawRow {
  rowid: number;
  location_id: string;
  id: string;
  raw: string;
  synced_at: string;
}

function hasRawColumn(sqlite: Database.Database, table: string): boolean {
  return sqlite
    .prepare<[string], { name: string }>("SELECT name FROM pragma_table_info(?)")
    .all(table)
    .some((column) => column.name === "raw");
}

/** Whether any typed table still holds raw JSON: then the upgrade has work to do. */
export function needsRawArchiveUpgrade(sqlite: Database.Database): boolean {
  return ARCHIVED_TABLES.some(({ table }) => hasRawColumn(sqlite, table));
}

/** Moves one table's raw column into the archive, batch by batch, then drops the column. */
function archiveTable(
  sqlite: Database.Database,
  archive: RawArchive,
  { table, locationColumn }: (typeof ARCHIVED_TABLES)[number],
  onProgress: (progress: UpgradeProgress) => void,
  now: () => string,
): void {
  if (!hasRawColumn(sqlite, table)) return;
  const rows = Number(sqlite.prepare(`SELECT COUNT(*) FROM "${table}"`).pluck().get());
  const lastRowid = Number(sqlite.prepare(`SELECT MAX(rowid) FROM "${table}"`).pluck().get() ?? 0);
  // Walks the table once by rowid: rows moved before an interruption are passed over (their
  // JSON is gone from them, so they are small), never read again batch after batch.
  const select = sqlite.prepare<[number, number], RawRow>(
    `SELECT rowid AS rowid, "${locationColumn}" AS location_id, id, raw, synced_at FROM "${table}"
     WHERE rowid > ? AND content_hash IS NULL ORDER BY rowid LIMIT ?`,
  );
  const update = sqlite.prepare<[number, number]>(
    `UPDATE "${table}" SET content_hash = ?, raw = '' WHERE rowid = ?`,
  );
  /** Moves the next batch after `after`; returns the rowid reached, or undefined at the end. */
  const moveBatch = writeTransaction(sqlite, (after: number): number | undefined => {
    if (!hasRawColumn(sqlite, table)) return undefined;
    const batch = select.all(after, BATCH_ROWS);
    if (batch.length === 0) return undefined;
    archive.learnFrom(table, batch, now());
    for (const row of batch) {
      archive.put({
        tableName: table,
        locationId: row.location_id,
        id: row.id,
        raw: row.raw,
        syncedAt: row.synced_at,
      });
      update.run(contentHash(row.raw), row.rowid);
    }
    return batch[batch.length - 1]?.rowid;
  });
  // Progress goes from 0 to 1 once; an empty table (a new database) has nothing to show.
  let shown = -1;
  const report = (rowid: number) => {
    const done = lastRowid === 0 ? 1 : Math.min(1, rowid / lastRowid);
    if (rows === 0 || done === shown) return;
    shown = done;
    onProgress({ upgrade: ARCHIVE_RAW_COLUMNS, part: table, done, items: rows });
  };
  report(0);
  for (let at = moveBatch(0); at !== undefined; at = moveBatch(at)) report(at);
  report(lastRowid);
  writeTransaction(sqlite, () => {
    const left = sqlite.prepare(`SELECT 1 FROM "${table}" WHERE content_hash IS NULL LIMIT 1`);
    if (hasRawColumn(sqlite, table) && left.get() === undefined)
      sqlite.exec(`ALTER TABLE "${table}" DROP COLUMN raw`);
  })();
}

/** Runs the upgrade to its end (or on from where an interruption left it). */
export function archiveRawColumns(
  sqlite: Database.Database,
  onProgress: (progress: UpgradeProgress) => void = () => {},
  now: () => string = () => new Date().toISOString(),
): void {
  // Whatever the sync's setting: the JSON an older version kept is never thrown away here.
  const archive = new RawArchive(sqlite, { keep: true });
  for (const table of ARCHIVED_TABLES) archiveTable(sqlite, archive, table, onProgress, now);
}
