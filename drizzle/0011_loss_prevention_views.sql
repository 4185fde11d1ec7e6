-- Loss prevention: the questions an owner asks after "how much did we sell". Each view names the
-- location and the operator; orders a complete re-read no longer listed (deleted_at) are left
-- out. The views that compare versions read order_versions (0010), the versions history kept:
-- with POS_ORDER_HISTORY=false they only see what the current versions show.

-- Every change pos-sync saw: an earlier version, and the one that replaced it (as the history
-- row kept it when it was written), or the day it vanished.
CREATE VIEW `v_order_changes` AS
SELECT
  h.order_id,
  h.location_id,
  l.name AS location_name,
  h.business_date,
  h.order_number,
  h.version AS from_version,
  h.ended_by AS change,
  h.next_updated_at AS changed_at,
  h.next_operator_id AS changed_by_id,
  h.next_operator_name AS changed_by,
  h.ended_at AS seen_at,
  h.closed_at,
  h.operator_name AS previous_operator_name,
  h.total AS previous_total,
  h.next_total AS new_total,
  ROUND(COALESCE(h.next_total, 0) - h.total, 2) AS total_change,
  h.paid AS previous_paid,
  h.is_canceled AS was_canceled,
  h.next_is_canceled AS is_canceled,
  h.changed_fields
FROM `order_versions` h
LEFT JOIN `locations` l ON l.id = h.location_id;
--> statement-breakpoint
-- Cancelled orders (not training ones) whose money was taken: seen paid and later cancelled (seen_paid = 1), or
-- cancelled while still carrying their payments.
CREATE VIEW `v_cancelled_after_payment` AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  o.order_number,
  COALESCE(b.next_operator_id, o.operator_id) AS operator_id,
  COALESCE(b.next_operator_name, o.operator_name) AS operator_name,
  COALESCE(b.operator_name, o.operator_name) AS served_by,
  o.total,
  COALESCE(
    b.paid,
    (SELECT ROUND(SUM(p.payment_amount), 2) FROM `order_payments` p WHERE p.order_id = o.id)
  ) AS paid,
  COALESCE(b.closed_at, o.closed_at) AS paid_at,
  COALESCE(b.next_updated_at, o.updated_at) AS cancelled_at,
  o.cancel_reason,
  IIF(b.order_id IS NULL, 0, 1) AS seen_paid
FROM `orders` o
LEFT JOIN `order_versions` b ON b.order_id = o.id AND b.version = (
  SELECT MAX(x.version) FROM `order_versions` x
  WHERE x.order_id = o.id AND x.is_canceled = 0 AND x.paid > 0
)
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND o.is_canceled = 1 AND o.is_training = 0
  AND (
    b.order_id IS NOT NULL
    OR EXISTS (SELECT 1 FROM `order_payments` p WHERE p.order_id = o.id AND p.payment_amount > 0)
  );
--> statement-breakpoint
-- Items that stood in the first version pos-sync saw and no longer stand now (voided or taken
-- off): told apart by product, since a line taken off moves the positions after it.
CREATE VIEW `v_items_voided_after_close` AS
WITH first_items AS (
  SELECT
    h.order_id,
    h.closed_at,
    CAST(json_extract(i.value, '$.position') AS INTEGER) AS position,
    json_extract(i.value, '$.item_catalog_id') AS item_catalog_id,
    json_extract(i.value, '$.description') AS description,
    json_extract(i.value, '$.quantity') AS quantity,
    json_extract(i.value, '$.total') AS amount,
    ROW_NUMBER() OVER (
      PARTITION BY h.order_id, json_extract(i.value, '$.item_catalog_id')
      ORDER BY CAST(json_extract(i.value, '$.position') AS INTEGER)
    ) AS nth
  FROM `order_versions` h, json_each(h.content, '$.order_items') i
  WHERE h.version = 1 AND json_extract(i.value, '$.is_canceled') = 0
)
SELECT
  f.order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  o.order_number,
  o.operator_id,
  o.operator_name,
  f.position AS first_position,
  f.item_catalog_id,
  f.description,
  f.quantity,
  f.amount,
  f.closed_at,
  o.updated_at AS changed_at
FROM first_items f
JOIN `orders` o ON o.id = f.order_id
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL
  AND f.nth > (
    SELECT COUNT(*) FROM `order_items` c
    WHERE c.order_id = f.order_id AND c.item_catalog_id = f.item_catalog_id AND c.is_canceled = 0
  );
--> statement-breakpoint
-- Discounts per operator and day, over the orders that count as sales: their share of the sales
-- before discounts, and how much was added after pos-sync first saw the orders.
CREATE VIEW `v_discounts_by_operator` AS
SELECT
  o.location_id,
  l.name AS location_name,
  o.business_date,
  o.operator_id,
  o.operator_name,
  COUNT(*) AS orders,
  SUM(IIF(o.total_discount > 0, 1, 0)) AS discounted_orders,
  ROUND(SUM(o.total), 2) AS sales,
  ROUND(SUM(o.total_discount), 2) AS discounts,
  ROUND(SUM(o.total_discount) / NULLIF(SUM(o.total) + SUM(o.total_discount), 0), 4)
    AS discount_share,
  ROUND(SUM(MAX(0, o.total_discount - COALESCE(f.total_discount, o.total_discount))), 2)
    AS discounts_added_later
FROM `orders` o
LEFT JOIN (
  SELECT order_id, json_extract(content, '$.orders.total_discount') AS total_discount
  FROM `order_versions` WHERE version = 1
) f ON f.order_id = o.id
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND o.is_canceled = 0 AND o.is_training = 0 AND o.is_transferred = 0
GROUP BY o.location_id, l.name, o.business_date, o.operator_id, o.operator_name;
--> statement-breakpoint
-- Orders whose latest change came after their till session's report was finalized: the report
-- no longer tells what the orders say.
CREATE VIEW `v_changed_after_report` AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  o.order_number,
  o.operator_id,
  o.operator_name,
  o.report_id,
  r.finalized_at AS report_finalized_at,
  o.updated_at AS changed_at,
  CAST(ROUND((julianday(o.updated_at) - julianday(r.finalized_at)) * 1440) AS INTEGER)
    AS minutes_after,
  o.total,
  o.is_canceled,
  (SELECT COUNT(*) FROM `order_versions` v WHERE v.order_id = o.id) AS earlier_versions
FROM `orders` o
JOIN `reports` r ON r.id = o.report_id AND r.deleted_at IS NULL
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND julianday(o.updated_at) > julianday(r.finalized_at);
--> statement-breakpoint
-- Orders charged to a hotel guest's room account (isTransferred), by operator.
CREATE VIEW `v_room_transfers` AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  o.order_number,
  o.operator_id,
  o.operator_name,
  o.transfer_reason,
  o.total,
  o.closed_at,
  o.is_canceled
FROM `orders` o
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND o.is_transferred = 1;
--> statement-breakpoint
-- Orders that count as sales whose payments do not add up to their total (to the cent).
CREATE VIEW `v_payment_mismatches` AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  o.order_number,
  o.operator_id,
  o.operator_name,
  o.total,
  ROUND(COALESCE(SUM(p.payment_amount), 0), 2) AS paid,
  ROUND(COALESCE(SUM(p.payment_amount), 0) - o.total, 2) AS difference,
  COUNT(p.order_id) AS payments
FROM `orders` o
LEFT JOIN `order_payments` p ON p.order_id = o.id
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND o.is_canceled = 0 AND o.is_transferred = 0 AND o.is_training = 0
GROUP BY o.id, l.name
HAVING ABS(COALESCE(SUM(p.payment_amount), 0) - o.total) >= 0.005;
--> statement-breakpoint
-- Training-mode orders (they count in no sale) that carry payments.
CREATE VIEW `v_training_with_payments` AS
SELECT
  o.id AS order_id,
  o.location_id,
  l.name AS location_name,
  o.business_date,
  o.order_number,
  o.operator_id,
  o.operator_name,
  o.total,
  ROUND(SUM(p.payment_amount), 2) AS paid,
  COUNT(*) AS payments
FROM `orders` o
JOIN `order_payments` p ON p.order_id = o.id
LEFT JOIN `locations` l ON l.id = o.location_id
WHERE o.deleted_at IS NULL AND o.is_training = 1
GROUP BY o.id, l.name
HAVING SUM(p.payment_amount) > 0;
