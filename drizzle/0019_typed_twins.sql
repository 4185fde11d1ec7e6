ALTER TABLE `order_versions` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_versions` ADD `closed_at_typed` TIMESTAMP GENERATED ALWAYS AS ("closed_at") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_versions` ADD `closed_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', "closed_at")) VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_versions` ADD `ended_at_typed` TIMESTAMP GENERATED ALWAYS AS ("ended_at") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_versions` ADD `ended_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', "ended_at")) VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_versions` ADD `next_updated_at_typed` TIMESTAMP GENERATED ALWAYS AS ("next_updated_at") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_versions` ADD `next_updated_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', "next_updated_at")) VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_rows` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_rows` ADD `created_at_typed` TIMESTAMP GENERATED ALWAYS AS ("created_at") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_rows` ADD `created_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', "created_at")) VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_rows` ADD `closed_at_typed` TIMESTAMP GENERATED ALWAYS AS ("closed_at") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_rows` ADD `closed_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', "closed_at")) VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_rows` ADD `updated_at_typed` TIMESTAMP GENERATED ALWAYS AS ("updated_at") VIRTUAL;--> statement-breakpoint
ALTER TABLE `order_rows` ADD `updated_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', "updated_at")) VIRTUAL;--> statement-breakpoint
ALTER TABLE `reports` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `reports` ADD `finalized_at_typed` TIMESTAMP GENERATED ALWAYS AS ("finalized_at") VIRTUAL;--> statement-breakpoint
ALTER TABLE `reports` ADD `finalized_at_utc` TIMESTAMP GENERATED ALWAYS AS (strftime('%Y-%m-%dT%H:%M:%fZ', "finalized_at")) VIRTUAL;--> statement-breakpoint
ALTER TABLE `daily_operator_sales` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `daily_payment_sales` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `daily_product_sales` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `daily_sales` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `daily_tax_sales` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;--> statement-breakpoint
ALTER TABLE `hourly_sales` ADD `business_date_typed` DATE GENERATED ALWAYS AS ("business_date") VIRTUAL;