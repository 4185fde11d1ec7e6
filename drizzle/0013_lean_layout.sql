-- The lean layout (issue 37): orders and reports get an integer key, and the rows of their
-- arrays refer to it instead of repeating the API's id and the location's. The contract's names
-- (order_items …) become views, which the views migration after this one makes. Hand-ordered
-- (drizzle-kit's rebuild would drop orders under its children's cascade): the parents are
-- renamed aside, made again with their key, their children copied through the new key, and
-- the old tables dropped, children first. legacy_alter_table: the renames leave views and
-- triggers of the user's own as they are (they name the tables, which exist again at the end),
-- instead of pointing them at the tables dropped here.
PRAGMA legacy_alter_table = ON;
--> statement-breakpoint
DROP VIEW IF EXISTS v_daily_sales;
--> statement-breakpoint
DROP VIEW IF EXISTS v_product_sales;
--> statement-breakpoint
DROP VIEW IF EXISTS v_payment_mix;
--> statement-breakpoint
DROP VIEW IF EXISTS v_tax_summary;
--> statement-breakpoint
DROP VIEW IF EXISTS v_hourly_sales;
--> statement-breakpoint
DROP VIEW IF EXISTS v_operator_sales;
--> statement-breakpoint
DROP VIEW IF EXISTS v_report_reconciliation;
--> statement-breakpoint
DROP VIEW IF EXISTS v_orders;
--> statement-breakpoint
DROP VIEW IF EXISTS v_order_tips;
--> statement-breakpoint
DROP VIEW IF EXISTS v_order_changes;
--> statement-breakpoint
DROP VIEW IF EXISTS v_cancelled_after_payment;
--> statement-breakpoint
DROP VIEW IF EXISTS v_items_voided_after_close;
--> statement-breakpoint
DROP VIEW IF EXISTS v_discounts_by_operator;
--> statement-breakpoint
DROP VIEW IF EXISTS v_changed_after_report;
--> statement-breakpoint
DROP VIEW IF EXISTS v_room_transfers;
--> statement-breakpoint
DROP VIEW IF EXISTS v_payment_mismatches;
--> statement-breakpoint
DROP VIEW IF EXISTS v_training_with_payments;
--> statement-breakpoint
ALTER TABLE `orders` RENAME TO `legacy_orders`;
--> statement-breakpoint
CREATE TABLE `orders` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`customer_id` text,
	`device_id` text,
	`device_name` text,
	`report_id` text NOT NULL,
	`opened_at` text NOT NULL,
	`closed_at` text NOT NULL,
	`closed_hour` integer,
	`guests` real NOT NULL,
	`order_place` text NOT NULL,
	`order_number` text NOT NULL,
	`operator_id` text NOT NULL,
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
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_id_unique` ON `orders` (`id`);
--> statement-breakpoint
INSERT INTO `orders` (`id`, `location_id`, `business_date`, `created_at`, `updated_at`, `customer_id`, `device_id`, `device_name`, `report_id`, `opened_at`, `closed_at`, `closed_hour`, `guests`, `order_place`, `order_number`, `operator_id`, `operator_name`, `total`, `total_tax`, `total_discount`, `menus`, `tips`, `is_canceled`, `is_transferred`, `transfer_reason`, `cancel_reason`, `channel`, `service_type`, `is_training`, `source`, `external_order_id`, `external_location_id`, `content_hash`, `synced_at`, `deleted_at`) SELECT `id`, `location_id`, `business_date`, `created_at`, `updated_at`, `customer_id`, `device_id`, `device_name`, `report_id`, `opened_at`, `closed_at`, `closed_hour`, `guests`, `order_place`, `order_number`, `operator_id`, `operator_name`, `total`, `total_tax`, `total_discount`, `menus`, `tips`, `is_canceled`, `is_transferred`, `transfer_reason`, `cancel_reason`, `channel`, `service_type`, `is_training`, `source`, `external_order_id`, `external_location_id`, `content_hash`, `synced_at`, `deleted_at` FROM `legacy_orders` ORDER BY rowid;
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
	`tax_catalog_id` text NOT NULL,
	`item_catalog_id` text NOT NULL,
	`is_loss` integer,
	`loss_reason` text,
	`combo_parent_id` text,
	PRIMARY KEY(`order_key`, `position`),
	FOREIGN KEY (`order_key`) REFERENCES `orders`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `order_item_rows` (`order_key`, `position`, `description`, `quantity`, `weight`, `unit_price`, `total`, `category`, `sub_category`, `is_canceled`, `cancel_reason`, `tier`, `is_transferred`, `transfer_reason`, `stock_impact_indicator`, `tax_name`, `tax_rate`, `tax_rate_bp`, `tax_amount`, `tax_catalog_id`, `item_catalog_id`, `is_loss`, `loss_reason`, `combo_parent_id`) SELECT p.`key`, c.`position`, c.`description`, c.`quantity`, c.`weight`, c.`unit_price`, c.`total`, c.`category`, c.`sub_category`, c.`is_canceled`, c.`cancel_reason`, c.`tier`, c.`is_transferred`, c.`transfer_reason`, c.`stock_impact_indicator`, c.`tax_name`, c.`tax_rate`, c.`tax_rate_bp`, c.`tax_amount`, c.`tax_catalog_id`, c.`item_catalog_id`, c.`is_loss`, c.`loss_reason`, c.`combo_parent_id` FROM `order_items` c JOIN `orders` p ON p.`id` = c.`order_id`;
--> statement-breakpoint
CREATE TABLE `order_item_modifier_rows` (
	`order_key` integer NOT NULL,
	`item_position` integer NOT NULL,
	`position` integer NOT NULL,
	`modifier_group_id` text NOT NULL,
	`modifier_id` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`order_key`, `item_position`, `position`),
	FOREIGN KEY (`order_key`,`item_position`) REFERENCES `order_item_rows`(`order_key`,`position`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `order_item_modifier_rows` (`order_key`, `item_position`, `position`, `modifier_group_id`, `modifier_id`, `name`) SELECT p.`key`, c.`item_position`, c.`position`, c.`modifier_group_id`, c.`modifier_id`, c.`name` FROM `order_item_modifiers` c JOIN `orders` p ON p.`id` = c.`order_id` JOIN `order_item_rows` i ON i.`order_key` = p.`key` AND i.`position` = c.`item_position`;
--> statement-breakpoint
CREATE TABLE `order_item_discount_rows` (
	`order_key` integer NOT NULL,
	`item_position` integer NOT NULL,
	`position` integer NOT NULL,
	`discount_name` text NOT NULL,
	`discount_value` real NOT NULL,
	`discount_catalog_id` text NOT NULL,
	PRIMARY KEY(`order_key`, `item_position`, `position`),
	FOREIGN KEY (`order_key`,`item_position`) REFERENCES `order_item_rows`(`order_key`,`position`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `order_item_discount_rows` (`order_key`, `item_position`, `position`, `discount_name`, `discount_value`, `discount_catalog_id`) SELECT p.`key`, c.`item_position`, c.`position`, c.`discount_name`, c.`discount_value`, c.`discount_catalog_id` FROM `order_item_discounts` c JOIN `orders` p ON p.`id` = c.`order_id` JOIN `order_item_rows` i ON i.`order_key` = p.`key` AND i.`position` = c.`item_position`;
--> statement-breakpoint
CREATE TABLE `order_payment_rows` (
	`order_key` integer NOT NULL,
	`position` integer NOT NULL,
	`payment_amount` real NOT NULL,
	`payment_name` text NOT NULL,
	`payment_catalog_id` text NOT NULL,
	PRIMARY KEY(`order_key`, `position`),
	FOREIGN KEY (`order_key`) REFERENCES `orders`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `order_payment_rows` (`order_key`, `position`, `payment_amount`, `payment_name`, `payment_catalog_id`) SELECT p.`key`, c.`position`, c.`payment_amount`, c.`payment_name`, c.`payment_catalog_id` FROM `order_payments` c JOIN `orders` p ON p.`id` = c.`order_id`;
--> statement-breakpoint
DROP TABLE `order_payments`;
--> statement-breakpoint
DROP TABLE `order_item_discounts`;
--> statement-breakpoint
DROP TABLE `order_item_modifiers`;
--> statement-breakpoint
DROP TABLE `order_items`;
--> statement-breakpoint
DROP TABLE `legacy_orders`;
--> statement-breakpoint
CREATE INDEX `orders_location_day` ON `orders` (`location_id`,`business_date`);
--> statement-breakpoint
CREATE INDEX `orders_report` ON `orders` (`report_id`);
--> statement-breakpoint
ALTER TABLE `reports` RENAME TO `legacy_reports`;
--> statement-breakpoint
CREATE TABLE `reports` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`started_at` text NOT NULL,
	`finalized_at` text NOT NULL,
	`device_name` text NOT NULL,
	`device_identifier` text,
	`report_number` integer NOT NULL,
	`guests_number` integer NOT NULL,
	`total_sales` real NOT NULL,
	`header_address` text NOT NULL,
	`header_city` text NOT NULL,
	`header_country` text NOT NULL,
	`header_name` text NOT NULL,
	`header_phone` text NOT NULL,
	`header_naf` text NOT NULL,
	`header_siret` text NOT NULL,
	`header_text` text NOT NULL,
	`header_tva` text NOT NULL,
	`header_zip` text NOT NULL,
	`header_url` text,
	`clerk_name` text,
	`clerk_id` text,
	`initial_cash_balance` integer,
	`final_cash_balance` integer,
	`content_hash` integer,
	`synced_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_id_unique` ON `reports` (`id`);
--> statement-breakpoint
INSERT INTO `reports` (`id`, `location_id`, `business_date`, `created_at`, `updated_at`, `started_at`, `finalized_at`, `device_name`, `device_identifier`, `report_number`, `guests_number`, `total_sales`, `header_address`, `header_city`, `header_country`, `header_name`, `header_phone`, `header_naf`, `header_siret`, `header_text`, `header_tva`, `header_zip`, `header_url`, `clerk_name`, `clerk_id`, `initial_cash_balance`, `final_cash_balance`, `content_hash`, `synced_at`, `deleted_at`) SELECT `id`, `location_id`, `business_date`, `created_at`, `updated_at`, `started_at`, `finalized_at`, `device_name`, `device_identifier`, `report_number`, `guests_number`, `total_sales`, `header_address`, `header_city`, `header_country`, `header_name`, `header_phone`, `header_naf`, `header_siret`, `header_text`, `header_tva`, `header_zip`, `header_url`, `clerk_name`, `clerk_id`, `initial_cash_balance`, `final_cash_balance`, `content_hash`, `synced_at`, `deleted_at` FROM `legacy_reports` ORDER BY rowid;
--> statement-breakpoint
CREATE TABLE `report_product_rows` (
	`report_key` integer NOT NULL,
	`position` integer NOT NULL,
	`product_name` text NOT NULL,
	`product_sales` real NOT NULL,
	`category` text NOT NULL,
	`sub_category` text NOT NULL,
	`product_quantity` integer NOT NULL,
	`product_catalog_id` text NOT NULL,
	PRIMARY KEY(`report_key`, `position`),
	FOREIGN KEY (`report_key`) REFERENCES `reports`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `report_product_rows` (`report_key`, `position`, `product_name`, `product_sales`, `category`, `sub_category`, `product_quantity`, `product_catalog_id`) SELECT p.`key`, c.`position`, c.`product_name`, c.`product_sales`, c.`category`, c.`sub_category`, c.`product_quantity`, c.`product_catalog_id` FROM `report_products` c JOIN `reports` p ON p.`id` = c.`report_id`;
--> statement-breakpoint
CREATE TABLE `report_clerk_shift_rows` (
	`report_key` integer NOT NULL,
	`position` integer NOT NULL,
	`clerk_id` text NOT NULL,
	`name` text NOT NULL,
	`clock_in_date` text NOT NULL,
	`clock_out_date` text NOT NULL,
	PRIMARY KEY(`report_key`, `position`),
	FOREIGN KEY (`report_key`) REFERENCES `reports`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `report_clerk_shift_rows` (`report_key`, `position`, `clerk_id`, `name`, `clock_in_date`, `clock_out_date`) SELECT p.`key`, c.`position`, c.`clerk_id`, c.`name`, c.`clock_in_date`, c.`clock_out_date` FROM `report_clerk_shifts` c JOIN `reports` p ON p.`id` = c.`report_id`;
--> statement-breakpoint
CREATE TABLE `report_discount_rows` (
	`report_key` integer NOT NULL,
	`position` integer NOT NULL,
	`discount_name` text NOT NULL,
	`discount_value` real NOT NULL,
	`discount_catalog_id` text NOT NULL,
	PRIMARY KEY(`report_key`, `position`),
	FOREIGN KEY (`report_key`) REFERENCES `reports`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `report_discount_rows` (`report_key`, `position`, `discount_name`, `discount_value`, `discount_catalog_id`) SELECT p.`key`, c.`position`, c.`discount_name`, c.`discount_value`, c.`discount_catalog_id` FROM `report_discounts` c JOIN `reports` p ON p.`id` = c.`report_id`;
--> statement-breakpoint
CREATE TABLE `report_tax_rows` (
	`report_key` integer NOT NULL,
	`position` integer NOT NULL,
	`tax_name` text NOT NULL,
	`tax_rate` integer NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`tax_amount` real NOT NULL,
	`taxable_amount` real NOT NULL,
	PRIMARY KEY(`report_key`, `position`),
	FOREIGN KEY (`report_key`) REFERENCES `reports`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `report_tax_rows` (`report_key`, `position`, `tax_name`, `tax_rate`, `tax_rate_bp`, `tax_amount`, `taxable_amount`) SELECT p.`key`, c.`position`, c.`tax_name`, c.`tax_rate`, c.`tax_rate_bp`, c.`tax_amount`, c.`taxable_amount` FROM `report_taxes` c JOIN `reports` p ON p.`id` = c.`report_id`;
--> statement-breakpoint
CREATE TABLE `report_payment_rows` (
	`report_key` integer NOT NULL,
	`position` integer NOT NULL,
	`payment_name` text NOT NULL,
	`payment_amount` real NOT NULL,
	PRIMARY KEY(`report_key`, `position`),
	FOREIGN KEY (`report_key`) REFERENCES `reports`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `report_payment_rows` (`report_key`, `position`, `payment_name`, `payment_amount`) SELECT p.`key`, c.`position`, c.`payment_name`, c.`payment_amount` FROM `report_payments` c JOIN `reports` p ON p.`id` = c.`report_id`;
--> statement-breakpoint
CREATE TABLE `report_entry_rows` (
	`report_key` integer NOT NULL,
	`position` integer NOT NULL,
	`entry_name` text NOT NULL,
	`entry_amount` real NOT NULL,
	`entry_type` text NOT NULL,
	PRIMARY KEY(`report_key`, `position`),
	FOREIGN KEY (`report_key`) REFERENCES `reports`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `report_entry_rows` (`report_key`, `position`, `entry_name`, `entry_amount`, `entry_type`) SELECT p.`key`, c.`position`, c.`entry_name`, c.`entry_amount`, c.`entry_type` FROM `report_entries` c JOIN `reports` p ON p.`id` = c.`report_id`;
--> statement-breakpoint
CREATE TABLE `report_order_rows` (
	`report_key` integer NOT NULL,
	`position` integer NOT NULL,
	`order_id` text NOT NULL,
	PRIMARY KEY(`report_key`, `position`),
	FOREIGN KEY (`report_key`) REFERENCES `reports`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_order_rows_order` ON `report_order_rows` (`order_id`);
--> statement-breakpoint
INSERT INTO `report_order_rows` (`report_key`, `position`, `order_id`) SELECT p.`key`, c.`position`, c.`order_id` FROM `report_orders` c JOIN `reports` p ON p.`id` = c.`report_id`;
--> statement-breakpoint
DROP TABLE `report_orders`;
--> statement-breakpoint
DROP TABLE `report_entries`;
--> statement-breakpoint
DROP TABLE `report_payments`;
--> statement-breakpoint
DROP TABLE `report_taxes`;
--> statement-breakpoint
DROP TABLE `report_discounts`;
--> statement-breakpoint
DROP TABLE `report_clerk_shifts`;
--> statement-breakpoint
DROP TABLE `report_products`;
--> statement-breakpoint
DROP TABLE `legacy_reports`;
--> statement-breakpoint
CREATE INDEX `reports_location_day` ON `reports` (`location_id`,`business_date`);
--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;
