/**
 * The keys of the ids of the API that orders and the rows of their arrays keep by key
 * (`api_ids`, schema/orders.ts), on SQLite: each id is looked up or added once, then remembered. What it remembers of a write
 * that was rolled back (a key it added) is forgotten with it (`forget`): the key may be given
 * again to another id.
 */
import type Database from "better-sqlite3";

export class ApiIds {
  private readonly keys = new Map<string, number>();
  private readonly select: Database.Statement<[string], number>;
  private readonly insert: Database.Statement<[string]>;

  constructor(sqlite: Database.Database) {
    this.select = sqlite.prepare<[string], number>("SELECT key FROM api_ids WHERE id = ?").pluck();
    this.insert = sqlite.prepare<[string]>("INSERT INTO api_ids (id) VALUES (?)");
  }

  /** The key of an id, added when the file has none. */
  keyOf(id: string): number {
    let key = this.keys.get(id);
    if (key === undefined) {
      key = this.select.get(id) ?? Number(this.insert.run(id).lastInsertRowid);
      this.keys.set(id, key);
    }
    return key;
  }

  /** Forgets every key: those added by writes that were rolled back are gone from the file. */
  forget(): void {
    this.keys.clear();
  }
}
