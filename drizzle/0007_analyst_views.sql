-- Views an analyst does not have to fight (the aggregate views are recreated in 0008 over the
-- daily summary tables): v_orders lists the orders that stand with the location's name and the
-- order's clock in columns (closed_hour, weekday) rather than in string functions, whole counts
-- as integers; v_order_tips gives one row per tip.
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
