-- The typed twins made again on the form drivers parse, after the offsets they read.
-- legacy_alter_table: dropping a twin leaves the views that name it (the BI views, the user's own
-- over them) as they are; they read the twin made again under the same name, and the views
-- migration that follows makes the BI views again.
PRAGMA legacy_alter_table = ON;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `closed_at_offset` integer;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `ended_at_offset` integer;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `next_updated_at_offset` integer;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `created_at_offset` integer;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `closed_at_offset` integer;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `updated_at_offset` integer;
--> statement-breakpoint
ALTER TABLE `reports` ADD `finalized_at_offset` integer;
--> statement-breakpoint
ALTER TABLE `order_versions` DROP COLUMN `closed_at_typed`;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `closed_at_typed` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "closed_at", "closed_at_offset" || ' minutes')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_versions` DROP COLUMN `closed_at_utc`;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `closed_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "closed_at")) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_versions` DROP COLUMN `ended_at_typed`;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `ended_at_typed` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "ended_at", "ended_at_offset" || ' minutes')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_versions` DROP COLUMN `ended_at_utc`;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `ended_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "ended_at")) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_versions` DROP COLUMN `next_updated_at_typed`;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `next_updated_at_typed` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "next_updated_at", "next_updated_at_offset" || ' minutes')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_versions` DROP COLUMN `next_updated_at_utc`;
--> statement-breakpoint
ALTER TABLE `order_versions` ADD `next_updated_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "next_updated_at")) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_rows` DROP COLUMN `created_at_typed`;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `created_at_typed` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "created_at", "created_at_offset" || ' minutes')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_rows` DROP COLUMN `created_at_utc`;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `created_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "created_at")) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_rows` DROP COLUMN `closed_at_typed`;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `closed_at_typed` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "closed_at", "closed_at_offset" || ' minutes')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_rows` DROP COLUMN `closed_at_utc`;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `closed_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "closed_at")) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_rows` DROP COLUMN `updated_at_typed`;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `updated_at_typed` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "updated_at", "updated_at_offset" || ' minutes')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `order_rows` DROP COLUMN `updated_at_utc`;
--> statement-breakpoint
ALTER TABLE `order_rows` ADD `updated_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "updated_at")) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `reports` DROP COLUMN `finalized_at_typed`;
--> statement-breakpoint
ALTER TABLE `reports` ADD `finalized_at_typed` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "finalized_at", "finalized_at_offset" || ' minutes')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `reports` DROP COLUMN `finalized_at_utc`;
--> statement-breakpoint
ALTER TABLE `reports` ADD `finalized_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%d %H:%M:%f', "finalized_at")) VIRTUAL;
--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;
