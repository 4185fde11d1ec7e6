/** How far an upgrade of stored data is: which upgrade, the part in hand (a table), the share
 * of it done (0 to 1), and how many rows or days it has. */
export interface UpgradeProgress {
  upgrade: string;
  part: string;
  done: number;
  items: number;
}

/** The `upgrade` of the schema migrations' progress (migrate.ts, pg/migrate.ts). */
export const SCHEMA_MIGRATIONS = "schema-migrations";

// The upgrades of SQLite's stored data (sqlite/upgrades/), named here for those who show them.

/** The raw JSON of the typed tables moved into the archive (archive-raw-columns.ts). */
export const ARCHIVE_RAW_COLUMNS = "archive-raw-columns";
/** The orders stamped with their closing hour (fill-closed-hours.ts). */
export const FILL_CLOSED_HOURS = "fill-closed-hours";
/** Orders, reports and versions given their date-times' offsets (fill-clock-offsets.ts). */
export const FILL_CLOCK_OFFSETS = "fill-clock-offsets";
/** The daily summary tables filled (fill-rollups.ts). */
export const FILL_ROLLUPS = "fill-rollups";
