CREATE TABLE `raw_dictionaries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`table_name` text NOT NULL,
	`dictionary` blob NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `raw_records` (
	`table_name` text NOT NULL,
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`dictionary_id` integer,
	`payload` blob NOT NULL,
	`synced_at` text NOT NULL,
	PRIMARY KEY(`table_name`, `id`, `location_id`),
	FOREIGN KEY (`dictionary_id`) REFERENCES `raw_dictionaries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `categories` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `modifiers` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `payment_methods` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `taxes` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `devices` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `locations` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `content_hash` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `content_hash` integer;