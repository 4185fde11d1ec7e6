/**
 * Writing a list the API returns whole (catalog, devices) on PostgreSQL, by the rules of
 * rules/snapshot.ts: rows inserted, replaced when their content hash changed, or left alone;
 * rows missing from the snapshot get `deleted_at`, rows that come back lose it. Set-based, inside
 * the caller's transaction.
 */
import type { PgTable } from "drizzle-orm/pg-core";
import {
  planSnapshot,
  type Snapshot,
  type SnapshotCounts,
  type SnapshotRowSet,
  type StoredListRow,
} from "../rules/snapshot.js";
import { tableName } from "../sql/table.js";
import type { PgClient } from "./connect.js";
import type { PgRawArchive } from "./raw-archive.js";
import { RowsInserter } from "./rows.js";

export class PgSnapshotWriter {
  private readonly name: string;
  private readonly parent: RowsInserter;
  private readonly children: RowsInserter[];

  constructor(
    table: PgTable,
    childTables: readonly PgTable[],
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
    const { rows } = await client.query<StoredListRow>(
      `SELECT id, content_hash, deleted_at FROM "${this.name}" WHERE location_id = $1`,
      [locationId],
    );
    const plan = planSnapshot(snapshot, new Map(rows.map((row) => [row.id, row])));
    const counts = { ...plan.counts };
    const named = [locationId];
    if (plan.restores.length > 0) {
      await client.query(
        `UPDATE "${this.name}" SET deleted_at = NULL, synced_at = $2 WHERE location_id = $1 AND id = ANY($3::text[])`,
        [...named, syncedAt, plan.restores],
      );
    }
    const replaced = [...plan.writes].filter(([, write]) => write.replaces).map(([id]) => id);
    if (replaced.length > 0) {
      await client.query(
        `DELETE FROM "${this.name}" WHERE location_id = $1 AND id = ANY($2::text[])`,
        [...named, replaced],
      );
    }
    const written = [...plan.writes.values()].map((write) => write.record);
    await this.insertRows(
      client,
      written.map((r) => r.rows),
    );
    await this.archive.put(
      client,
      written.map(({ rows: set, raw }) => ({
        tableName: this.name,
        locationId,
        id: set.parent.id,
        raw,
      })),
      syncedAt,
    );
    if (plan.vanished.length > 0) {
      const result = await client.query(
        `UPDATE "${this.name}" SET deleted_at = $2 WHERE location_id = $1 AND id = ANY($3::text[]) AND deleted_at IS NULL`,
        [...named, syncedAt, plan.vanished],
      );
      counts.deleted += result.rowCount ?? 0;
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
