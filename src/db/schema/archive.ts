/** The raw JSON of every record, kept apart from the typed tables so that their scans stay lean:
 * compressed, one row per record, switchable off (`POS_KEEP_RAW=false`). `pos-sync raw` reads a
 * record's JSON back as text. */
import { blob, foreignKey, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { locationId, syncedAt } from "./columns.js";

/** Preset dictionaries of the compression (raw/codec.ts), learned from the first records of each
 * table and never changed: an archived record names the one it was compressed with. */
export const rawDictionaries = sqliteTable("raw_dictionaries", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** The table whose records it was learned from. */
  table_name: text("table_name").notNull(),
  dictionary: blob("dictionary", { mode: "buffer" }).notNull(),
  created_at: text("created_at").notNull(),
});

export const rawRecords = sqliteTable(
  "raw_records",
  {
    /** The typed table that holds the record's row: orders, reports, products, locations… */
    table_name: text("table_name").notNull(),
    /** The record's location (for a location, its own id). */
    location_id: locationId(),
    id: text("id").notNull(),
    /** Null: compressed without a dictionary. */
    dictionary_id: integer("dictionary_id"),
    /** The JSON as received (unknown fields included), deflated (raw/codec.ts). */
    payload: blob("payload", { mode: "buffer" }).notNull(),
    synced_at: syncedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.table_name, t.id, t.location_id] }),
    foreignKey({ columns: [t.dictionary_id], foreignColumns: [rawDictionaries.id] }),
  ],
);
