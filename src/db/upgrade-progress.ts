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
