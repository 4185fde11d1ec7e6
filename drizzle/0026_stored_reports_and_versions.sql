-- `reports` and `order_versions` become views of the tables that store them (report_rows,
-- order_version_rows; the views migration that follows makes them), so that `SELECT *` shows
-- their columns alone, without the typed twins the BI views read, in PostgreSQL's order. The
-- renames carry the children's foreign keys (foreign keys are on) and the row counts' triggers
-- over to the stored tables. legacy_alter_table: views that name the tables keep their names
-- (the user's own then read the relations, the BI views are made again next), and one of the
-- user's that no longer reads does not stop the upgrade.
PRAGMA legacy_alter_table = ON;
--> statement-breakpoint
ALTER TABLE `reports` RENAME TO `report_rows`;
--> statement-breakpoint
DROP INDEX IF EXISTS `reports_id_unique`;
--> statement-breakpoint
CREATE UNIQUE INDEX `report_rows_id_unique` ON `report_rows` (`id`);
--> statement-breakpoint
ALTER TABLE `order_versions` RENAME TO `order_version_rows`;
--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;
