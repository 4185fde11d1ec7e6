CREATE TABLE "location_row_counts" (
	"relation" text NOT NULL,
	"location_id" text NOT NULL,
	"live" bigint NOT NULL,
	"deleted" bigint NOT NULL,
	CONSTRAINT "location_row_counts_relation_location_id_pk" PRIMARY KEY("relation","location_id")
);
--> statement-breakpoint
CREATE INDEX "location_claims_open" ON "location_claims" USING btree ("key_fingerprint") WHERE status = 'running' OR location_id IS NULL;
--> statement-breakpoint
-- The counts follow every write to the two tables, pos-sync's or a hand's: a row added, removed,
-- marked deleted or brought back, or moved to another location; once per statement, from its
-- transition tables. An order names its location by its key in api_ids. The trigger's argument:
-- the relation counted. SET search_path FROM CURRENT: the configured schema, whoever writes.
CREATE FUNCTION count_location_rows() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  location text := CASE WHEN TG_TABLE_NAME = 'order_rows'
    THEN '(SELECT k.id FROM api_ids k WHERE k.key = r.location_ref)' ELSE 'r.location_id' END;
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s AS location_id, 1 AS sign, r.deleted_at FROM new_rows r', location)
    WHEN 'DELETE' THEN format('SELECT %s AS location_id, -1 AS sign, r.deleted_at FROM old_rows r', location)
    ELSE format('SELECT %1$s AS location_id, 1 AS sign, r.deleted_at FROM new_rows r
      UNION ALL SELECT %1$s, -1, r.deleted_at FROM old_rows r', location) END;
BEGIN
  EXECUTE format(
    'INSERT INTO location_row_counts AS c (relation, location_id, live, deleted)
     SELECT %L, location_id, live, deleted FROM (
       SELECT location_id, COALESCE(SUM(sign) FILTER (WHERE deleted_at IS NULL), 0) AS live,
         COALESCE(SUM(sign) FILTER (WHERE deleted_at IS NOT NULL), 0) AS deleted
       FROM (%s) changed GROUP BY location_id
     ) net
     WHERE live <> 0 OR deleted <> 0
     ON CONFLICT (relation, location_id) DO UPDATE
     SET live = c.live + excluded.live, deleted = c.deleted + excluded.deleted',
    TG_ARGV[0], changed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_rows_counted_insert AFTER INSERT ON order_rows REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_location_rows('orders');
--> statement-breakpoint
CREATE TRIGGER order_rows_counted_update AFTER UPDATE ON order_rows
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_location_rows('orders');
--> statement-breakpoint
CREATE TRIGGER order_rows_counted_delete AFTER DELETE ON order_rows REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_location_rows('orders');
--> statement-breakpoint
CREATE TRIGGER reports_counted_insert AFTER INSERT ON reports REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_location_rows('reports');
--> statement-breakpoint
CREATE TRIGGER reports_counted_update AFTER UPDATE ON reports
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_location_rows('reports');
--> statement-breakpoint
CREATE TRIGGER reports_counted_delete AFTER DELETE ON reports REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_location_rows('reports');
--> statement-breakpoint
-- A schema synced before: its rows counted once.
INSERT INTO location_row_counts (relation, location_id, live, deleted)
SELECT 'orders', k.id, COUNT(*) - COUNT(o.deleted_at), COUNT(o.deleted_at)
FROM order_rows o JOIN api_ids k ON k.key = o.location_ref GROUP BY k.id;
--> statement-breakpoint
INSERT INTO location_row_counts (relation, location_id, live, deleted)
SELECT 'reports', location_id, COUNT(*) - COUNT(deleted_at), COUNT(deleted_at)
FROM reports GROUP BY location_id;
