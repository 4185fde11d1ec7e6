CREATE TABLE `order_versions` (
	`order_id` text NOT NULL,
	`version` integer NOT NULL,
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`order_number` text NOT NULL,
	`operator_id` text NOT NULL,
	`operator_name` text NOT NULL,
	`updated_at` text NOT NULL,
	`closed_at` text NOT NULL,
	`total` real NOT NULL,
	`is_canceled` integer NOT NULL,
	`paid` real NOT NULL,
	`seen_at` text NOT NULL,
	`ended_at` text NOT NULL,
	`ended_by` text NOT NULL,
	`next_total` real,
	`next_updated_at` text,
	`next_operator_id` text,
	`next_operator_name` text,
	`next_is_canceled` integer,
	`changed_fields` text,
	`content` text NOT NULL,
	PRIMARY KEY(`order_id`, `version`)
);
--> statement-breakpoint
CREATE INDEX `order_versions_location_ended` ON `order_versions` (`location_id`,`ended_at`);--> statement-breakpoint
CREATE INDEX `order_versions_ended` ON `order_versions` (`ended_at`);