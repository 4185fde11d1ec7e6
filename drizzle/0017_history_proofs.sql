CREATE TABLE `history_repairs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`location_id` text NOT NULL,
	`stream` text NOT NULL,
	`day` text NOT NULL,
	`found_by` text NOT NULL,
	`found_at` text NOT NULL,
	`api_count` integer,
	`stored_count` integer,
	`missing` integer,
	`changed` integer,
	`extra` integer,
	`run_id` integer,
	`outcome` text NOT NULL,
	`inserted` integer,
	`updated` integer,
	`deleted` integer
);
--> statement-breakpoint
CREATE INDEX `history_repairs_found` ON `history_repairs` (`location_id`,`found_at`);--> statement-breakpoint
ALTER TABLE `sync_windows` ADD `proved_at` text;--> statement-breakpoint
ALTER TABLE `sync_windows` ADD `proved_by` text;--> statement-breakpoint
UPDATE `sync_windows` SET `proved_at` = `synced_at`, `proved_by` = 'read' WHERE `status` IN ('complete', 'open');