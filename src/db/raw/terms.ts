/** What the raw archive asks of those who hand it records (the sync's thread, both destinations):
 * whether it keeps their JSON, and the dictionary to compress it ahead with. */

/** A table's dictionary as the archive lends it to whoever compresses records ahead of their
 * write (the thread that reads the API): its serial names it in the payloads that come back. */
export interface LentDictionary {
  serial: number;
  bytes: Uint8Array;
}

/** A record's JSON compressed ahead of its write with a lent dictionary. */
export interface CompressedRaw {
  /** The lent dictionary's serial. */
  dictionary: number;
  payload: Uint8Array;
}

/** What the archive needs of a table's records: nothing (it keeps no raw JSON), or their JSON,
 * compressed ahead with this dictionary once the table has one. */
export type ArchiveTerms = { keep: false } | { keep: true; dictionary: LentDictionary | null };
