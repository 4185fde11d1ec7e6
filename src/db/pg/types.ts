/**
 * The PostgreSQL type of each column of the contract, derived from its SQLite declaration and
 * name so that the two destinations keep one list of tables and columns (schema/). Native types
 * where PostgreSQL has them:
 *
 * - 0/1 flags → boolean;
 * - days (business_date, day) → date;
 * - date-times (…_at, the report's clock-in and clock-out) → timestamptz: the instant; the offset
 *   the API wrote stays in the raw document, the local hour in closed_hour, the local day in
 *   business_date;
 * - money, quantities and rates (REAL in SQLite) → numeric: the decimal the API wrote, summed
 *   exactly to the cent, as accountants expect (double precision would add binary rounding to
 *   every sum);
 * - JSON kept as text in SQLite (menus, tips, a run's stats) → jsonb;
 * - whole numbers → bigint, as wide as SQLite's INTEGER, so that no value SQLite takes is refused
 *   (a report number past 2^31, a 48-bit content hash); row ids SQLite numbers itself → bigint
 *   identity.
 */
import { isDateTimeColumn, JSON_COLUMNS } from "../schema/columns.js";

export type PgColumnType =
  | "text"
  | "bigint"
  | "identity"
  | "boolean"
  | "numeric"
  | "date"
  | "timestamptz"
  | "jsonb";

/** The SQLite facts the mapping reads. */
export interface SqliteColumnFacts {
  name: string;
  /** As drizzle reports it: "text", "integer", "real", "numeric", "blob". */
  sqlType: string;
  autoIncrement: boolean;
}

const DAY_COLUMNS = new Set(["business_date", "day"]);

export function pgColumnType(column: SqliteColumnFacts, flags: ReadonlySet<string>): PgColumnType {
  const { name, sqlType } = column;
  switch (sqlType) {
    case "integer":
      if (column.autoIncrement) return "identity";
      return flags.has(name) ? "boolean" : "bigint";
    case "real":
    case "numeric":
      return "numeric";
    case "text":
      if (DAY_COLUMNS.has(name)) return "date";
      if (isDateTimeColumn(name)) return "timestamptz";
      return JSON_COLUMNS.has(name) ? "jsonb" : "text";
    default:
      throw new Error(`no PostgreSQL type for the ${sqlType} column ${name}`);
  }
}
