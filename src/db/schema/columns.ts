/** Column kinds shared by every table of the contract: booleans are INTEGER 0/1, date-times are
 * TEXT exactly as the API sent them, money and quantities REAL as sent. */
import { sql } from "drizzle-orm";
import {
  customType,
  getTableConfig,
  type IndexColumn,
  index,
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

/** The column a typed twin shows (`business_date_typed` → `business_date`, `closed_at_utc` →
 * `closed_at`): what another dialect, which has no twins, names in its place. */
export const twinSource = (twin: string) => twin.replace(/_(typed|utc)$/, "");

/** A column SQLite computes on read from others, stores nothing of, and declares as `type`. */
const twin = (type: "DATE" | "TIMESTAMP", name: string, value: string) =>
  customType<{ data: string; driverData: string }>({ dataType: () => type })(
    name,
  ).generatedAlwaysAs(sql.raw(value), { mode: "virtual" });

/** SQLite's own text of a date-time (`2026-11-27 18:00:22.334`), which drivers parse as a
 * TIMESTAMP: the instant `column` names, moved by `modifier` minutes when given. */
const sqliteDateTime = (column: string, modifier?: string) =>
  `strftime('%Y-%m-%d %H:%M:%f', "${column}"${modifier ? `, "${modifier}" || ' minutes'` : ""})`;

/** The column beside a date-time that keeps the location's UTC offset then (below). */
export const offsetColumn = (dateTime: string) => `${dateTime}_offset`;

const offset = (name: string) => integer(name);

/**
 * What the views need to show a table's days and date-times as a BI tool's driver parses them
 * (sql/bi-views.ts): for each date-time, its offset (`closed_at_offset`, stored: the minutes the
 * location's clock was ahead of UTC then, clock/local-clock.ts `offsetOf`), and the typed twins.
 *
 * A SQLite driver types a view's column by the declared type of the table column it names (an
 * expression gets none, and a CAST cannot say DATE), so a view can show a day as DATE only by
 * naming a column declared DATE: `business_date_typed` is business_date so declared;
 * `closed_at_typed` is closed_at on the location's wall clock and `closed_at_utc` in UTC, both in
 * SQLite's own text (`2026-11-27 18:00:22.334`), the one form both Python's converters and JDBC's
 * SQLite driver read without settings. The twins take no byte on disk; PostgreSQL needs none (its
 * views compute the same from the instant and the offset).
 */
export function clockColumns<const Day extends string, const Instant extends string>(
  days: readonly Day[],
  instants: readonly Instant[],
) {
  type Twins = Record<
    `${Day}_typed` | `${Instant}_typed` | `${Instant}_utc`,
    ReturnType<typeof twin>
  > &
    Record<`${Instant}_offset`, ReturnType<typeof offset>>;
  const columns: Record<string, unknown> = {};
  for (const instant of instants) columns[offsetColumn(instant)] = offset(offsetColumn(instant));
  for (const day of days) columns[`${day}_typed`] = twin("DATE", `${day}_typed`, `"${day}"`);
  for (const instant of instants) {
    columns[`${instant}_typed`] = twin(
      "TIMESTAMP",
      `${instant}_typed`,
      sqliteDateTime(instant, offsetColumn(instant)),
    );
    columns[`${instant}_utc`] = twin("TIMESTAMP", `${instant}_utc`, sqliteDateTime(instant));
  }
  return columns as Twins;
}

/** The index a filter by day searches, on the tables of orders, reports and order versions. The
 * views show a day as its typed twin, so a BI tool's filter (`WHERE business_date BETWEEN …`)
 * compares the twin, which an index of the stored column does not serve: the index is on the twin
 * (SQLite computes it once, on write). PostgreSQL, which has no twins, indexes the day itself
 * (twinSource). The summary tables have none: SQLite read every whole scan of one through such an
 * index, measured a third slower (benchmark 6's questions), and a year's summary is read whole
 * in milliseconds. */
export const dayIndex = (table: string, day: IndexColumn) => index(`${table}_day`).on(day);
