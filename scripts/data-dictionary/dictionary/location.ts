/** The location behind each API key and its devices (src/db/schema/location.ts). */
import { api, contentHash, deletedAt, derived, locationId, syncedAt } from "./columns.js";
import type { TableDoc } from "./types.js";

/** A location field the API may send as null. */
const nullable = (from: string, meaning: string) =>
  api(from, `${meaning}; null when the API sends none.`);

export const LOCATION_TABLES: Record<string, TableDoc> = {
  locations: {
    record: "location",
    meaning:
      "One row per location, that is per configured API key (a key reads exactly one location).",
    columns: {
      id: api("id", "Location identifier (UUID)."),
      location_id: api("id", "The same as id, so that every table joins on location_id."),
      name: nullable("name", "Location name"),
      address: nullable("address", "Street address"),
      city: nullable("city", "City"),
      zip: nullable("zip", "Postal code"),
      country: nullable("country", "Country"),
      phone: nullable("phone", "Phone number"),
      url: nullable("url", "Web address"),
      text: nullable("text", "Free text"),
      siret: nullable("siret", "Company registration code (SIRET)"),
      naf: nullable("naf", "Activity code (NAF)"),
      tva: nullable("tva", "VAT number (TVA)"),
      api_key_fingerprint: derived(
        "Short fingerprint of the configured API key that reads this location (never the key itself).",
      ),
      time_zone: derived(
        "The time zone setting (IANA name, POS_TIME_ZONE or the location's timeZone in the config file) the hours of its orders (orders.closed_hour) are on; null when none is set: hours are then as the API writes them. Changing the setting recomputes the stored hours on the next sync.",
      ),
      content_hash: contentHash("location"),
      synced_at: syncedAt(),
    },
  },
  devices: {
    record: "device",
    meaning: "The location's devices (tills), as last listed in its deviceList.",
    columns: {
      location_id: locationId(),
      id: api("id", "Device identifier (UUID)."),
      name: api("name", "Device name."),
      model: api("model", "Device model."),
      position: derived("Index of the device in the location's `deviceList[]` (0 = first)."),
      content_hash: contentHash("device (its element of deviceList)"),
      synced_at: syncedAt(),
      deleted_at: deletedAt("devices"),
    },
  },
};
