ALTER TABLE `sync_runs` ADD `pid` integer;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `hostname` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `deleted_at` text;--> statement-breakpoint
-- Orders and reports that the API stopped listing keep their rows (for audit) with deleted_at set,
-- and count in no view: every view is created again with that rule.
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
  location_id,
  business_date,
  COUNT(*) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 0) AS orders,
  TOTAL(guests) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 0) AS guests,
  ROUND(TOTAL(total) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 0), 2) AS total_sales,
  ROUND(TOTAL(total_tax) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 0), 2) AS total_tax,
  ROUND(TOTAL(total - total_tax) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 0), 2) AS net_sales,
  ROUND(TOTAL(total_discount) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 0), 2) AS total_discount,
  ROUND(AVG(total) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 0), 2) AS average_order,
  COUNT(*) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 1) AS transferred_orders,
  ROUND(TOTAL(total) FILTER (WHERE is_canceled = 0 AND is_training = 0 AND is_transferred = 1), 2) AS transferred_sales,
  COUNT(*) FILTER (WHERE is_canceled = 1) AS cancelled_orders,
  ROUND(TOTAL(total) FILTER (WHERE is_canceled = 1), 2) AS cancelled_total,
  COUNT(*) FILTER (WHERE is_training = 1) AS training_orders
FROM `orders`
WHERE deleted_at IS NULL
GROUP BY location_id, business_date;
--> statement-breakpoint
CREATE VIEW `v_product_sales` AS
SELECT
  i.location_id,
  o.business_date,
  i.item_catalog_id AS product_id,
  MAX(i.description) AS product_name,
  MAX(i.category) AS category,
  MAX(i.sub_category) AS sub_category,
  TOTAL(i.quantity) AS quantity,
  ROUND(TOTAL(i.total), 2) AS sales,
  ROUND(TOTAL(i.tax_amount), 2) AS tax,
  ROUND(TOTAL(i.total - i.tax_amount), 2) AS net_sales,
  COUNT(DISTINCT i.order_id) AS orders
FROM `order_items` i
JOIN `orders` o ON o.id = i.order_id
WHERE o.deleted_at IS NULL AND o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0 AND i.is_canceled = 0
GROUP BY i.location_id, o.business_date, i.item_catalog_id;
--> statement-breakpoint
CREATE VIEW `v_payment_mix` AS
SELECT
  location_id,
  business_date,
  payment_name,
  payments,
  amount,
  ROUND(amount / NULLIF(SUM(amount) OVER (PARTITION BY location_id, business_date), 0), 4) AS share
FROM (
  SELECT
    p.location_id,
    o.business_date,
    p.payment_name,
    COUNT(*) AS payments,
    ROUND(TOTAL(p.payment_amount), 2) AS amount
  FROM `order_payments` p
  JOIN `orders` o ON o.id = p.order_id
  WHERE o.deleted_at IS NULL AND o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0
  GROUP BY p.location_id, o.business_date, p.payment_name
);
--> statement-breakpoint
CREATE VIEW `v_tax_summary` AS
SELECT
  i.location_id,
  o.business_date,
  i.tax_rate_bp,
  MAX(i.tax_name) AS tax_name,
  ROUND(TOTAL(i.total), 2) AS gross_sales,
  ROUND(TOTAL(i.tax_amount), 2) AS tax_amount,
  ROUND(TOTAL(i.total - i.tax_amount), 2) AS taxable_amount
FROM `order_items` i
JOIN `orders` o ON o.id = i.order_id
WHERE o.deleted_at IS NULL AND o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0 AND i.is_canceled = 0
GROUP BY i.location_id, o.business_date, i.tax_rate_bp;
--> statement-breakpoint
CREATE VIEW `v_hourly_sales` AS
SELECT
  location_id,
  business_date,
  -- created_at is local time with its offset, so its hour is the restaurant's hour.
  CAST(substr(created_at, 12, 2) AS INTEGER) AS hour,
  COUNT(*) AS orders,
  ROUND(TOTAL(total), 2) AS total_sales
FROM `orders`
WHERE deleted_at IS NULL AND is_canceled = 0 AND is_training = 0 AND is_transferred = 0
GROUP BY location_id, business_date, hour;
--> statement-breakpoint
CREATE VIEW `v_report_reconciliation` AS
SELECT
  report_id,
  location_id,
  business_date,
  report_number,
  api_total_sales,
  stored_total_sales,
  ROUND(api_total_sales - stored_total_sales, 2) AS difference,
  orders_listed,
  orders_stored,
  orders_missing,
  CASE
    WHEN orders_missing > 0 THEN 'orders missing'
    WHEN ROUND(api_total_sales - stored_total_sales, 2) <> 0 THEN 'totals differ'
    ELSE 'ok'
  END AS status
FROM (
  SELECT
    r.id AS report_id,
    r.location_id,
    r.business_date,
    r.report_number,
    r.total_sales AS api_total_sales,
    (
      SELECT ROUND(TOTAL(o.total), 2) FROM `orders` o
      WHERE o.report_id = r.id AND o.deleted_at IS NULL AND o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0
    ) AS stored_total_sales,
    (SELECT COUNT(*) FROM `report_orders` ro WHERE ro.report_id = r.id) AS orders_listed,
    (SELECT COUNT(*) FROM `orders` o WHERE o.report_id = r.id AND o.deleted_at IS NULL) AS orders_stored,
    (
      SELECT COUNT(*) FROM `report_orders` ro
      WHERE ro.report_id = r.id AND NOT EXISTS (SELECT 1 FROM `orders` o WHERE o.id = ro.order_id AND o.deleted_at IS NULL)
    ) AS orders_missing
  FROM `reports` r
  WHERE r.deleted_at IS NULL
);
