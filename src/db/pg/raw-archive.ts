/**
 * The JSON of every parent record as received, kept apart from the typed tables as on SQLite, in
 * json: the text itself, byte for byte (jsonb would keep only the content, its keys re-ordered,
 * its numbers re-written), still readable with ->> in SQL. PostgreSQL compresses large documents
 * itself (TOAST), so there are no dictionaries to keep. One exception, as everywhere on
 * PostgreSQL: an escaped NUL becomes U+FFFD (text.ts), since ->> refuses a document holding one.
 * Switched off, writes remove the record's JSON.
 */
import type { PgClient } from "./connect.js";
import { RowsInserter } from "./rows.js";

export interface ArchivedDocument {
  tableName: string;
  locationId: string;
  id: string;
  raw: string | undefined;
}

const UPSERT = new RowsInserter(
  "raw_records",
  [
    { name: "table_name", type: "text" },
    { name: "location_id", type: "text" },
    { name: "id", type: "text" },
    { name: "document", type: "json" },
    { name: "synced_at", type: "timestamptz" },
  ],
  `ON CONFLICT (table_name, id, location_id) DO UPDATE
   SET document = excluded.document, synced_at = excluded.synced_at`,
);

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
    return UPSERT.insert(
      client,
      // A record prepared without its text (raw is optional on the SQLite path) has none to keep.
      documents
        .filter((d) => d.raw !== undefined)
        .map((d) => ({
          table_name: d.tableName,
          location_id: d.locationId,
          id: d.id,
          document: d.raw ?? null,
          synced_at: syncedAt,
        })),
    );
  }
}
