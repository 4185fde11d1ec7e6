/** Column kinds shared by every table of the contract: booleans are INTEGER 0/1, date-times are
 * TEXT exactly as the API sent them, money and quantities REAL as sent. */
import { sql } from "drizzle-orm";
import {
  customType,
  getTableConfig,
  integer,
  type SQLiteColumn,
  type SQLiteTable,
  text,
} from "drizzle-orm/sqlite-core";

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

/** The columns that hold values: all but the views' typed twins (below), which SQLite computes
 * on read and PostgreSQL has no need of. */
export function storedColumns(table: SQLiteTable): SQLiteColumn[] {
  return getTableConfig(table).columns.filter((column) => column.generated === undefined);
}

/** The names of typed twins (below): no column that holds a value ends so. */
export type TwinName = `${string}_typed` | `${string}_utc`;

/** A column SQLite computes on read from another, stores nothing of, and declares as `type`. */
const twin = (type: "DATE" | "TIMESTAMP", name: string, value: string) =>
  customType<{ data: string; driverData: string }>({ dataType: () => type })(
    name,
  ).generatedAlwaysAs(sql.raw(value), { mode: "virtual" });

/**
 * The typed twins of a table's days and date-times, which the views show in their place
 * (sql/views.ts). A BI tool's SQLite driver types a view's column by the declared type of the
 * table column it names (an expression gets none, and a CAST cannot say DATE), so a view can show
 * a day as DATE only by naming a column declared DATE: `business_date_typed` is business_date so
 * declared, `closed_at_typed` closed_at as TIMESTAMP, and `closed_at_utc` the same instant in UTC
 * (`2026-11-27T17:00:22.334Z`). Values unchanged, no byte on disk; PostgreSQL's own columns are
 * date and timestamptz already.
 */
export function typedTwins<const Day extends string, const Instant extends string>(
  days: readonly Day[],
  instants: readonly Instant[],
) {
  type Twins = Record<
    `${Day}_typed` | `${Instant}_typed` | `${Instant}_utc`,
    ReturnType<typeof twin>
  >;
  const twins: Record<string, ReturnType<typeof twin>> = {};
  for (const day of days) twins[`${day}_typed`] = twin("DATE", `${day}_typed`, `"${day}"`);
  for (const instant of instants) {
    twins[`${instant}_typed`] = twin("TIMESTAMP", `${instant}_typed`, `"${instant}"`);
    twins[`${instant}_utc`] = twin(
      "TIMESTAMP",
      `${instant}_utc`,
      `strftime('%Y-%m-%dT%H:%M:%fZ', "${instant}")`,
    );
  }
  return twins as Twins;
}
