-- The hour an order was closed becomes a stored column (orders.closed_hour) computed on the
-- location's clock: converted with the location's time zone setting (locations.time_zone) when the
-- API writes UTC, as written otherwise. The time zone upgrade fills it for stored orders.
ALTER TABLE `locations` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `closed_hour` integer;--> statement-breakpoint
DROP VIEW `v_orders`;--> statement-breakpoint
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
  -- The hour on the location's clock, computed when the order is stored (local-clock.ts).
  o.closed_hour,
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
