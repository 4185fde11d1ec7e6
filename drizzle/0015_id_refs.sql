-- The ids of the API that orders and the rows of their arrays name again and again, stored once
-- in api_ids: an order's location, report, operator and device (order_rows.location_ref …), and
-- the catalog entries its items, modifiers, discounts and payments name (item_catalog_ref …).
-- The contract's relations (orders, order_items …) become views that show the ids again (the
-- views migration after this one). Hand-ordered, as 0013: the five tables are renamed aside,
-- made again, their rows copied under the same keys (those a client with foreign keys off left
-- without their order or item stay behind, as 0013 left them), and the old tables dropped,
-- children first. legacy_alter_table: the renames leave views and triggers of the user's own
-- as they are.
PRAGMA legacy_alter_table = ON;
--> statement-breakpoint
ALTER TABLE `order_item_modifier_rows` RENAME TO `legacy_order_item_modifier_rows`;
--> statement-breakpoint
ALTER TABLE `order_item_discount_rows` RENAME TO `legacy_order_item_discount_rows`;
--> statement-breakpoint
ALTER TABLE `order_item_rows` RENAME TO `legacy_order_item_rows`;
--> statement-breakpoint
ALTER TABLE `order_payment_rows` RENAME TO `legacy_order_payment_rows`;
--> statement-breakpoint
ALTER TABLE `orders` RENAME TO `legacy_orders`;
--> statement-breakpoint
CREATE TABLE `api_ids` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_ids_id_unique` ON `api_ids` (`id`);
--> statement-breakpoint
INSERT INTO `api_ids` (`id`) SELECT `location_id` FROM `legacy_orders`
UNION SELECT `device_id` FROM `legacy_orders` WHERE `device_id` IS NOT NULL
UNION SELECT `report_id` FROM `legacy_orders`
UNION SELECT `operator_id` FROM `legacy_orders`
UNION SELECT `tax_catalog_id` FROM `legacy_order_item_rows`
UNION SELECT `item_catalog_id` FROM `legacy_order_item_rows`
UNION SELECT `modifier_group_id` FROM `legacy_order_item_modifier_rows`
UNION SELECT `modifier_id` FROM `legacy_order_item_modifier_rows`
UNION SELECT `discount_catalog_id` FROM `legacy_order_item_discount_rows`
UNION SELECT `payment_catalog_id` FROM `legacy_order_payment_rows`
ORDER BY 1;
--> statement-breakpoint
CREATE TABLE `order_rows` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`location_ref` integer NOT NULL,
	`business_date` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`customer_id` text,
	`device_ref` integer,
	`device_name` text,
	`report_ref` integer NOT NULL,
	`opened_at` text NOT NULL,
	`closed_at` text NOT NULL,
	`closed_hour` integer,
	`guests` real NOT NULL,
	`order_place` text NOT NULL,
	`order_number` text NOT NULL,
	`operator_ref` integer NOT NULL,
	`operator_name` text NOT NULL,
	`total` real NOT NULL,
	`total_tax` real NOT NULL,
	`total_discount` real NOT NULL,
	`menus` text NOT NULL,
	`tips` text,
	`is_canceled` integer NOT NULL,
	`is_transferred` integer NOT NULL,
	`transfer_reason` text,
	`cancel_reason` text,
	`channel` text NOT NULL,
	`service_type` text NOT NULL,
	`is_training` integer NOT NULL,
	`source` text NOT NULL,
	`external_order_id` text,
	`external_location_id` text,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`location_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`device_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`report_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`operator_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action
);;
--> statement-breakpoint
INSERT INTO `order_rows` (`key`, `id`, `location_ref`, `business_date`, `created_at`, `updated_at`, `customer_id`, `device_ref`, `device_name`, `report_ref`, `opened_at`, `closed_at`, `closed_hour`, `guests`, `order_place`, `order_number`, `operator_ref`, `operator_name`, `total`, `total_tax`, `total_discount`, `menus`, `tips`, `is_canceled`, `is_transferred`, `transfer_reason`, `cancel_reason`, `channel`, `service_type`, `is_training`, `source`, `external_order_id`, `external_location_id`, `content_hash`, `synced_at`, `deleted_at`) SELECT c.`key`, c.`id`, k0.`key`, c.`business_date`, c.`created_at`, c.`updated_at`, c.`customer_id`, k1.`key`, c.`device_name`, k2.`key`, c.`opened_at`, c.`closed_at`, c.`closed_hour`, c.`guests`, c.`order_place`, c.`order_number`, k3.`key`, c.`operator_name`, c.`total`, c.`total_tax`, c.`total_discount`, c.`menus`, c.`tips`, c.`is_canceled`, c.`is_transferred`, c.`transfer_reason`, c.`cancel_reason`, c.`channel`, c.`service_type`, c.`is_training`, c.`source`, c.`external_order_id`, c.`external_location_id`, c.`content_hash`, c.`synced_at`, c.`deleted_at` FROM `legacy_orders` c JOIN `api_ids` k0 ON k0.`id` = c.`location_id` LEFT JOIN `api_ids` k1 ON k1.`id` = c.`device_id` JOIN `api_ids` k2 ON k2.`id` = c.`report_id` JOIN `api_ids` k3 ON k3.`id` = c.`operator_id` ORDER BY c.`key`;
--> statement-breakpoint
UPDATE `sqlite_sequence` SET `seq` = MAX(`seq`, COALESCE((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'legacy_orders'), 0)) WHERE `name` = 'order_rows';
--> statement-breakpoint
CREATE UNIQUE INDEX `order_rows_id_unique` ON `order_rows` (`id`);
--> statement-breakpoint
CREATE INDEX `order_rows_location_day` ON `order_rows` (`location_ref`,`business_date`);
--> statement-breakpoint
CREATE INDEX `order_rows_report` ON `order_rows` (`report_ref`);
--> statement-breakpoint
CREATE TABLE `order_item_rows` (
	`order_key` integer NOT NULL,
	`position` integer NOT NULL,
	`description` text NOT NULL,
	`quantity` real NOT NULL,
	`weight` real,
	`unit_price` real NOT NULL,
	`total` real NOT NULL,
	`category` text NOT NULL,
	`sub_category` text NOT NULL,
	`is_canceled` integer NOT NULL,
	`cancel_reason` text,
	`tier` text NOT NULL,
	`is_transferred` integer NOT NULL,
	`transfer_reason` text,
	`stock_impact_indicator` integer,
	`tax_name` text NOT NULL,
	`tax_rate` real NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`tax_amount` real NOT NULL,
	`tax_catalog_ref` integer NOT NULL,
	`item_catalog_ref` integer NOT NULL,
	`is_loss` integer,
	`loss_reason` text,
	`combo_parent_id` text,
	PRIMARY KEY(`order_key`, `position`),
	FOREIGN KEY (`order_key`) REFERENCES `order_rows`(`key`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tax_catalog_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_catalog_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action
);;
--> statement-breakpoint
INSERT INTO `order_item_rows` (`order_key`, `position`, `description`, `quantity`, `weight`, `unit_price`, `total`, `category`, `sub_category`, `is_canceled`, `cancel_reason`, `tier`, `is_transferred`, `transfer_reason`, `stock_impact_indicator`, `tax_name`, `tax_rate`, `tax_rate_bp`, `tax_amount`, `tax_catalog_ref`, `item_catalog_ref`, `is_loss`, `loss_reason`, `combo_parent_id`) SELECT c.`order_key`, c.`position`, c.`description`, c.`quantity`, c.`weight`, c.`unit_price`, c.`total`, c.`category`, c.`sub_category`, c.`is_canceled`, c.`cancel_reason`, c.`tier`, c.`is_transferred`, c.`transfer_reason`, c.`stock_impact_indicator`, c.`tax_name`, c.`tax_rate`, c.`tax_rate_bp`, c.`tax_amount`, k0.`key`, k1.`key`, c.`is_loss`, c.`loss_reason`, c.`combo_parent_id` FROM `legacy_order_item_rows` c JOIN `order_rows` p ON p.`key` = c.`order_key` JOIN `api_ids` k0 ON k0.`id` = c.`tax_catalog_id` JOIN `api_ids` k1 ON k1.`id` = c.`item_catalog_id` ORDER BY c.`order_key`, c.`position`;
--> statement-breakpoint
CREATE TABLE `order_item_modifier_rows` (
	`order_key` integer NOT NULL,
	`item_position` integer NOT NULL,
	`position` integer NOT NULL,
	`modifier_group_ref` integer NOT NULL,
	`modifier_ref` integer NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`order_key`, `item_position`, `position`),
	FOREIGN KEY (`order_key`,`item_position`) REFERENCES `order_item_rows`(`order_key`,`position`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`modifier_group_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`modifier_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action
);;
--> statement-breakpoint
INSERT INTO `order_item_modifier_rows` (`order_key`, `item_position`, `position`, `modifier_group_ref`, `modifier_ref`, `name`) SELECT c.`order_key`, c.`item_position`, c.`position`, k0.`key`, k1.`key`, c.`name` FROM `legacy_order_item_modifier_rows` c JOIN `order_item_rows` p ON p.`order_key` = c.`order_key` AND p.`position` = c.`item_position` JOIN `api_ids` k0 ON k0.`id` = c.`modifier_group_id` JOIN `api_ids` k1 ON k1.`id` = c.`modifier_id` ORDER BY c.`order_key`, c.`item_position`, c.`position`;
--> statement-breakpoint
CREATE TABLE `order_item_discount_rows` (
	`order_key` integer NOT NULL,
	`item_position` integer NOT NULL,
	`position` integer NOT NULL,
	`discount_name` text NOT NULL,
	`discount_value` real NOT NULL,
	`discount_catalog_ref` integer NOT NULL,
	PRIMARY KEY(`order_key`, `item_position`, `position`),
	FOREIGN KEY (`order_key`,`item_position`) REFERENCES `order_item_rows`(`order_key`,`position`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`discount_catalog_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action
);;
--> statement-breakpoint
INSERT INTO `order_item_discount_rows` (`order_key`, `item_position`, `position`, `discount_name`, `discount_value`, `discount_catalog_ref`) SELECT c.`order_key`, c.`item_position`, c.`position`, c.`discount_name`, c.`discount_value`, k0.`key` FROM `legacy_order_item_discount_rows` c JOIN `order_item_rows` p ON p.`order_key` = c.`order_key` AND p.`position` = c.`item_position` JOIN `api_ids` k0 ON k0.`id` = c.`discount_catalog_id` ORDER BY c.`order_key`, c.`item_position`, c.`position`;
--> statement-breakpoint
CREATE TABLE `order_payment_rows` (
	`order_key` integer NOT NULL,
	`position` integer NOT NULL,
	`payment_amount` real NOT NULL,
	`payment_name` text NOT NULL,
	`payment_catalog_ref` integer NOT NULL,
	PRIMARY KEY(`order_key`, `position`),
	FOREIGN KEY (`order_key`) REFERENCES `order_rows`(`key`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_catalog_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action
);;
--> statement-breakpoint
INSERT INTO `order_payment_rows` (`order_key`, `position`, `payment_amount`, `payment_name`, `payment_catalog_ref`) SELECT c.`order_key`, c.`position`, c.`payment_amount`, c.`payment_name`, k0.`key` FROM `legacy_order_payment_rows` c JOIN `order_rows` p ON p.`key` = c.`order_key` JOIN `api_ids` k0 ON k0.`id` = c.`payment_catalog_id` ORDER BY c.`order_key`, c.`position`;
--> statement-breakpoint
DROP TABLE `legacy_order_item_modifier_rows`;
--> statement-breakpoint
DROP TABLE `legacy_order_item_discount_rows`;
--> statement-breakpoint
DROP TABLE `legacy_order_payment_rows`;
--> statement-breakpoint
DROP TABLE `legacy_order_item_rows`;
--> statement-breakpoint
DROP TABLE `legacy_orders`;
--> statement-breakpoint
DELETE FROM `sqlite_sequence` WHERE `name` = 'legacy_orders';
--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;
