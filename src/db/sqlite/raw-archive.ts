/**
 * The raw archive (`raw_records`): the JSON of each record as received, compressed, one row per
 * record, apart from the typed tables. The writers hand it the records they inserted or replaced;
 * unchanged records cost nothing. With the archive switched off, a changed record's earlier JSON
 * is removed rather than left stale.
 */
import type Database from "better-sqlite3";
import { buildDictionary, compressRaw, decompressRaw } from "../raw/codec.js";
import { type Deflater, dictionaryDeflater } from "../raw/deflater.js";
import type { ArchiveTerms, CompressedRaw } from "../raw/terms.js";

export interface RawArchiveOptions {
  /** False: keep no raw JSON (`POS_KEEP_RAW=false`). */
  keep: boolean;
}

export interface ArchivedRecord {
  tableName: string;
  locationId: string;
  id: string;
  /** The JSON as received; may be left out when `compressed` carries it. */
  raw?: string | undefined;
  syncedAt: string;
  compressed?: CompressedRaw | undefined;
}

/** A dictionary as stored (its row id), with the serial that names it in this process: a
 * dictionary read again after a rollback gets a new serial even if its row id comes back. */
interface Dictionary {
  id: number;
  bytes: Buffer;
  serial: number;
  deflater?: Deflater;
}

let nextSerial = 1;

/** A row of raw_records, in its insert's order. */
type ArchiveRow = [string, string, string, number | null, Uint8Array, string];

function dictionary(id: number, bytes: Buffer): Dictionary {
  return { id, bytes, serial: nextSerial++ };
}

export class RawArchive {
  readonly keep: boolean;
  private readonly insert: Database.Statement<ArchiveRow>;
  private readonly upsert: Database.Statement<ArchiveRow>;
  private readonly remove: Database.Statement<[string, string, string]>;
  private readonly latestDictionary: Database.Statement<
    [string],
    { id: number; dictionary: Buffer }
  >;
  private readonly insertDictionary: Database.Statement<[string, Buffer, string]>;
  /** The dictionary of each table, or null while it has none yet. */
  private readonly dictionaries = new Map<string, Dictionary | null>();
  /** Every dictionary lent, by serial: a payload made with one that is no longer the table's
   * (rolled back with a failed write) is read back with it and compressed again. */
  private readonly lent = new Map<number, Dictionary>();

  constructor(sqlite: Database.Database, options: RawArchiveOptions) {
    this.keep = options.keep;
    const insert = `INSERT INTO raw_records (table_name, location_id, id, dictionary_id, payload, synced_at)
       VALUES (?, ?, ?, ?, ?, ?)`;
    this.insert = sqlite.prepare(insert);
    this.upsert = sqlite.prepare(
      `${insert} ON CONFLICT (table_name, id, location_id) DO UPDATE SET
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
  learnFrom(tableName: string, records: readonly { raw?: string | undefined }[], at: string): void {
    if (!this.keep || this.dictionaryOf(tableName)) return;
    const bytes = buildDictionary(records.flatMap((record) => record.raw ?? []));
    if (!bytes) return;
    const id = Number(this.insertDictionary.run(tableName, bytes, at).lastInsertRowid);
    this.dictionaries.set(tableName, dictionary(id, bytes));
  }

  /** What the table's records should bring to their write (see ArchiveTerms). */
  termsFor(tableName: string): ArchiveTerms {
    if (!this.keep) return { keep: false };
    const current = this.dictionaryOf(tableName);
    if (!current) return { keep: true, dictionary: null };
    this.lent.set(current.serial, current);
    return { keep: true, dictionary: { serial: current.serial, bytes: current.bytes } };
  }

  /** Archives the JSON of a record just inserted or replaced (or forgets it, archive off);
   * returns the archive rows written. A record `new` to its table is inserted plainly, a third
   * of the upsert's cost; its JSON left behind by a client that deleted its row is replaced. */
  put(record: ArchivedRecord, isNew = false): number {
    const { tableName, locationId, id } = record;
    if (!this.keep) return this.remove.run(tableName, id, locationId).changes;
    const current = this.dictionaryOf(tableName);
    const row: ArchiveRow = [
      tableName,
      locationId,
      id,
      current?.id ?? null,
      this.payloadOf(record, current),
      record.syncedAt,
    ];
    if (!isNew || !this.tryInsert(row)) this.upsert.run(...row);
    return 1;
  }

  /** Inserts a row; false when the archive already holds the record. */
  private tryInsert(row: ArchiveRow): boolean {
    try {
      this.insert.run(...row);
      return true;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY")
        return false;
      throw error;
    }
  }

  /** The record's payload under the table's current dictionary: the one it came with when it
   * was compressed with that dictionary, else its JSON compressed here. */
  private payloadOf(record: ArchivedRecord, current: Dictionary | null): Uint8Array {
    const { compressed } = record;
    if (compressed && compressed.dictionary === current?.serial) return compressed.payload;
    const text = record.raw ?? this.readBack(record);
    if (!current) return compressRaw(text);
    current.deflater ??= dictionaryDeflater(current.bytes);
    return current.deflater.deflate(text);
  }

  private readBack({ compressed, tableName, id }: ArchivedRecord): string {
    const lent = compressed && this.lent.get(compressed.dictionary);
    if (!compressed || !lent)
      throw new Error(`${tableName} ${id} came to the archive without its JSON`);
    return decompressRaw(compressed.payload, lent.bytes);
  }

  /** Drops the dictionaries held in memory, to be read again from the file: after a rolled-back
   * transaction, one learned inside it is no longer there (and its id may be given again). */
  forgetDictionaries(): void {
    this.dictionaries.clear();
  }

  /** The dictionary the table's records are compressed with, or null while it has none. */
  private dictionaryOf(tableName: string): Dictionary | null {
    let found = this.dictionaries.get(tableName);
    if (found === undefined) {
      const row = this.latestDictionary.get(tableName);
      found = row ? dictionary(row.id, row.dictionary) : null;
      this.dictionaries.set(tableName, found);
    }
    return found;
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
