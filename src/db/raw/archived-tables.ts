/** The typed tables whose records have their JSON archived (raw_records.table_name), and the
 * column that holds each row's location. */
export const ARCHIVED_TABLES = [
  { table: "orders", locationColumn: "location_id" },
  { table: "reports", locationColumn: "location_id" },
  { table: "locations", locationColumn: "id" },
  { table: "devices", locationColumn: "location_id" },
  { table: "categories", locationColumn: "location_id" },
  { table: "products", locationColumn: "location_id" },
  { table: "modifiers", locationColumn: "location_id" },
  { table: "payment_methods", locationColumn: "location_id" },
  { table: "taxes", locationColumn: "location_id" },
] as const;

export const ARCHIVED_TABLE_NAMES: readonly string[] = ARCHIVED_TABLES.map(({ table }) => table);
