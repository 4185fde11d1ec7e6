/**
 * PostgreSQL's two schemas: the configured one (POS_DB_SCHEMA) holds the contract alone, the
 * relations and views a BI tool lists, each commented; its `_internal` twin holds pos-sync's own
 * tables (the storage under the relations, ids by key, the raw archive, the summaries, the
 * bookkeeping), their indexes, sequences and trigger functions. A session reads both (its
 * search_path: connect.ts), so the SQL names neither.
 */

/** The schema of pos-sync's own tables beside `schema`. */
export function internalSchemaOf(schema: string): string {
  return `${schema}_internal`;
}

/** How drizzle/pg names the internal schema (as for the default schema, pos): the migrator
 * writes the configured one's in its place (migrate.ts). */
export const INTERNAL_SCHEMA_IN_MIGRATIONS = internalSchemaOf("pos");
