CREATE TABLE `sync_state` (
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`location_id`, `name`)
);
--> statement-breakpoint
CREATE TABLE `writer_lease` (
	`id` integer PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`pid` integer NOT NULL,
	`hostname` text NOT NULL,
	`command` text NOT NULL,
	`acquired_at` text NOT NULL,
	`heartbeat_at` text NOT NULL,
	CONSTRAINT "writer_lease_single_row" CHECK("writer_lease"."id" = 1)
);
