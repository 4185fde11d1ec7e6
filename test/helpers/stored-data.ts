/**
 * What a test reads back from either destination, in one shape: rows of SQL written with `?`
 * placeholders (portable SQL: both databases run it), each record's archived JSON, and how a
 * value the API sent compares with the value stored for it (SQLite keeps text and 0/1 as sent;
 * PostgreSQL keeps native types: booleans, instants, jsonb, and no NUL character).
 */
import type { Statement } from "better-sqlite3";
import type { PostgresTarget } from "../../src/config/config.js";
import { openPool, type PgPool } from "../../src/db/pg/connect.js";
import type { Db } from "../../src/db/sqlite/open.js";
import { rawRecordReader } from "../../src/db/sqlite/raw-archive.js";

export type StoredRow = Record<string, unknown>;

export interface StoredData {
  readonly kind: "sqlite" | "postgres";
  rows(sql: string, ...params: unknown[]): Promise<StoredRow[]>;
  /** Runs a statement that returns no rows (a test changing data behind the sync's back). */
  execute(sql: string, ...params: unknown[]): Promise<void>;
  /** The first column of the first row, or undefined. */
  scalar(sql: string, ...params: unknown[]): Promise<unknown>;
  /** The record's archived JSON documents, parsed. */
  archived(table: string, id: string, locationId: string): Promise<unknown[]>;
  /** Whether the stored value is the API's value, as this destination stores it. */
  same(stored: unknown, sent: unknown): boolean;
  /** Whether a JSON column (menus, tips) holds this JSON text. */
  sameJson(stored: unknown, sentJson: string | null): boolean;
  /** Whether an archived document is the record the API sent. */
  sameDocument(document: unknown, record: unknown): boolean;
  /** A reader of the data as it is now, faster for many lookups by key (the ground truth's);
   * absent where every lookup is fast already. */
  frozen?(): StoredData;
  close(): Promise<void>;
}

function first(rows: StoredRow[]): unknown {
  const [row] = rows;
  return row === undefined ? undefined : Object.values(row)[0];
}

export function sqliteData(db: Db): StoredData {
  const readRaw = rawRecordReader(db.sqlite);
  // The ground truth asks the same few lookups thousands of times: each is prepared once.
  const statements = new Map<string, Statement>();
  const rows = async (sql: string, ...params: unknown[]) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement.all(...params) as StoredRow[];
  };
  return {
    kind: "sqlite",
    rows,
    execute: async (sql, ...params) => {
      db.sqlite.prepare(sql).run(...params);
    },
    scalar: async (sql, ...params) => first(await rows(sql, ...params)),
    archived: async (table, id, locationId) =>
      readRaw(table, id, locationId).map((document) => JSON.parse(document.json)),
    same: (stored, sent) => stored === (typeof sent === "boolean" ? (sent ? 1 : 0) : sent),
    sameJson: (stored, sentJson) => stored === sentJson,
    // The archive keeps the text: the same keys in the same order.
    sameDocument: (document, record) => JSON.stringify(document) === JSON.stringify(record),
    close: async () => {},
  };
}

/** JSON with keys sorted: jsonb keeps content, not key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

const DATE_TIME_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** What PostgreSQL keeps of a text: NUL becomes U+FFFD (src/db/pg/text.ts). */
function storedText(text: string): string {
  return text.replaceAll("\0", "\uFFFD");
}

function withoutNul(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll("\\u0000", "\\ufffd"));
}

type Rows = (sql: string, ...params: unknown[]) => Promise<StoredRow[]>;

/** A record's archived documents on PostgreSQL (jsonb, parsed by the driver). */
async function archivedDocuments(rows: Rows, table: string, id: string, locationId: string) {
  const found = await rows(
    "SELECT document FROM raw_records WHERE table_name = ? AND id = ? AND location_id = ?",
    table,
    id,
    locationId,
  );
  return found.map((row) => row.document);
}

/** `SELECT cols FROM table WHERE a = ? AND b = ? [ORDER BY position]`: a lookup by key. */
const LOOKUP =
  /^SELECT (\*|[\w, ]+) FROM (\w+) WHERE (\w+ = \?(?: AND \w+ = \?)*)( ORDER BY position)?$/;

/**
 * Answers lookups by key from whole tables read once (a test's database is small), and the
 * rest from the server: thousands of lookups cost a few queries. Sees the data as it was when
 * the table was first read.
 */
function frozenReader(base: StoredData): StoredData {
  const tables = new Map<string, Promise<StoredRow[]>>();
  const indexes = new Map<string, Promise<Map<string, StoredRow[]>>>();
  const keyOf = (values: unknown[]) => values.map(String).join("\u0001");
  const index = (table: string, columns: string[]) => {
    const name = `${table}(${columns.join(",")})`;
    let built = indexes.get(name);
    if (!built) {
      let all = tables.get(table);
      if (!all) {
        all = base.rows(`SELECT * FROM ${table}`);
        tables.set(table, all);
      }
      built = all.then((rows) => {
        const map = new Map<string, StoredRow[]>();
        for (const row of rows) {
          const key = keyOf(columns.map((c) => row[c]));
          map.set(key, [...(map.get(key) ?? []), row]);
        }
        for (const group of map.values())
          group.sort((a, b) => Number(a.position ?? 0) - Number(b.position ?? 0));
        return map;
      });
      indexes.set(name, built);
    }
    return built;
  };
  const rows = async (sql: string, ...params: unknown[]) => {
    const match = LOOKUP.exec(sql.replace(/\s+/g, " ").trim());
    if (!match) return base.rows(sql, ...params);
    const [, projection, table, where] = match as unknown as [string, string, string, string];
    const columns = where.split(" AND ").map((part) => part.replace(" = ?", ""));
    const found = (await index(table, columns)).get(keyOf(params)) ?? [];
    if (projection === "*") return found;
    const picked = projection.split(",").map((c) => c.trim());
    return found.map((row) => Object.fromEntries(picked.map((c) => [c, row[c]])));
  };
  return {
    ...base,
    rows,
    scalar: async (sql, ...params) => first(await rows(sql, ...params)),
    archived: (table, id, locationId) => archivedDocuments(rows, table, id, locationId),
  };
}

export function postgresData(target: PostgresTarget): StoredData {
  const pool: PgPool = openPool(target, 2);
  const rows = async (sql: string, ...params: unknown[]) => {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    return (await pool.query(text, params)).rows as StoredRow[];
  };
  return {
    kind: "postgres",
    rows,
    execute: async (sql, ...params) => {
      await rows(sql, ...params);
    },
    scalar: async (sql, ...params) => first(await rows(sql, ...params)),
    archived: (table, id, locationId) => archivedDocuments(rows, table, id, locationId),
    same: (stored, sent) => {
      if (stored === sent) return true;
      if (typeof sent !== "string" || typeof stored !== "string") return false;
      if (DATE_TIME_WITH_OFFSET.test(sent)) return Date.parse(stored) === Date.parse(sent);
      return stored === storedText(sent);
    },
    sameJson: (stored, sentJson) =>
      sentJson === null
        ? stored === null
        : canonical(stored) === canonical(withoutNul(JSON.parse(sentJson))),
    sameDocument: (document, record) => canonical(document) === canonical(withoutNul(record)),
    frozen() {
      return frozenReader(this);
    },
    close: () => pool.end(),
  };
}
