-- pos-sync's own tables move out of the configured schema into its internal twin (pos_internal
-- here; the migrator writes the configured schema's twin in its place), so that the configured
-- schema holds the contract alone, each relation commented: what a BI tool lists. Moved in place:
-- indexes, constraints, identity sequences and triggers go with their tables, and the views,
-- which name tables by identity, read on. The trigger functions follow and read both schemas.
-- Only the schema's first migration creates the twin (CREATE SCHEMA needs CREATE on the
-- database even with IF NOT EXISTS).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'pos_internal') THEN
    CREATE SCHEMA pos_internal;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE alerts SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE api_ids SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE daily_operator_sales SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE daily_payment_sales SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE daily_product_sales SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE daily_sales SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE daily_tax_sales SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE deliveries SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE hourly_sales SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE location_claims SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE location_row_counts SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE order_item_discount_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE order_item_modifier_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE order_item_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE order_payment_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE order_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE order_version_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE raw_records SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_clerk_shift_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_discount_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_entry_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_order_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_order_sums SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_payment_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_product_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE report_tax_rows SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE summary_pending SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE sync_state SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER TABLE __drizzle_migrations SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER FUNCTION delete_child_rows() SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER FUNCTION pos_internal.delete_child_rows() SET search_path FROM CURRENT;
--> statement-breakpoint
ALTER FUNCTION count_location_rows() SET SCHEMA pos_internal;
--> statement-breakpoint
ALTER FUNCTION pos_internal.count_location_rows() SET search_path FROM CURRENT;
