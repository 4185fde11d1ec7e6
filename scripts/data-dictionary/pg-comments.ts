/**
 * The data dictionary's words as PostgreSQL comments (`COMMENT ON`) on every relation of the
 * contract, every view and each of their columns, so that a BI tool shows them (psql's `\d+`,
 * JDBC's REMARKS). The comment also marks what a BI role is granted (docs/scaling.md): the
 * contract, none of pos-sync's own tables. They ride at the end of PostgreSQL's views migration
 * (scripts/view-migrations.ts): recreating a view drops its comments, so they are written again
 * each time the views are.
 */
import {
  CHILD_RELATIONS,
  CONTRACT_TABLES,
  STORED_RELATIONS,
} from "../../src/db/schema/relations.js";
import { readSchema, type TableFacts, viewColumnMeaning } from "./data-dictionary.js";
import { TABLE_DOCS, VIEW_DOCS } from "./dictionary/index.js";

const CONTRACT = new Set([
  ...CONTRACT_TABLES,
  ...STORED_RELATIONS.map((relation) => relation.name),
  ...CHILD_RELATIONS.map((relation) => relation.name),
]);

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** What PostgreSQL keeps no column of: a column only SQLite has is documented "—" there. */
const onPostgres = (table: TableFacts) => table.columns.filter((c) => c.pgType !== "—");

/** A meaning in PostgreSQL's words: the dictionary words flags and date-times as SQLite stores
 * them (1 or 0, text as sent or in UTC), but a boolean is true or false, and a timestamptz an
 * instant that a client shows in its session's time zone, neither the offset sent nor UTC. */
export function postgresMeaning(meaning: string, pgType: string): string {
  if (pgType === "boolean")
    return meaning
      .replace(/^1 (when|for)\b/, "True $1")
      .replace(/\b0 (otherwise|when)\b/, "false $1");
  if (pgType === "timestamptz")
    return meaning
      .replace(/(?:ISO 8601 with offset, )?as sent/, "the instant the API sent")
      .replace(/ \(UTC, ISO 8601\)|; UTC, ISO 8601(?=\))/, "");
  return meaning;
}

export function postgresComments(): string[] {
  const schema = readSchema();
  const statements: string[] = [];
  // By name: how a module lists its tables differs between loaders.
  const tables = schema.groups
    .flatMap((group) => group.tables)
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const table of tables) {
    const doc = TABLE_DOCS[table.name];
    const columns = onPostgres(table);
    if (!doc || !CONTRACT.has(table.name)) continue;
    // The relations of arrays, and orders, are views over the tables that store them.
    const kind = table.storedIn ? "VIEW" : "TABLE";
    statements.push(`COMMENT ON ${kind} ${table.name} IS ${quoted(doc.meaning)};`);
    for (const column of columns) {
      const meaning = doc.columns[column.name]?.meaning;
      if (meaning)
        statements.push(
          `COMMENT ON COLUMN ${table.name}.${column.name} IS ${quoted(postgresMeaning(meaning, column.pgType))};`,
        );
    }
  }
  for (const view of schema.views) {
    const doc = VIEW_DOCS[view.name];
    if (!doc) continue;
    statements.push(`COMMENT ON VIEW ${view.name} IS ${quoted(doc.meaning)};`);
    for (const column of view.columns) {
      const meaning = viewColumnMeaning(doc, column.name);
      if (meaning)
        statements.push(
          `COMMENT ON COLUMN ${view.name}.${column.name} IS ${quoted(postgresMeaning(meaning, column.pgType))};`,
        );
    }
  }
  return statements;
}
