CREATE TABLE `rejected_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer,
	`location_id` text NOT NULL,
	`stream` text NOT NULL,
	`day` text,
	`record_id` text,
	`record_key` text NOT NULL,
	`reason` text NOT NULL,
	`raw` text NOT NULL,
	`rejected_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rejected_records_record` ON `rejected_records` (`location_id`,`stream`,`record_key`);--> statement-breakpoint
CREATE INDEX `rejected_records_window` ON `rejected_records` (`location_id`,`stream`,`day`);--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`status` text NOT NULL,
	`trigger` text NOT NULL,
	`stats` text,
	`requests` integer,
	`error` text
);
--> statement-breakpoint
CREATE TABLE `sync_windows` (
	`location_id` text NOT NULL,
	`stream` text NOT NULL,
	`day` text NOT NULL,
	`status` text NOT NULL,
	`api_total_count` integer,
	`stored_count` integer,
	`attempts` integer NOT NULL,
	`last_error` text,
	`run_id` integer,
	`synced_at` text NOT NULL,
	PRIMARY KEY(`location_id`, `stream`, `day`)
);
--> statement-breakpoint
CREATE INDEX `sync_windows_status` ON `sync_windows` (`status`);--> statement-breakpoint
CREATE TABLE `categories` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	`raw` text NOT NULL,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
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
CREATE TABLE `modifiers` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`raw` text NOT NULL,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`enabled` integer NOT NULL,
	`raw` text NOT NULL,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
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
CREATE TABLE `products` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`category` text NOT NULL,
	`category_id` text NOT NULL,
	`sku` text,
	`is_archived` integer NOT NULL,
	`raw` text NOT NULL,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
CREATE TABLE `taxes` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`percentage` integer NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`raw` text NOT NULL,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
--> statement-breakpoint
CREATE TABLE `devices` (
	`location_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`model` text NOT NULL,
	`position` integer NOT NULL,
	`raw` text NOT NULL,
	`synced_at` text NOT NULL,
	`deleted_at` text,
	PRIMARY KEY(`location_id`, `id`)
);
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
	`raw` text NOT NULL,
	`synced_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `order_item_discounts` (
	`order_id` text NOT NULL,
	`item_position` integer NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`discount_name` text NOT NULL,
	`discount_value` real NOT NULL,
	`discount_catalog_id` text NOT NULL,
	PRIMARY KEY(`order_id`, `item_position`, `position`),
	FOREIGN KEY (`order_id`,`item_position`) REFERENCES `order_items`(`order_id`,`position`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `order_item_modifiers` (
	`order_id` text NOT NULL,
	`item_position` integer NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`modifier_group_id` text NOT NULL,
	`modifier_id` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`order_id`, `item_position`, `position`),
	FOREIGN KEY (`order_id`,`item_position`) REFERENCES `order_items`(`order_id`,`position`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `order_items` (
	`order_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
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
	PRIMARY KEY(`order_id`, `position`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_items_product` ON `order_items` (`item_catalog_id`);--> statement-breakpoint
CREATE TABLE `order_payments` (
	`order_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`payment_amount` real NOT NULL,
	`payment_name` text NOT NULL,
	`payment_catalog_id` text NOT NULL,
	PRIMARY KEY(`order_id`, `position`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
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
	`raw` text NOT NULL,
	`synced_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `orders_location_day` ON `orders` (`location_id`,`business_date`);--> statement-breakpoint
CREATE INDEX `orders_report` ON `orders` (`report_id`);--> statement-breakpoint
CREATE INDEX `orders_updated_at` ON `orders` (`updated_at`);--> statement-breakpoint
CREATE TABLE `report_clerk_shifts` (
	`report_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`clerk_id` text NOT NULL,
	`name` text NOT NULL,
	`clock_in_date` text NOT NULL,
	`clock_out_date` text NOT NULL,
	PRIMARY KEY(`report_id`, `position`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_discounts` (
	`report_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`discount_name` text NOT NULL,
	`discount_value` real NOT NULL,
	`discount_catalog_id` text NOT NULL,
	PRIMARY KEY(`report_id`, `position`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_entries` (
	`report_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`entry_name` text NOT NULL,
	`entry_amount` real NOT NULL,
	`entry_type` text NOT NULL,
	PRIMARY KEY(`report_id`, `position`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_orders` (
	`report_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`order_id` text NOT NULL,
	PRIMARY KEY(`report_id`, `position`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_orders_order` ON `report_orders` (`order_id`);--> statement-breakpoint
CREATE TABLE `report_payments` (
	`report_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`payment_name` text NOT NULL,
	`payment_amount` real NOT NULL,
	PRIMARY KEY(`report_id`, `position`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_products` (
	`report_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`product_name` text NOT NULL,
	`product_sales` real NOT NULL,
	`category` text NOT NULL,
	`sub_category` text NOT NULL,
	`product_quantity` integer NOT NULL,
	`product_catalog_id` text NOT NULL,
	PRIMARY KEY(`report_id`, `position`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_taxes` (
	`report_id` text NOT NULL,
	`position` integer NOT NULL,
	`location_id` text NOT NULL,
	`tax_name` text NOT NULL,
	`tax_rate` integer NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`tax_amount` real NOT NULL,
	`taxable_amount` real NOT NULL,
	PRIMARY KEY(`report_id`, `position`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reports` (
	`id` text PRIMARY KEY NOT NULL,
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
	`raw` text NOT NULL,
	`synced_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reports_location_day` ON `reports` (`location_id`,`business_date`);