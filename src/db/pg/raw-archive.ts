/**
 * The JSON of every parent record as received, kept apart from the typed tables as on SQLite, in
 * json: the text itself, byte for byte (jsonb would keep only the content, its keys re-ordered,
 * its numbers re-written), still readable with ->> in SQL. PostgreSQL compresses large documents
 * itself (TOAST), so there are no dictionaries to keep. One exception, as everywhere on
 * PostgreSQL: an escaped NUL becomes U+FFFD (text.ts), since ->> refuses a document holding one.
 * Switched off, writes remove the record's JSON.
 */
import type { PgClient } from "./connect.js";
import { storableJson } from "./text.js";

export interface ArchivedDocument {
  tableName: string;
  locationId: string;
  id: string;
  raw: string | undefined;
}

/** Documents per statement at most: 4 parameters each, of the protocol's 65,535. */
const MOST_DOCUMENTS = 1000;

/**
 * The documents travel as parameters of their own, as they are: embedded in one JSON value
 * (rows.ts) each would be escaped by the client and parsed back by the server, a third of the
 * archive's cost. The statement's text depends on the number of documents, so it is not kept
 * prepared: parsing it again costs the server less than a document.
 */
function upsertOf(count: number): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const at = 2 + i * 4;
    return `($${at}, $${at + 1}, $${at + 2}, $${at + 3}::json, $1::timestamptz)`;
  });
  return `INSERT INTO raw_records (table_name, location_id, id, document, synced_at)
    VALUES ${rows.join(", ")}
    ON CONFLICT (table_name, id, location_id) DO UPDATE
    SET document = excluded.document, synced_at = excluded.synced_at`;
}

export class PgRawArchive {
  constructor(readonly keep: boolean) {}

  /** Archives (or, switched off, removes) the JSON of records just written, one document per
   * record (the writers pass each record once: the server refuses to update a row twice in one
   * statement); returns the rows. */
  async put(
    client: PgClient,
    documents: readonly ArchivedDocument[],
    syncedAt: string,
  ): Promise<number> {
    if (documents.length === 0) return 0;
    if (!this.keep) {
      await client.query(
        `DELETE FROM raw_records r USING unnest($1::text[], $2::text[], $3::text[]) AS d(t, l, i)
         WHERE r.table_name = d.t AND r.location_id = d.l AND r.id = d.i`,
        [
          documents.map((d) => d.tableName),
          documents.map((d) => d.locationId),
          documents.map((d) => d.id),
        ],
      );
      return 0;
    }
    // A record prepared without its text (raw is optional on the SQLite path) has none to keep.
    const kept = documents.filter((d) => d.raw !== undefined);
    let written = 0;
    for (let from = 0; from < kept.length; from += MOST_DOCUMENTS) {
      const some = kept.slice(from, from + MOST_DOCUMENTS);
      const values: string[] = [syncedAt];
      for (const d of some) values.push(d.tableName, d.locationId, d.id, storableJson(d.raw ?? ""));
      written += (await client.query(upsertOf(some.length), values)).rowCount ?? 0;
    }
    return written;
  }
}
