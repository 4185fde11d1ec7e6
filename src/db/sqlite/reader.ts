/**
 * The reader of a SQLite database (../reads/reader.ts, the same SQL as PostgreSQL's), on one
 * connection: statements prepared once, parameters bound by number.
 */
import type Database from "better-sqlite3";
import { composeReader, type Reader } from "../reads/reader.js";
import { ReadSession } from "../reads/session.js";
import { SQLITE_DIALECT, type SqlSession } from "../sql/dialect.js";
import type { Db } from "./open.js";

/** A statement with the numbers of the parameters it names (SQLite binds `?n` by number). */
interface Prepared {
  statement: Database.Statement;
  numbers: number[];
}

/** A session on a SQLite connection: statements prepared once; a list travels as JSON text. */
export function sqliteSession(sqlite: Database.Database): SqlSession {
  const prepared = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    let found = prepared.get(sql);
    if (!found) {
      const numbers = [...new Set([...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])))];
      found = { statement: sqlite.prepare(sql), numbers };
      prepared.set(sql, found);
    }
    return found;
  };
  return {
    dialect: SQLITE_DIALECT,
    async all<T>(sql: string, params: readonly unknown[] = []) {
      const { statement, numbers } = prepare(sql);
      if (numbers.length === 0) return statement.all() as T[];
      const bound: Record<number, unknown> = {};
      for (const n of numbers) {
        const value = params[n - 1];
        bound[n] = Array.isArray(value) ? JSON.stringify(value) : value;
      }
      return statement.all(bound) as T[];
    },
    async table(sql: string) {
      const statement = sqlite.prepare(sql).raw(true);
      return {
        columns: statement.columns().map((c) => c.name),
        rows: statement.all() as unknown[][],
      };
    },
  };
}

/** Parameters in order as SQLite binds `?1`, `?2`…: by number. */
export function numbered(params: readonly unknown[]): Record<number, unknown> {
  const bound: Record<number, unknown> = {};
  params.forEach((value, i) => {
    bound[i + 1] = value;
  });
  return bound;
}

/** A reader of a SQLite connection; closing it closes the connection unless it is lent. */
export function sqliteReader(db: Db, options: { lent?: boolean } = {}): Reader {
  return composeReader(new ReadSession(sqliteSession(db.sqlite), db.path), {
    close: async () => {
      if (!options.lent) db.close();
    },
  });
}
