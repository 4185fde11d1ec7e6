-- `reports` and `order_versions` become views of the tables that store them (report_rows,
-- order_version_rows; the views migration after this one makes them), so that `SELECT *` shows
-- their columns alone, without the typed twins the BI views read, in PostgreSQL's order. The
-- renames carry the children's foreign keys, the row counts' triggers and the views that name the
-- tables (the BI views, made again next, and the user's own) over to the stored tables.
ALTER TABLE `reports` RENAME TO `report_rows`;
--> statement-breakpoint
DROP INDEX IF EXISTS `reports_id_unique`;
--> statement-breakpoint
CREATE UNIQUE INDEX `report_rows_id_unique` ON `report_rows` (`id`);
--> statement-breakpoint
ALTER TABLE `order_versions` RENAME TO `order_version_rows`;
