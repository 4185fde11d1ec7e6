/**
 * Writing a page of records that have an id of their own (orders, reports) on PostgreSQL, by the
 * rules of rules/day-page.ts: new ones inserted, changed ones replaced with all their child rows,
 * unchanged ones left alone (told apart by their content hash), a record marked deleted that the
 * API lists again stored again. Set-based: one read of the stored versions, one delete of the
 * replaced records (their child rows go with them), one insert per table. Runs inside the
 * caller's transaction.
 */
import type { PgTable } from "drizzle-orm/pg-core";
import type { LocationDay } from "../../vocabulary.js";
import type { VersionRows } from "../history/versions.js";
import {
  emptyCounts,
  type IncomingRecord,
  planPage,
  type StoredVersion,
  type WriteOutcome,
} from "../rules/day-page.js";
import { type RowSet, type RowShape, rowShapeOf, unpackChildren } from "../rules/record-rows.js";
import { type IdRefColumn, idRefsOf, relationName, relationOf } from "../schema/relations.js";
import type { ContractTable } from "../sql/contract-table.js";
import { POSTGRES_DIALECT as PG } from "../sql/dialect.js";
import { onConflictUpdate, tableName } from "../sql/table.js";
import { markVanishedSql, vanishedDaysSql } from "../sql/vanished-records.js";
import type { PgApiIds } from "./api-ids.js";
import type { PgClient } from "./connect.js";
import type { PgVersionHistory } from "./history.js";
import type { PgRawArchive } from "./raw-archive.js";
import { RowsInserter } from "./rows.js";
import { contractOf } from "./schema.js";

export class PgDayWriter {
  private readonly name: string;
  private readonly parent: RowsInserter;
  /** Writes a stored record's own row again in place, keeping its key and synced_at. */
  private readonly rewriter: RowsInserter;
  private readonly children: RowsInserter[];
  /** The records' relation's name, which the raw archive files them under. */
  private readonly relationName: string;
  /** The parent's columns that keep ids by key. */
  private readonly refs: readonly IdRefColumn[];
  /** The child tables' packed rows (rules/record-rows.ts). */
  private readonly shapes: readonly RowShape[];
  /** The contract's tables of the child rows: what history compares them by. */
  private readonly contractChildren: readonly ContractTable[];
  /** Each child table's column of its parent's key. */
  private readonly parentKeys: readonly string[];

  constructor(
    table: PgTable,
    private readonly childTables: readonly PgTable[],
    private readonly archive: PgRawArchive,
    /** The keys of the ids the rows keep by key. */
    private readonly apiIds: PgApiIds,
    /** Keeps the versions this writer replaces, when the stream keeps a history. */
    private readonly history?: PgVersionHistory,
  ) {
    const contract = contractOf(table);
    this.contractChildren = childTables.map(contractOf);
    this.name = tableName(table);
    this.relationName = relationName(contract);
    this.parent = RowsInserter.of(table, "RETURNING id, key", [], apiIds);
    this.rewriter = RowsInserter.of(
      table,
      `${onConflictUpdate(table, ["id"], ["synced_at"])} RETURNING id, key`,
      [],
      apiIds,
    );
    this.children = childTables.map((child) => RowsInserter.ofChild(child, apiIds));
    this.refs = idRefsOf(contract);
    this.shapes = this.contractChildren.map(rowShapeOf);
    this.parentKeys = this.contractChildren.map((child) => relationOf(child).parentKey);
  }

  /** The ids the records' rows keep by key and have none known yet: to learn before the
   * records' transaction, on a connection of its own (api-ids.ts). */
  unknownIds(records: readonly IncomingRecord[]): string[] {
    return this.apiIds.unknown(
      records.map((r) => r.rows),
      this.refs,
      this.shapes,
    );
  }

  private async storedVersions(
    client: PgClient,
    records: readonly IncomingRecord[],
  ): Promise<Map<string, StoredVersion>> {
    const { rows } = await client.query<StoredVersion>(
      `SELECT id, updated_at, business_date, content_hash, deleted_at FROM "${this.name}"
       WHERE id = ANY($1::text[])`,
      [records.map((r) => r.rows.parent.id)],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Writes a page of records; `repair`, on a repair's read: the records it writes again
   * whatever their content hash says (decide). */
  async write(
    client: PgClient,
    records: readonly IncomingRecord[],
    syncedAt: string,
    repair?: ReadonlySet<string>,
  ): Promise<WriteOutcome> {
    if (records.length === 0) return { counts: emptyCounts(), earlierDays: [] };
    const plan = planPage(records, await this.storedVersions(client, records), repair);
    const counts = { ...plan.counts };
    if (plan.rewrites.size > 0) counts.rowsWritten += await this.rewriteRows(client, plan.rewrites);
    if (plan.writes.size === 0) return { counts, earlierDays: [] };
    const written = [...plan.writes.values()].map((write) => write.record);
    const replaced = [...plan.writes].filter(([, write]) => write.replaces).map(([id]) => id);
    if (this.history) {
      const ending = new Map(
        replaced.map((id) => [id, this.versionRowsOf(plan.writes.get(id)?.record)]),
      );
      counts.rowsWritten += await this.history.keep(client, ending, syncedAt, repair !== undefined);
    }
    if (replaced.length > 0) {
      await client.query(`DELETE FROM "${this.name}" WHERE id = ANY($1::text[])`, [replaced]);
    }
    counts.rowsWritten += await this.insertRows(
      client,
      written.map((r) => r.rows),
    );
    counts.rowsWritten += await this.archive.put(
      client,
      written.map(({ rows, raw }) => ({
        tableName: this.relationName,
        locationId: rows.parent.location_id,
        id: rows.parent.id,
        raw,
      })),
      syncedAt,
    );
    return { counts, earlierDays: plan.earlierDays };
  }

  /** Marks records deleted upstream, keeping their versions: how many, and the location days
   * of those it marked (sql/vanished-records.ts). */
  async markDeleted(
    client: PgClient,
    ids: readonly string[],
    at: string,
  ): Promise<{ marked: number; days: LocationDay[] }> {
    const listed = PG.list(ids);
    const { rows: days } = await client.query<LocationDay>(vanishedDaysSql(PG, this.relationName), [
      listed,
    ]);
    await this.history?.keep(client, new Map(ids.map((id) => [id, undefined])), at);
    const marked = await client.query(markVanishedSql(PG, this.name), [listed, at]);
    return { marked: marked.rowCount ?? 0, days };
  }

  /** A record's rows as history compares them (history/versions.ts). */
  private versionRowsOf(record: IncomingRecord | undefined): VersionRows | undefined {
    if (!record) return undefined;
    const { parent, children } = record.rows;
    return { parent, children: unpackChildren(this.contractChildren, children) };
  }

  /** Writes stored records' rows again in place: their own rows keep their keys, so their
   * child rows go and come back under them. Returns the rows written. */
  private async rewriteRows(client: PgClient, rowSets: ReadonlyMap<string, RowSet>) {
    const ids = [...rowSets.keys()];
    for (const [i, table] of [...this.childTables.entries()].reverse()) {
      const parentKey = this.parentKeys[i];
      await client.query(
        `DELETE FROM "${tableName(table)}" WHERE "${parentKey}" IN
           (SELECT key FROM "${this.name}" WHERE id = ANY($1::text[]))`,
        [ids],
      );
    }
    return this.insertRows(client, [...rowSets.values()], this.rewriter);
  }

  private async insertRows(
    client: PgClient,
    rowSets: readonly RowSet[],
    parent = this.parent,
  ): Promise<number> {
    const keys = await parent.insertReturningKeys(
      client,
      rowSets.map((set) => set.parent),
    );
    const keyOf = (set: RowSet) => {
      const key = keys.get(set.parent.id);
      // The parent rows were inserted just above, in the same transaction.
      if (key === undefined) throw new Error(`${set.parent.id} was not written`);
      return key;
    };
    let written = keys.size;
    for (const [i, inserter] of this.children.entries()) {
      const parts = rowSets.map((set) => ({ rows: set.children[i] ?? [], parentKey: keyOf(set) }));
      written += await inserter.insertPacked(client, parts);
    }
    return written;
  }
}
