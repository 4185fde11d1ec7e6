/** The location's writes' SQL both databases run (sync-writes.ts's location steps). */
import type { SqlDialect } from "./dialect.js";

/** The location as stored, as far as a write of it needs (write-store.ts's StoredLocation):
 * parameter 1 is its id. */
export const storedLocationSql = (dialect: SqlDialect) =>
  `SELECT content_hash, api_key_fingerprint FROM locations WHERE id = ${dialect.param(1)}`;
