/** Column kinds shared by every table of the contract: booleans are INTEGER 0/1, date-times are
 * TEXT exactly as the API sent them, money and quantities REAL as sent. */
import { getTableConfig, integer, type SQLiteTable, text } from "drizzle-orm/sqlite-core";

/** Names of the 0/1 columns, which PostgreSQL stores as boolean (pg/types.ts). */
export const FLAG_COLUMNS = new Set<string>();

/** A row as the writers bind it: column name to value. */
export type Row = Record<string, string | number | null>;

/** Columns SQLite keeps as JSON text (and PostgreSQL as jsonb: pg/types.ts). */
export const JSON_COLUMNS: ReadonlySet<string> = new Set([
  "menus",
  "tips",
  "stats",
  "changed_fields",
  "content",
]);

/** Text columns of date-times, which SQLite keeps as the API wrote them and PostgreSQL as
 * instants (timestamptz): every `…_at`, and the report's clock-in and clock-out. */
const SENT_DATE_TIMES: ReadonlySet<string> = new Set(["clock_in_date", "clock_out_date"]);

export function isDateTimeColumn(name: string): boolean {
  return name.endsWith("_at") || SENT_DATE_TIMES.has(name);
}

/** 0 or 1. Plain integers rather than Drizzle's boolean mode: rows go to SQLite as they are. */
export const flag = (name: string) => {
  FLAG_COLUMNS.add(name);
  return integer(name);
};

/** The record's content hash (raw/codec.ts): a changed record is told from an unchanged one by
 * it. Null only on rows an older version wrote, until the upgrade archives their JSON. */
export const contentHash = () => integer("content_hash");

/** When pos-sync last wrote the row (ISO 8601, UTC). */
export const syncedAt = () => text("synced_at").notNull();

/** When the row last went missing from its snapshot list; null while it is listed. */
export const deletedAt = () => text("deleted_at");

export const locationId = () => text("location_id").notNull();

/** Whether the database gives the column's values (an INTEGER PRIMARY KEY AUTOINCREMENT, such as
 * orders.key): Drizzle keeps this off its column type. */
export function isAutoIncrement(column: object): boolean {
  return (column as { autoIncrement?: boolean }).autoIncrement === true;
}

/** The columns an insert writes: all but a key the database gives (orders.key). */
export function writtenColumns(table: SQLiteTable): string[] {
  return getTableConfig(table)
    .columns.filter((column) => !(column.primary && isAutoIncrement(column)))
    .map((column) => column.name);
}
