/** The location behind each API key, and its devices (a snapshot of `deviceList`). */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { contentHash, deletedAt, locationId, syncedAt } from "./columns.js";

export const locations = sqliteTable("locations", {
  id: text("id").primaryKey(),
  /** The same as id: every table carries location_id, so that joins read alike everywhere. */
  location_id: locationId(),
  name: text("name"),
  address: text("address"),
  city: text("city"),
  zip: text("zip"),
  country: text("country"),
  phone: text("phone"),
  url: text("url"),
  text: text("text"),
  siret: text("siret"),
  naf: text("naf"),
  tva: text("tva"),
  /** Which configured key reads this location: a fingerprint, never the key. */
  api_key_fingerprint: text("api_key_fingerprint"),
  /** The time zone setting the stored hours (orders.closed_hour) were computed with; null when
   * none was set: hours are then as the API wrote them. Only the sync's time zone step writes it. */
  time_zone: text("time_zone"),
  content_hash: contentHash(),
  synced_at: syncedAt(),
});

export const devices = sqliteTable(
  "devices",
  {
    location_id: locationId(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    model: text("model").notNull(),
    /** Index in the location's deviceList. */
    position: integer("position").notNull(),
    content_hash: contentHash(),
    synced_at: syncedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [primaryKey({ columns: [t.location_id, t.id] })],
);
