-- Views an analyst does not have to fight: every view names the location (location_name), sums
-- come out rounded to the cent and counts as whole numbers when they are whole, and the order's
-- clock is in columns (closed_hour, weekday) rather than in string functions. v_orders lists the
-- orders that stand with those columns; v_order_tips and v_operator_sales are new;
-- v_hourly_sales now buckets by the hour the order was closed and gives the average ticket;
-- v_payment_mix gives share_percent (0 to 100) instead of share (0 to 1).
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
CREATE VIEW `v_orders` AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  -- ISO 8601 weekday of the business date: 1 = Monday … 7 = Sunday.
  (CAST(strftime('%w', o.business_date) AS INTEGER) + 6) % 7 + 1 AS weekday,
  CASE CAST(strftime('%w', o.business_date) AS INTEGER)
    WHEN 0 THEN 'Sunday' WHEN 1 THEN 'Monday' WHEN 2 THEN 'Tuesday' WHEN 3 THEN 'Wednesday'
    WHEN 4 THEN 'Thursday' WHEN 5 THEN 'Friday' ELSE 'Saturday'
  END AS weekday_name,
  -- The hour on the clock closed_at was sent in: the location's local time when the API sends
  -- its offset (2026-11-21T23:59:58+01:00 → 23).
  CAST(substr(o.closed_at, 12, 2) AS INTEGER) AS closed_hour,
  o.order_number,
  o.operator_id,
  o.operator_name,
  o.device_name,
  o.order_place,
  o.channel,
  o.service_type,
  IIF(o.guests = CAST(o.guests AS INTEGER), CAST(o.guests AS INTEGER), o.guests) AS guests,
  o.total,
  o.total_tax,
  ROUND(o.total - o.total_tax, 2) AS net_total,
  o.total_discount,
  IIF(o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0, 1, 0) AS is_sale,
  o.is_canceled,
  o.is_transferred,
  o.is_training,
  o.created_at,
  o.closed_at,
  o.report_id
FROM `orders` o
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL;
--> statement-breakpoint
CREATE VIEW `v_daily_sales` AS
SELECT
  d.location_id,
  l.name AS location_name,
  d.business_date,
  (CAST(strftime('%w', d.business_date) AS INTEGER) + 6) % 7 + 1 AS weekday,
  d.orders,
  IIF(d.guests = CAST(d.guests AS INTEGER), CAST(d.guests AS INTEGER), d.guests) AS guests,
  d.total_sales,
  d.total_tax,
  d.net_sales,
  d.total_discount,
  d.average_order,
  d.transferred_orders,
  d.transferred_sales,
  d.cancelled_orders,
  d.cancelled_total,
  d.training_orders
FROM (
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
  GROUP BY location_id, business_date
) d
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
  IIF(p.quantity = CAST(p.quantity AS INTEGER), CAST(p.quantity AS INTEGER), p.quantity) AS quantity,
  p.sales,
  p.tax,
  p.net_sales,
  p.orders
FROM (
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
  GROUP BY i.location_id, o.business_date, i.item_catalog_id
) p
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
) m
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
FROM (
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
  GROUP BY i.location_id, o.business_date, i.tax_rate_bp
) t
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
  h.average_order
FROM (
  SELECT
    location_id,
    business_date,
    -- The hour the order was closed, on the clock closed_at was sent in (see v_orders).
    CAST(substr(closed_at, 12, 2) AS INTEGER) AS hour,
    COUNT(*) AS orders,
    ROUND(TOTAL(total), 2) AS total_sales,
    ROUND(AVG(total), 2) AS average_order
  FROM `orders`
  WHERE deleted_at IS NULL AND is_canceled = 0 AND is_training = 0 AND is_transferred = 0
  GROUP BY location_id, business_date, hour
) h
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
FROM (
  SELECT
    o.location_id,
    o.business_date,
    o.operator_id,
    MAX(o.operator_name) AS operator_name,
    COUNT(*) FILTER (WHERE o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0) AS orders,
    ROUND(TOTAL(o.total) FILTER (WHERE o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0), 2) AS total_sales,
    ROUND(TOTAL(o.total_discount) FILTER (WHERE o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0), 2) AS total_discount,
    COUNT(*) FILTER (WHERE o.is_canceled = 1 AND o.is_training = 0) AS cancelled_orders,
    ROUND(TOTAL(o.total) FILTER (WHERE o.is_canceled = 1 AND o.is_training = 0), 2) AS cancelled_total,
    COALESCE(SUM(c.items) FILTER (WHERE o.is_canceled = 0 AND o.is_training = 0), 0) AS cancelled_items,
    ROUND(TOTAL(c.amount) FILTER (WHERE o.is_canceled = 0 AND o.is_training = 0), 2) AS cancelled_items_total
  FROM `orders` o
  LEFT JOIN (
    SELECT order_id, COUNT(*) AS items, TOTAL(total) AS amount
    FROM `order_items` WHERE is_canceled = 1 GROUP BY order_id
  ) c ON c.order_id = o.id
  WHERE o.deleted_at IS NULL
  GROUP BY o.location_id, o.business_date, o.operator_id
) s
LEFT JOIN `locations` l ON l.id = s.location_id;
--> statement-breakpoint
CREATE VIEW `v_order_tips` AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  CAST(t.key AS INTEGER) AS position,
  json_extract(t.value, '$.amount') AS amount,
  t.value AS tip
FROM `orders` o
JOIN json_each(o.tips) t
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND o.tips IS NOT NULL AND o.tips <> '[]';
--> statement-breakpoint
CREATE VIEW `v_report_reconciliation` AS
SELECT
  report_id,
  location_id,
  location_name,
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
    l.name AS location_name,
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
  LEFT JOIN `locations` l ON l.id = r.location_id
  WHERE r.deleted_at IS NULL
);
