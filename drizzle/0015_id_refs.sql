-- The catalog ids that rows of orders' arrays name (the product, the tax, the modifier, the
-- discount, the payment method) stored once, in api_ids: the rows keep each id's integer key,
-- and the contract's relations (order_items …) show the id again (the views migration after this
-- one). Hand-ordered, as 0013: the four tables are renamed aside, made again with the keys, their
-- rows copied (those a client with foreign keys off left without their order or item stay
-- behind, as 0013 left them), and the old tables dropped, children first.
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
CREATE TABLE `api_ids` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_ids_id_unique` ON `api_ids` (`id`);
--> statement-breakpoint
INSERT INTO `api_ids` (`id`) SELECT `tax_catalog_id` FROM `legacy_order_item_rows`
UNION SELECT `item_catalog_id` FROM `legacy_order_item_rows`
UNION SELECT `modifier_group_id` FROM `legacy_order_item_modifier_rows`
UNION SELECT `modifier_id` FROM `legacy_order_item_modifier_rows`
UNION SELECT `discount_catalog_id` FROM `legacy_order_item_discount_rows`
UNION SELECT `payment_catalog_id` FROM `legacy_order_payment_rows`
ORDER BY 1;
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
	FOREIGN KEY (`order_key`) REFERENCES `orders`(`key`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tax_catalog_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_catalog_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `order_item_rows` (`order_key`, `position`, `description`, `quantity`, `weight`, `unit_price`, `total`, `category`, `sub_category`, `is_canceled`, `cancel_reason`, `tier`, `is_transferred`, `transfer_reason`, `stock_impact_indicator`, `tax_name`, `tax_rate`, `tax_rate_bp`, `tax_amount`, `tax_catalog_ref`, `item_catalog_ref`, `is_loss`, `loss_reason`, `combo_parent_id`) SELECT c.`order_key`, c.`position`, c.`description`, c.`quantity`, c.`weight`, c.`unit_price`, c.`total`, c.`category`, c.`sub_category`, c.`is_canceled`, c.`cancel_reason`, c.`tier`, c.`is_transferred`, c.`transfer_reason`, c.`stock_impact_indicator`, c.`tax_name`, c.`tax_rate`, c.`tax_rate_bp`, c.`tax_amount`, k0.`key`, k1.`key`, c.`is_loss`, c.`loss_reason`, c.`combo_parent_id` FROM `legacy_order_item_rows` c JOIN `orders` p ON p.`key` = c.`order_key` JOIN `api_ids` k0 ON k0.`id` = c.`tax_catalog_id` JOIN `api_ids` k1 ON k1.`id` = c.`item_catalog_id` ORDER BY c.`order_key`, c.`position`;
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
);
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
);
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
	FOREIGN KEY (`order_key`) REFERENCES `orders`(`key`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_catalog_ref`) REFERENCES `api_ids`(`key`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `order_payment_rows` (`order_key`, `position`, `payment_amount`, `payment_name`, `payment_catalog_ref`) SELECT c.`order_key`, c.`position`, c.`payment_amount`, c.`payment_name`, k0.`key` FROM `legacy_order_payment_rows` c JOIN `orders` p ON p.`key` = c.`order_key` JOIN `api_ids` k0 ON k0.`id` = c.`payment_catalog_id` ORDER BY c.`order_key`, c.`position`;
--> statement-breakpoint
DROP TABLE `legacy_order_item_modifier_rows`;
--> statement-breakpoint
DROP TABLE `legacy_order_item_discount_rows`;
--> statement-breakpoint
DROP TABLE `legacy_order_payment_rows`;
--> statement-breakpoint
DROP TABLE `legacy_order_item_rows`;
--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;
