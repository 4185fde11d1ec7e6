/**
 * Keeping the versions of a day stream's records that a sync replaces or the API stops listing
 * (history/versions.ts), on PostgreSQL: the stored rows of a page's changed records are read
 * back in one query per table just before they are replaced or marked deleted, inside the same
 * transaction, and their history rows inserted in one statement.
 */
import type { PgTable } from "drizzle-orm/pg-core";
import type { HistoryShape, StoredRow, VersionRows } from "../history/versions.js";
import * as versions from "../history/versions.js";
import type { PgClient } from "./connect.js";
import { RowsInserter } from "./rows.js";
import { contractOf } from "./schema.js";

export class PgVersionHistory {
  private readonly shape: HistoryShape;
  private readonly inserter: RowsInserter;

  constructor(
    table: PgTable,
    childTables: readonly PgTable[],
    history: { table: PgTable; paidFrom: PgTable },
  ) {
    // What a version is, and how it reads, is the contract's.
    this.shape = versions.historyShape(contractOf(table), childTables.map(contractOf), {
      table: contractOf(history.table),
      paidFrom: contractOf(history.paidFrom),
    });
    this.inserter = RowsInserter.of(history.table);
  }

  /** The live stored rows of these records, by id. */
  private async storedRows(
    client: PgClient,
    ids: readonly string[],
  ): Promise<Map<string, VersionRows>> {
    const { parentName, children } = this.shape;
    const { rows: parents } = await client.query<StoredRow>(
      `SELECT * FROM "${parentName}" WHERE id = ANY($1::text[]) AND deleted_at IS NULL`,
      [ids],
    );
    const stored = new Map<string, VersionRows>(
      parents.map((parent) => [
        String(parent.id),
        { parent, children: children.map(() => [] as StoredRow[]) },
      ]),
    );
    if (stored.size === 0) return stored;
    for (const [i, child] of children.entries()) {
      const order = [child.parentKey, ...child.keys].map((k) => `"${k}"`).join(", ");
      const { rows } = await client.query<StoredRow>(
        `SELECT * FROM "${child.name}" WHERE "${child.parentKey}" = ANY($1::text[]) ORDER BY ${order}`,
        [[...stored.keys()]],
      );
      for (const row of rows) stored.get(String(row[child.parentKey]))?.children[i]?.push(row);
    }
    return stored;
  }

  private async lastVersions(client: PgClient, ids: readonly string[]) {
    const { rows } = await client.query<{ order_id: string; version: number }>(
      `SELECT order_id, MAX(version) AS version FROM "${this.shape.historyName}"
       WHERE order_id = ANY($1::text[]) GROUP BY order_id`,
      [ids],
    );
    return new Map(rows.map((row) => [row.order_id, row.version]));
  }

  /** Keeps the live stored versions of these records, each ended by its `next` rows (replaced,
   * by a repair's read: `repaired`) or by nothing (vanished); returns the rows written. */
  async keep(
    client: PgClient,
    ending: ReadonlyMap<string, VersionRows | undefined>,
    endedAt: string,
    repaired = false,
  ): Promise<number> {
    if (ending.size === 0) return 0;
    const ids = [...ending.keys()];
    const stored = await this.storedRows(client, ids);
    if (stored.size === 0) return 0;
    const last = await this.lastVersions(client, [...stored.keys()]);
    const rows = [...stored].map(([id, rows]) =>
      versions.versionRow({
        shape: this.shape,
        version: (last.get(id) ?? 0) + 1,
        rows,
        endedAt,
        next: ending.get(id),
        repaired,
      }),
    );
    return this.inserter.insert(client, rows);
  }
}
