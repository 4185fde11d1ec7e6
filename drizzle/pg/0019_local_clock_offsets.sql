ALTER TABLE "order_rows" ADD COLUMN "created_at_offset" bigint;--> statement-breakpoint
ALTER TABLE "order_rows" ADD COLUMN "closed_at_offset" bigint;--> statement-breakpoint
ALTER TABLE "order_rows" ADD COLUMN "updated_at_offset" bigint;--> statement-breakpoint
ALTER TABLE "order_versions" ADD COLUMN "closed_at_offset" bigint;--> statement-breakpoint
ALTER TABLE "order_versions" ADD COLUMN "ended_at_offset" bigint;--> statement-breakpoint
ALTER TABLE "order_versions" ADD COLUMN "next_updated_at_offset" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "finalized_at_offset" bigint;--> statement-breakpoint
-- Rows stored before the offsets get them: each date-time's offset as the API wrote it (the raw
-- archive), or, where it wrote UTC or the archive has no text, the location's time zone setting's
-- at that instant (pos-sync's own rule: src/clock/local-clock.ts, offsetOf); failing both, the
-- fallback given (UTC for orders and reports, the order's own for its earlier versions).
CREATE FUNCTION pos_sync_upgrade_offset(sent text, at timestamptz, zone text, fallback bigint)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN at IS NULL THEN NULL
    WHEN sent ~ '[+-]\d\d:\d\d$' AND right(sent, 5) <> '00:00' THEN
      (CASE WHEN left(right(sent, 6), 1) = '-' THEN -1 ELSE 1 END)
        * (substr(right(sent, 5), 1, 2)::bigint * 60 + substr(right(sent, 5), 4, 2)::bigint)
    WHEN zone IS NOT NULL THEN
      round(EXTRACT(EPOCH FROM (at AT TIME ZONE zone) - (at AT TIME ZONE 'UTC')) / 60)::bigint
    ELSE fallback
  END
$$;
--> statement-breakpoint
WITH zones AS (
  SELECT l.id, n.name AS zone
  FROM locations l JOIN pg_timezone_names n ON n.name = l.time_zone
)
UPDATE order_rows o SET
  created_at_offset = f.created_at_offset,
  closed_at_offset = f.closed_at_offset,
  updated_at_offset = f.updated_at_offset
FROM (
  SELECT x.key,
    pos_sync_upgrade_offset(r.document ->> 'createdAt', x.created_at, z.zone, 0) AS created_at_offset,
    pos_sync_upgrade_offset(r.document ->> 'closedAt', x.closed_at, z.zone, 0) AS closed_at_offset,
    pos_sync_upgrade_offset(r.document ->> 'updatedAt', x.updated_at, z.zone, 0) AS updated_at_offset
  FROM order_rows x
  JOIN api_ids k ON k.key = x.location_ref
  LEFT JOIN zones z ON z.id = k.id
  LEFT JOIN raw_records r ON r.table_name = 'orders' AND r.location_id = k.id AND r.id = x.id
  WHERE x.closed_at_offset IS NULL
) f
WHERE o.key = f.key;
--> statement-breakpoint
WITH zones AS (
  SELECT l.id, n.name AS zone
  FROM locations l JOIN pg_timezone_names n ON n.name = l.time_zone
)
UPDATE reports t SET
  finalized_at_offset = pos_sync_upgrade_offset(
    (SELECT r.document ->> 'finalizedAt' FROM raw_records r
      WHERE r.table_name = 'reports' AND r.location_id = t.location_id AND r.id = t.id),
    t.finalized_at, (SELECT z.zone FROM zones z WHERE z.id = t.location_id), 0)
WHERE t.finalized_at_offset IS NULL;
--> statement-breakpoint
WITH zones AS (
  SELECT l.id, n.name AS zone
  FROM locations l JOIN pg_timezone_names n ON n.name = l.time_zone
)
UPDATE order_versions v SET
  closed_at_offset = pos_sync_upgrade_offset(NULL, v.closed_at, f.zone, f.closed_fallback),
  next_updated_at_offset =
    pos_sync_upgrade_offset(NULL, v.next_updated_at, f.zone, f.updated_fallback),
  ended_at_offset = COALESCE(
    pos_sync_upgrade_offset(NULL, v.next_updated_at, f.zone, f.updated_fallback),
    pos_sync_upgrade_offset(NULL, v.updated_at, f.zone, f.updated_fallback))
FROM (
  SELECT x.order_id, x.version, z.zone,
    COALESCE(o.closed_at_offset, 0) AS closed_fallback,
    COALESCE(o.updated_at_offset, 0) AS updated_fallback
  FROM order_versions x
  LEFT JOIN zones z ON z.id = x.location_id
  LEFT JOIN order_rows o ON o.id = x.order_id
  WHERE x.closed_at_offset IS NULL
) f
WHERE v.order_id = f.order_id AND v.version = f.version;
--> statement-breakpoint
DROP FUNCTION pos_sync_upgrade_offset;
