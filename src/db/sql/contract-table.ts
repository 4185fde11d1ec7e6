/**
 * A table of the contract as another dialect rebuilds it. The contract's tables are declared
 * once, with drizzle's sqlite-core (../schema/); PostgreSQL's are derived from them
 * (pg/schema.ts), and read them here, in plain terms: columns, keys, indexes and foreign keys by
 * name, so that no dialect but SQLite's reads SQLite's types.
 */
import {
  getTableConfig,
  type SQLiteColumn,
  type ForeignKey as SQLiteForeignKey,
  type SQLiteTable,
} from "drizzle-orm/sqlite-core";
import { isAutoIncrement, storedColumns, twinSource } from "../schema/columns.js";

/** A table of the contract (../schema/). */
export type ContractTable = SQLiteTable;

export interface ContractColumn {
  name: string;
  /** As drizzle reports it: "text", "integer", "real", "numeric", "blob". */
  sqlType: string;
  notNull: boolean;
  primary: boolean;
  /** Whether the database gives its values (orders.key). */
  autoIncrement: boolean;
  /** Whether it has a unique constraint of its own, and the constraint's name if given. */
  isUnique: boolean;
  uniqueName: string | undefined;
}

export interface ContractIndex {
  name: string;
  unique: boolean;
  columns: string[];
}

export interface ContractForeignKey {
  name: string;
  columns: string[];
  foreignTable: ContractTable;
  foreignColumns: string[];
  onDelete: NonNullable<SQLiteForeignKey["onDelete"]> | undefined;
}

export interface ContractTableOutline {
  name: string;
  /** The columns that hold values, in order (schema/columns.ts's storedColumns). */
  columns: ContractColumn[];
  primaryKeys: string[][];
  indexes: ContractIndex[];
  foreignKeys: ContractForeignKey[];
}

/** A column of a key or an index by name; a day's typed twin by the day, which the other
 * dialects index in its place (schema/columns.ts, dayIndex). A date-time's twin has no such
 * column: its wall clock is the instant and an offset there. */
const nameOf = (table: string) => (column: unknown) => {
  if (typeof column !== "object" || column === null || !("name" in column)) {
    throw new Error(`${table}: only plain columns can be mirrored in an index`);
  }
  const name = String(column.name);
  if (!("generated" in column) || column.generated === undefined) return name;
  if ((column as SQLiteColumn).getSQLType() !== "DATE")
    throw new Error(`${table}: only a day's typed twin can be mirrored in an index, not ${name}`);
  return twinSource(name);
};

export function outlineOf(table: ContractTable): ContractTableOutline {
  const config = getTableConfig(table);
  const named = nameOf(config.name);
  return {
    name: config.name,
    columns: storedColumns(table).map((column) => ({
      name: column.name,
      sqlType: column.getSQLType(),
      notNull: column.notNull,
      primary: column.primary,
      autoIncrement: isAutoIncrement(column),
      isUnique: column.isUnique,
      uniqueName: column.uniqueName,
    })),
    primaryKeys: config.primaryKeys.map((key) => key.columns.map(named)),
    indexes: config.indexes.map((ix) => ({
      name: ix.config.name,
      unique: ix.config.unique,
      columns: ix.config.columns.map(named),
    })),
    foreignKeys: config.foreignKeys.map((fk) => {
      const reference = fk.reference();
      return {
        name: fk.getName(),
        columns: reference.columns.map(named),
        foreignTable: reference.foreignTable,
        foreignColumns: reference.foreignColumns.map(named),
        onDelete: fk.onDelete,
      };
    }),
  };
}
