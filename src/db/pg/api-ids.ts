/**
 * The keys of the ids of the API that rows keep by key (`api_ids`, schema/orders.ts), on
 * PostgreSQL: remembered once known, so that rows travel with their keys. The ids a page names
 * and the table lacks are added before the page's transaction, in statements that commit at
 * once: an id is never removed, so one added for a page that is then rolled back waits for its
 * next use, and every key remembered here is committed, which the transaction of any connection
 * can refer to. They are added in the ids' order, so that two workers adding the same new ids
 * wait for one another instead of each holding one the other needs.
 */
import type { RowSet, RowShape } from "../rules/record-rows.js";
import type { IdRefColumn } from "../schema/relations.js";
import type { PgClient } from "./connect.js";
import { storableText } from "./text.js";

export class PgApiIds {
  private readonly keys = new Map<string, number>();

  /** The ids that records' rows keep by key and this has not learned, in order: `parentRefs`
   * are the parent's columns that keep ids, `shapes` those of the child tables' packed rows. */
  unknown(
    rowSets: readonly RowSet[],
    parentRefs: readonly IdRefColumn[],
    shapes: readonly RowShape[],
  ): string[] {
    const unknown = new Set<string>();
    const check = (sent: unknown) => {
      if (sent === null || sent === undefined) return;
      const id = storableText(String(sent));
      if (!this.keys.has(id)) unknown.add(id);
    };
    for (const { parent, children } of rowSets) {
      for (const { shown } of parentRefs) check(parent[shown]);
      for (const [i, { width, idsAt }] of shapes.entries()) {
        const rows = children[i] ?? [];
        for (let at = 0; at < rows.length; at += width)
          for (const id of idsAt) check(rows[at + id]);
      }
    }
    return [...unknown].sort();
  }

  /** Learns the keys of `ids` (in order), adding those the table lacks. */
  async learn(client: PgClient, ids: readonly string[]): Promise<void> {
    await client.query(
      "INSERT INTO api_ids (id) SELECT id FROM unnest($1::text[]) AS id ORDER BY id ON CONFLICT DO NOTHING",
      [ids],
    );
    // Apart from the insert: its snapshot would miss the ids another worker added meanwhile.
    const { rows: known } = await client.query<{ key: string; id: string }>(
      "SELECT key, id FROM api_ids WHERE id = ANY($1::text[])",
      [ids],
    );
    for (const { key, id } of known) this.keys.set(id, Number(key));
  }

  /** The key of an id learned before. */
  keyOf(id: string): number {
    const key = this.keys.get(storableText(id));
    if (key === undefined) throw new Error(`the id ${id} was not learned before its rows`);
    return key;
  }
}
