-- The views for BI tools, as on SQLite (drizzle/0001, 0007, 0008): the sales views read the
-- daily summaries pos-sync keeps up to date as it writes; every view leaves out the rows a
-- complete re-read of their day no longer listed (deleted_at).

CREATE VIEW "v_daily_sales" AS
SELECT
  d.location_id,
  l.name AS location_name,
  d.business_date,
  -- ISO 8601 weekday of the business date: 1 = Monday … 7 = Sunday.
  EXTRACT(ISODOW FROM d.business_date)::integer AS weekday,
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
FROM "daily_sales" d
LEFT JOIN "locations" l ON l.id = d.location_id;
--> statement-breakpoint
CREATE VIEW "v_hourly_sales" AS
SELECT
  h.location_id,
  l.name AS location_name,
  h.business_date,
  EXTRACT(ISODOW FROM h.business_date)::integer AS weekday,
  h.hour,
  h.orders,
  h.total_sales,
  ROUND(h.total_sales / NULLIF(h.orders, 0), 2) AS average_order
FROM "hourly_sales" h
LEFT JOIN "locations" l ON l.id = h.location_id;
--> statement-breakpoint
CREATE VIEW "v_operator_sales" AS
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
FROM "daily_operator_sales" s
LEFT JOIN "locations" l ON l.id = s.location_id;
--> statement-breakpoint
CREATE VIEW "v_order_tips" AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  (t.ordinality - 1)::integer AS position,
  (t.tip ->> 'amount')::numeric AS amount,
  t.tip
FROM "orders" o
CROSS JOIN LATERAL jsonb_array_elements(o.tips) WITH ORDINALITY AS t(tip, ordinality)
LEFT JOIN "locations" l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND o.tips IS NOT NULL AND jsonb_typeof(o.tips) = 'array';
--> statement-breakpoint
CREATE VIEW "v_orders" AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  EXTRACT(ISODOW FROM o.business_date)::integer AS weekday,
  CASE EXTRACT(ISODOW FROM o.business_date)::integer
    WHEN 1 THEN 'Monday' WHEN 2 THEN 'Tuesday' WHEN 3 THEN 'Wednesday' WHEN 4 THEN 'Thursday'
    WHEN 5 THEN 'Friday' WHEN 6 THEN 'Saturday' ELSE 'Sunday'
  END AS weekday_name,
  -- The hour on the location's clock, computed when the order is stored (local-clock.ts).
  o.closed_hour,
  o.order_number,
  o.operator_id,
  o.operator_name,
  o.device_name,
  o.order_place,
  o.channel,
  o.service_type,
  o.guests,
  o.total,
  o.total_tax,
  ROUND(o.total - o.total_tax, 2) AS net_total,
  o.total_discount,
  NOT (o.is_canceled OR o.is_training OR o.is_transferred) AS is_sale,
  o.is_canceled,
  o.is_transferred,
  o.is_training,
  o.created_at,
  o.closed_at,
  o.report_id
FROM "orders" o
LEFT JOIN "locations" l ON l.id = o.location_id
WHERE o.deleted_at IS NULL;
--> statement-breakpoint
CREATE VIEW "v_payment_mix" AS
SELECT
  m.location_id,
  l.name AS location_name,
  m.business_date,
  m.payment_name,
  m.payments,
  m.amount,
  ROUND(100.0 * m.amount / NULLIF(SUM(m.amount) OVER (PARTITION BY m.location_id, m.business_date), 0), 2) AS share_percent
FROM "daily_payment_sales" m
LEFT JOIN "locations" l ON l.id = m.location_id;
--> statement-breakpoint
CREATE VIEW "v_product_sales" AS
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
FROM "daily_product_sales" p
LEFT JOIN "locations" l ON l.id = p.location_id;
--> statement-breakpoint
CREATE VIEW "v_report_reconciliation" AS
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
FROM "reports" r
JOIN "report_order_sums" s ON s.report_id = r.id
LEFT JOIN "locations" l ON l.id = r.location_id
WHERE r.deleted_at IS NULL;
--> statement-breakpoint
CREATE VIEW "v_tax_summary" AS
SELECT
  t.location_id,
  l.name AS location_name,
  t.business_date,
  t.tax_rate_bp,
  t.tax_name,
  t.gross_sales,
  t.tax_amount,
  t.taxable_amount
FROM "daily_tax_sales" t
LEFT JOIN "locations" l ON l.id = t.location_id;
