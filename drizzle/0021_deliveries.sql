CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`open_key` text,
	`detail` text NOT NULL,
	`opened_at` text NOT NULL,
	`closed_at` text,
	`resolution` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_open_key` ON `alerts` (`open_key`);--> statement-breakpoint
CREATE INDEX `alerts_opened` ON `alerts` (`opened_at`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`sent_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_once` ON `deliveries` (`kind`,`key`,`channel`,`recipient`);--> statement-breakpoint
CREATE INDEX `deliveries_waiting` ON `deliveries` (`status`,`next_attempt_at`);