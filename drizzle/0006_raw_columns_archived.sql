-- The schema now has no `raw` column in the typed tables, but this migration does not drop them:
-- the raw-archive upgrade (src/db/upgrades/archive-raw-columns.ts) moves their JSON into
-- `raw_records` first, compressed, in batches that survive an interruption, then drops each
-- column and records itself here. SQL cannot compress, and one migration transaction over
-- gigabytes would start again from nothing after an interruption.
CREATE TABLE `schema_upgrades` (
	`name` text PRIMARY KEY NOT NULL,
	`finished_at` text NOT NULL
);
