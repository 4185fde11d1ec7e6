/**
 * Writing a list the API returns whole (catalog, devices) on PostgreSQL, by the rules of
 * writers/snapshot.ts: rows inserted, replaced when their content hash changed, or left alone;
 * rows missing from the snapshot get `deleted_at`, rows that come back lose it. Set-based, inside
 * the caller's transaction.
 */
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  emptySnapshotCounts,
  type Snapshot,
  type SnapshotCounts,
  type SnapshotRowSet,
} from "../writers/snapshot.js";
import { tableName } from "../writers/statements.js";
import type { PgClient } from "./connect.js";
import type { PgRawArchive } from "./raw-archive.js";
import { RowsInserter } from "./rows.js";

interface StoredRow {
  id: string;
  content_hash: number | null;
  deleted_at: string | null;
}

export class PgSnapshotWriter {
  private readonly name: string;
  private readonly parent: RowsInserter;
  private readonly children: RowsInserter[];

  constructor(
    table: SQLiteTable,
    childTables: readonly SQLiteTable[],
    private readonly archive: PgRawArchive,
  ) {
    this.name = tableName(table);
    this.parent = RowsInserter.of(table);
    // A child repeated inside one record (a price tier listed twice) keeps its first entry; the
    // record's archived JSON still holds both.
    this.children = childTables.map((child) => RowsInserter.of(child, "ON CONFLICT DO NOTHING"));
  }

  async write(client: PgClient, snapshot: Snapshot): Promise<SnapshotCounts> {
    const { locationId, syncedAt } = snapshot;
    const { rows } = await client.query<StoredRow>(
      `SELECT id, content_hash, deleted_at FROM "${this.name}" WHERE location_id = $1`,
      [locationId],
    );
    const stored = new Map(rows.map((row) => [row.id, row]));
    const counts = emptySnapshotCounts();
    const restored: string[] = [];
    const replaced = new Set<string>();
    const written = new Map<string, { rows: SnapshotRowSet; raw: string }>();
    for (const record of snapshot.records) {
      const { parent } = record.rows;
      const existing = stored.get(parent.id);
      if (existing && existing.content_hash === parent.content_hash) {
        if (existing.deleted_at === null) counts.unchanged++;
        else {
          restored.push(existing.id);
          counts.restored++;
          stored.set(existing.id, { ...existing, deleted_at: null });
        }
        continue;
      }
      if (existing) counts.updated++;
      else counts.inserted++;
      if (existing && !written.has(parent.id)) replaced.add(parent.id);
      written.set(parent.id, record);
      // A list that names the same id twice: the later entry meets the earlier one as stored.
      stored.set(parent.id, { id: parent.id, content_hash: parent.content_hash, deleted_at: null });
    }
    const named = [locationId];
    if (restored.length > 0) {
      await client.query(
        `UPDATE "${this.name}" SET deleted_at = NULL, synced_at = $2 WHERE location_id = $1 AND id = ANY($3::text[])`,
        [...named, syncedAt, restored],
      );
    }
    if (replaced.size > 0) {
      await client.query(
        `DELETE FROM "${this.name}" WHERE location_id = $1 AND id = ANY($2::text[])`,
        [...named, [...replaced]],
      );
    }
    await this.insertRows(
      client,
      [...written.values()].map((r) => r.rows),
    );
    await this.archive.put(
      client,
      [...written.values()].map(({ rows: set, raw }) => ({
        tableName: this.name,
        locationId,
        id: set.parent.id,
        raw,
      })),
      syncedAt,
    );
    if (snapshot.complete) {
      const missing = [...stored.values()]
        .filter((row) => row.deleted_at === null && !snapshot.listedIds.has(row.id))
        .map((row) => row.id);
      if (missing.length > 0) {
        const result = await client.query(
          `UPDATE "${this.name}" SET deleted_at = $2 WHERE location_id = $1 AND id = ANY($3::text[]) AND deleted_at IS NULL`,
          [...named, syncedAt, missing],
        );
        counts.deleted += result.rowCount ?? 0;
      }
    }
    return counts;
  }

  private async insertRows(client: PgClient, rowSets: readonly SnapshotRowSet[]): Promise<void> {
    await this.parent.insert(
      client,
      rowSets.map((set) => set.parent),
    );
    for (const [i, inserter] of this.children.entries()) {
      await inserter.insert(
        client,
        rowSets.flatMap((set) => set.children[i] ?? []),
      );
    }
  }
}
