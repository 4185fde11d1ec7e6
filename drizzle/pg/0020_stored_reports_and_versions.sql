-- `reports` and `order_versions` become views of the tables that store them (report_rows,
-- order_version_rows; the views migration that follows makes them), as on SQLite, so that the
-- relations read alike on both databases. The stored tables are pos-sync's own: their comments go
-- (a BI role is granted what is commented: docs/scaling.md), and with them what a role that
-- only reads was granted on them as the contract.
ALTER TABLE reports RENAME TO report_rows;
--> statement-breakpoint
ALTER SEQUENCE reports_key_seq RENAME TO report_rows_key_seq;
--> statement-breakpoint
ALTER TABLE report_rows RENAME CONSTRAINT reports_id_unique TO report_rows_id_unique;
--> statement-breakpoint
ALTER TABLE order_versions RENAME TO order_version_rows;
--> statement-breakpoint
ALTER TABLE order_version_rows
  RENAME CONSTRAINT order_versions_order_id_version_pk TO order_version_rows_order_id_version_pk;
--> statement-breakpoint
DO $$
DECLARE
  stored regclass;
  grant_row record;
  column_name name;
BEGIN
  FOREACH stored IN ARRAY ARRAY['report_rows'::regclass, 'order_version_rows'::regclass] LOOP
    EXECUTE format('COMMENT ON TABLE %s IS NULL', stored);
    FOR column_name IN
      SELECT a.attname FROM pg_attribute a WHERE a.attrelid = stored AND a.attnum > 0 AND NOT a.attisdropped
    LOOP
      EXECUTE format('COMMENT ON COLUMN %s.%I IS NULL', stored, column_name);
    END LOOP;
    -- Readers alone (a BI role): a worker's user, granted writes too, keeps what it has.
    FOR grant_row IN
      SELECT g.grantee FROM information_schema.role_table_grants g
      JOIN pg_class c ON c.oid = stored
      WHERE g.table_schema = current_schema() AND g.table_name = c.relname
        AND g.grantee <> pg_get_userbyid(c.relowner)
      GROUP BY g.grantee HAVING bool_and(g.privilege_type = 'SELECT')
    LOOP
      EXECUTE format('REVOKE SELECT ON %s FROM %s', stored,
        CASE WHEN grant_row.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(grant_row.grantee) END);
    END LOOP;
  END LOOP;
END $$;
