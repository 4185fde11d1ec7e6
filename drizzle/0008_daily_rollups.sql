CREATE TABLE `daily_operator_sales` (
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`operator_id` text NOT NULL,
	`operator_name` text NOT NULL,
	`orders` integer NOT NULL,
	`total_sales` real NOT NULL,
	`total_discount` real NOT NULL,
	`cancelled_orders` integer NOT NULL,
	`cancelled_total` real NOT NULL,
	`cancelled_items` integer NOT NULL,
	`cancelled_items_total` real NOT NULL,
	PRIMARY KEY(`location_id`, `business_date`, `operator_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `daily_payment_sales` (
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`payment_name` text NOT NULL,
	`payments` integer NOT NULL,
	`amount` real NOT NULL,
	PRIMARY KEY(`location_id`, `business_date`, `payment_name`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `daily_product_sales` (
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`product_id` text NOT NULL,
	`product_name` text NOT NULL,
	`category` text NOT NULL,
	`sub_category` text NOT NULL,
	`quantity` numeric NOT NULL,
	`sales` real NOT NULL,
	`tax` real NOT NULL,
	`net_sales` real NOT NULL,
	`orders` integer NOT NULL,
	PRIMARY KEY(`location_id`, `business_date`, `product_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `daily_sales` (
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`orders` integer NOT NULL,
	`guests` numeric NOT NULL,
	`total_sales` real NOT NULL,
	`total_tax` real NOT NULL,
	`net_sales` real NOT NULL,
	`total_discount` real NOT NULL,
	`transferred_orders` integer NOT NULL,
	`transferred_sales` real NOT NULL,
	`cancelled_orders` integer NOT NULL,
	`cancelled_total` real NOT NULL,
	`training_orders` integer NOT NULL,
	PRIMARY KEY(`location_id`, `business_date`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `daily_tax_sales` (
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`tax_rate_bp` integer NOT NULL,
	`tax_name` text NOT NULL,
	`gross_sales` real NOT NULL,
	`tax_amount` real NOT NULL,
	`taxable_amount` real NOT NULL,
	PRIMARY KEY(`location_id`, `business_date`, `tax_rate_bp`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `hourly_sales` (
	`location_id` text NOT NULL,
	`business_date` text NOT NULL,
	`hour` integer NOT NULL,
	`orders` integer NOT NULL,
	`total_sales` real NOT NULL,
	PRIMARY KEY(`location_id`, `business_date`, `hour`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `report_order_sums` (
	`report_id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`orders_listed` integer NOT NULL,
	`orders_stored` integer NOT NULL,
	`orders_missing` integer NOT NULL,
	`stored_total_sales` real NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `summary_pending` (
	`kind` text NOT NULL,
	`location_id` text NOT NULL,
	`key` text NOT NULL,
	PRIMARY KEY(`kind`, `location_id`, `key`)
) WITHOUT ROWID;
--> statement-breakpoint
-- The aggregate views read the summary tables, which pos-sync recomputes for every day whose
-- orders change (src/db/rollups.ts): a year of a chain answers in a fraction of a second instead
-- of joining millions of lines. Every view names the location (location_name), sums come out
-- rounded to the cent and counts as integers when whole; v_hourly_sales buckets by the hour the
-- order was closed and gives the average ticket; v_payment_mix gives share_percent (0 to 100)
-- instead of share (0 to 1); v_operator_sales is new.
DROP VIEW `v_daily_sales`;
--> statement-breakpoint
DROP VIEW `v_product_sales`;
--> statement-breakpoint
DROP VIEW `v_payment_mix`;
--> statement-breakpoint
DROP VIEW `v_tax_summary`;
--> statement-breakpoint
DROP VIEW `v_hourly_sales`;
--> statement-breakpoint
DROP VIEW `v_report_reconciliation`;
--> statement-breakpoint
CREATE VIEW `v_daily_sales` AS
SELECT
  d.location_id,
  l.name AS location_name,
  d.business_date,
  (CAST(strftime('%w', d.business_date) AS INTEGER) + 6) % 7 + 1 AS weekday,
  d.orders,
  d.guests,
  d.total_sales,
  d.total_tax,
  d.net_sales,
  d.total_discount,
  ROUND(d.total_sales / NULLIF(d.orders, 0), 2) AS average_order,
  d.transferred_orders,
  d.transferred_sales,
  d.cancelled_orders,
  d.cancelled_total,
  d.training_orders
FROM `daily_sales` d
LEFT JOIN `locations` l ON l.id = d.location_id;
--> statement-breakpoint
CREATE VIEW `v_product_sales` AS
SELECT
  p.location_id,
  l.name AS location_name,
  p.business_date,
  p.product_id,
  p.product_name,
  p.category,
  p.sub_category,
  p.quantity,
  p.sales,
  p.tax,
  p.net_sales,
  p.orders
FROM `daily_product_sales` p
LEFT JOIN `locations` l ON l.id = p.location_id;
--> statement-breakpoint
CREATE VIEW `v_payment_mix` AS
SELECT
  m.location_id,
  l.name AS location_name,
  m.business_date,
  m.payment_name,
  m.payments,
  m.amount,
  ROUND(100.0 * m.amount / NULLIF(SUM(m.amount) OVER (PARTITION BY m.location_id, m.business_date), 0), 2) AS share_percent
FROM `daily_payment_sales` m
LEFT JOIN `locations` l ON l.id = m.location_id;
--> statement-breakpoint
CREATE VIEW `v_tax_summary` AS
SELECT
  t.location_id,
  l.name AS location_name,
  t.business_date,
  t.tax_rate_bp,
  t.tax_name,
  t.gross_sales,
  t.tax_amount,
  t.taxable_amount
FROM `daily_tax_sales` t
LEFT JOIN `locations` l ON l.id = t.location_id;
--> statement-breakpoint
CREATE VIEW `v_hourly_sales` AS
SELECT
  h.location_id,
  l.name AS location_name,
  h.business_date,
  (CAST(strftime('%w', h.business_date) AS INTEGER) + 6) % 7 + 1 AS weekday,
  h.hour,
  h.orders,
  h.total_sales,
  ROUND(h.total_sales / NULLIF(h.orders, 0), 2) AS average_order
FROM `hourly_sales` h
LEFT JOIN `locations` l ON l.id = h.location_id;
--> statement-breakpoint
CREATE VIEW `v_operator_sales` AS
SELECT
  s.location_id,
  l.name AS location_name,
  s.business_date,
  s.operator_id,
  s.operator_name,
  s.orders,
  s.total_sales,
  s.total_discount,
  s.cancelled_orders,
  s.cancelled_total,
  s.cancelled_items,
  s.cancelled_items_total
FROM `daily_operator_sales` s
LEFT JOIN `locations` l ON l.id = s.location_id;
--> statement-breakpoint
CREATE VIEW `v_report_reconciliation` AS
SELECT
  r.id AS report_id,
  r.location_id,
  l.name AS location_name,
  r.business_date,
  r.report_number,
  r.total_sales AS api_total_sales,
  s.stored_total_sales,
  ROUND(r.total_sales - s.stored_total_sales, 2) AS difference,
  s.orders_listed,
  s.orders_stored,
  s.orders_missing,
  CASE
    WHEN s.orders_missing > 0 THEN 'orders missing'
    WHEN ROUND(r.total_sales - s.stored_total_sales, 2) <> 0 THEN 'totals differ'
    ELSE 'ok'
  END AS status
FROM `reports` r
JOIN `report_order_sums` s ON s.report_id = r.id
LEFT JOIN `locations` l ON l.id = r.location_id
WHERE r.deleted_at IS NULL;
