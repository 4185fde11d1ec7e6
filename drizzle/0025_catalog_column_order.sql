-- The catalog's tables and locations made again with their columns in the schema's order, the
-- order PostgreSQL has them in, so that `SELECT *` gives the same columns in the same order on
-- both databases (later columns had been added at the end here). Each table is renamed aside,
-- made again and filled; the tables of products' and modifiers' arrays are made again after
-- them, so that their foreign keys name the new tables; then the old ones are dropped.
-- legacy_alter_table: views of the user's own keep naming the tables, which exist again.
PRAGMA legacy_alter_table = ON;
--> statement-breakpoint
ALTER TABLE `locations` RENAME TO `locations_before_reorder`;
--> statement-breakpoint
CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`name` text,
	`address` text,
	`city` text,
	`zip` text,
	`country` text,
	`phone` text,
	`url` text,
	`text` text,
	`siret` text,
	`naf` text,
	`tva` text,
	`api_key_fingerprint` text,
	`time_zone` text,
	`content_hash` integer,
	`synced_at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `locations` (`id`, `location_id`, `name`, `address`, `city`, `zip`, `country`, `phone`, `url`, `text`, `siret`, `naf`, `tva`, `api_key_fingerprint`, `time_zone`, `content_hash`, `synced_at`) SELECT `id`, `location_id`, `name`, `address`, `city`, `zip`, `country`, `phone`, `url`, `text`, `siret`, `naf`, `tva`, `api_key_fingerprint`, `time_zone`, `content_hash`, `synced_at` FROM `locations_before_reorder`;
--> statement-breakpoint
ALTER TABLE `devices` RENAME TO `devices_before_reorder`;
--> statement-breakpoint
CREATE TABLE `devices` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`model` text NOT NULL,
	`position` integer NOT NULL,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `devices` (`location_id`, `id`, `name`, `model`, `position`, `content_hash`, `synced_at`, `deleted_at`) SELECT `location_id`, `id`, `name`, `model`, `position`, `content_hash`, `synced_at`, `deleted_at` FROM `devices_before_reorder`;
--> statement-breakpoint
ALTER TABLE `categories` RENAME TO `categories_before_reorder`;
--> statement-breakpoint
CREATE TABLE `categories` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `categories` (`location_id`, `id`, `name`, `position`, `content_hash`, `synced_at`, `deleted_at`) SELECT `location_id`, `id`, `name`, `position`, `content_hash`, `synced_at`, `deleted_at` FROM `categories_before_reorder`;
--> statement-breakpoint
ALTER TABLE `products` RENAME TO `products_before_reorder`;
--> statement-breakpoint
CREATE TABLE `products` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`category` text NOT NULL,
	`category_id` text NOT NULL,
	`sku` text,
	`is_archived` integer NOT NULL,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `products` (`location_id`, `id`, `name`, `category`, `category_id`, `sku`, `is_archived`, `content_hash`, `synced_at`, `deleted_at`) SELECT `location_id`, `id`, `name`, `category`, `category_id`, `sku`, `is_archived`, `content_hash`, `synced_at`, `deleted_at` FROM `products_before_reorder`;
--> statement-breakpoint
ALTER TABLE `modifiers` RENAME TO `modifiers_before_reorder`;
--> statement-breakpoint
CREATE TABLE `modifiers` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `modifiers` (`location_id`, `id`, `name`, `content_hash`, `synced_at`, `deleted_at`) SELECT `location_id`, `id`, `name`, `content_hash`, `synced_at`, `deleted_at` FROM `modifiers_before_reorder`;
--> statement-breakpoint
ALTER TABLE `payment_methods` RENAME TO `payment_methods_before_reorder`;
--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`enabled` integer NOT NULL,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `payment_methods` (`location_id`, `id`, `name`, `enabled`, `content_hash`, `synced_at`, `deleted_at`) SELECT `location_id`, `id`, `name`, `enabled`, `content_hash`, `synced_at`, `deleted_at` FROM `payment_methods_before_reorder`;
--> statement-breakpoint
ALTER TABLE `taxes` RENAME TO `taxes_before_reorder`;
--> statement-breakpoint
CREATE TABLE `taxes` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`percentage` integer NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `taxes` (`location_id`, `id`, `name`, `percentage`, `tax_rate_bp`, `content_hash`, `synced_at`, `deleted_at`) SELECT `location_id`, `id`, `name`, `percentage`, `tax_rate_bp`, `content_hash`, `synced_at`, `deleted_at` FROM `taxes_before_reorder`;
--> statement-breakpoint
ALTER TABLE `product_sub_categories` RENAME TO `product_sub_categories_before_reorder`;
--> statement-breakpoint
CREATE TABLE `product_sub_categories` (
	`location_id` text NOT NULL,
	`product_id` text NOT NULL,
	`sub_category_id` text NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`location_id`, `product_id`, `sub_category_id`),
	FOREIGN KEY (`location_id`,`product_id`) REFERENCES `products`(`location_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `product_sub_categories` (`location_id`, `product_id`, `sub_category_id`, `name`, `position`) SELECT `location_id`, `product_id`, `sub_category_id`, `name`, `position` FROM `product_sub_categories_before_reorder`;
--> statement-breakpoint
DROP TABLE `product_sub_categories_before_reorder`;
--> statement-breakpoint
ALTER TABLE `product_prices` RENAME TO `product_prices_before_reorder`;
--> statement-breakpoint
CREATE TABLE `product_prices` (
	`location_id` text NOT NULL,
	`product_id` text NOT NULL,
	`price_type_id` integer NOT NULL,
	`price_type_name` text NOT NULL,
	`unit_price` real NOT NULL,
	`tax_rate` real NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`location_id`, `product_id`, `price_type_id`),
	FOREIGN KEY (`location_id`,`product_id`) REFERENCES `products`(`location_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `product_prices` (`location_id`, `product_id`, `price_type_id`, `price_type_name`, `unit_price`, `tax_rate`, `tax_rate_bp`, `position`) SELECT `location_id`, `product_id`, `price_type_id`, `price_type_name`, `unit_price`, `tax_rate`, `tax_rate_bp`, `position` FROM `product_prices_before_reorder`;
--> statement-breakpoint
DROP TABLE `product_prices_before_reorder`;
--> statement-breakpoint
ALTER TABLE `modifier_options` RENAME TO `modifier_options_before_reorder`;
--> statement-breakpoint
CREATE TABLE `modifier_options` (
	`location_id` text NOT NULL,
	`modifier_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`price` real NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`location_id`, `modifier_id`, `id`),
	FOREIGN KEY (`location_id`,`modifier_id`) REFERENCES `modifiers`(`location_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `modifier_options` (`location_id`, `modifier_id`, `id`, `name`, `price`, `position`) SELECT `location_id`, `modifier_id`, `id`, `name`, `price`, `position` FROM `modifier_options_before_reorder`;
--> statement-breakpoint
DROP TABLE `modifier_options_before_reorder`;
--> statement-breakpoint
DROP TABLE `locations_before_reorder`;
--> statement-breakpoint
DROP TABLE `devices_before_reorder`;
--> statement-breakpoint
DROP TABLE `categories_before_reorder`;
--> statement-breakpoint
DROP TABLE `products_before_reorder`;
--> statement-breakpoint
DROP TABLE `modifiers_before_reorder`;
--> statement-breakpoint
DROP TABLE `payment_methods_before_reorder`;
--> statement-breakpoint
DROP TABLE `taxes_before_reorder`;
--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;
