/**
 * The raw archive (`raw_records`): the JSON of each record as received, compressed, one row per
 * record, apart from the typed tables. The writers hand it the records they inserted or replaced;
 * unchanged records cost nothing. With the archive switched off, a changed record's earlier JSON
 * is removed rather than left stale.
 */
import type Database from "better-sqlite3";
import { buildDictionary, compressRaw, decompressRaw } from "./codec.js";
import type { CompressionDictionary } from "./compression-thread.js";

export interface RawArchiveOptions {
  /** False: keep no raw JSON (`POS_KEEP_RAW=false`). */
  keep: boolean;
}

/** A record's JSON compressed ahead of its write (compression-thread.ts), with the dictionary
 * it was compressed with. */
export interface CompressedRaw {
  dictionaryId: number;
  payload: Buffer;
}

export interface ArchivedRecord {
  tableName: string;
  locationId: string;
  id: string;
  raw: string;
  syncedAt: string;
  compressed?: CompressedRaw | undefined;
}

type Dictionary = CompressionDictionary;

export class RawArchive {
  readonly keep: boolean;
  private readonly upsert: Database.Statement<
    [string, string, string, number | null, Buffer, string]
  >;
  private readonly remove: Database.Statement<[string, string, string]>;
  private readonly latestDictionary: Database.Statement<
    [string],
    { id: number; dictionary: Buffer }
  >;
  private readonly insertDictionary: Database.Statement<[string, Buffer, string]>;
  /** The dictionary of each table, or null while it has none yet. */
  private readonly dictionaries = new Map<string, Dictionary | null>();

  constructor(sqlite: Database.Database, options: RawArchiveOptions) {
    this.keep = options.keep;
    this.upsert = sqlite.prepare(
      `INSERT INTO raw_records (table_name, location_id, id, dictionary_id, payload, synced_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (table_name, id, location_id) DO UPDATE SET
         dictionary_id = excluded.dictionary_id, payload = excluded.payload, synced_at = excluded.synced_at`,
    );
    this.remove = sqlite.prepare(
      "DELETE FROM raw_records WHERE table_name = ? AND id = ? AND location_id = ?",
    );
    this.latestDictionary = sqlite.prepare(
      "SELECT id, dictionary FROM raw_dictionaries WHERE table_name = ? ORDER BY id DESC LIMIT 1",
    );
    this.insertDictionary = sqlite.prepare(
      "INSERT INTO raw_dictionaries (table_name, dictionary, created_at) VALUES (?, ?, ?)",
    );
  }

  /**
   * Gives a table its dictionary from records about to be archived, the first time there are
   * enough of them (a page of orders is plenty). Call inside the write's transaction.
   */
  learnFrom(tableName: string, records: readonly { raw: string }[], at: string): void {
    if (!this.keep || this.dictionaryOf(tableName)) return;
    const bytes = buildDictionary(records.map((record) => record.raw));
    if (!bytes) return;
    const id = Number(this.insertDictionary.run(tableName, bytes, at).lastInsertRowid);
    this.dictionaries.set(tableName, { id, bytes });
  }

  /** Archives the JSON of a record just inserted or replaced (or forgets it, archive off);
   * returns the archive rows written. */
  put(record: ArchivedRecord): number {
    const { tableName, locationId, id } = record;
    if (!this.keep) return this.remove.run(tableName, id, locationId).changes;
    const dictionary = this.dictionaryOf(tableName);
    const payload =
      dictionary && record.compressed?.dictionaryId === dictionary.id
        ? record.compressed.payload
        : compressRaw(record.raw, dictionary?.bytes);
    this.upsert.run(tableName, locationId, id, dictionary?.id ?? null, payload, record.syncedAt);
    return 1;
  }

  /** Drops the dictionaries held in memory, to be read again from the file: after a rolled-back
   * transaction, one learned inside it is no longer there (and its id may be given again). */
  forgetDictionaries(): void {
    this.dictionaries.clear();
  }

  /** The dictionary the table's records are compressed with, or null while it has none. */
  dictionaryOf(tableName: string): Dictionary | null {
    let dictionary = this.dictionaries.get(tableName);
    if (dictionary === undefined) {
      const row = this.latestDictionary.get(tableName);
      dictionary = row ? { id: row.id, bytes: row.dictionary } : null;
      this.dictionaries.set(tableName, dictionary);
    }
    return dictionary;
  }
}

/** One archived record read back as text. */
export interface RawDocument {
  tableName: string;
  locationId: string;
  id: string;
  syncedAt: string;
  json: string;
}

type ReadRaw = (tableName: string, id: string, locationId?: string) => RawDocument[];

/** A reader of archived records with its query prepared once: every location's record of that
 * id, or one location's. */
export function rawRecordReader(sqlite: Database.Database): ReadRaw {
  const select = sqlite.prepare<
    [string, string, string | null, string | null],
    { location_id: string; synced_at: string; payload: Buffer; dictionary: Buffer | null }
  >(
    `SELECT r.location_id, r.synced_at, r.payload, d.dictionary
     FROM raw_records r LEFT JOIN raw_dictionaries d ON d.id = r.dictionary_id
     WHERE r.table_name = ? AND r.id = ? AND (? IS NULL OR r.location_id = ?)
     ORDER BY r.location_id`,
  );
  return (tableName, id, locationId) =>
    select.all(tableName, id, locationId ?? null, locationId ?? null).map((row) => ({
      tableName,
      locationId: row.location_id,
      id,
      syncedAt: row.synced_at,
      json: decompressRaw(row.payload, row.dictionary ?? undefined),
    }));
}

/** Reads one record back from the archive (see rawRecordReader to read many). */
export function readRawRecords(
  sqlite: Database.Database,
  tableName: string,
  id: string,
  locationId?: string,
): RawDocument[] {
  return rawRecordReader(sqlite)(tableName, id, locationId);
}
