ALTER TABLE "order_item_discount_rows" DROP CONSTRAINT "order_item_discount_rows_order_key_item_position_order_item_rows_order_key_position_fk";
--> statement-breakpoint
ALTER TABLE "order_item_modifier_rows" DROP CONSTRAINT "order_item_modifier_rows_order_key_item_position_order_item_rows_order_key_position_fk";
--> statement-breakpoint
ALTER TABLE "order_item_rows" DROP CONSTRAINT "order_item_rows_order_key_order_rows_key_fk";
--> statement-breakpoint
ALTER TABLE "order_payment_rows" DROP CONSTRAINT "order_payment_rows_order_key_order_rows_key_fk";
--> statement-breakpoint
ALTER TABLE "report_clerk_shift_rows" DROP CONSTRAINT "report_clerk_shift_rows_report_key_reports_key_fk";
--> statement-breakpoint
ALTER TABLE "report_discount_rows" DROP CONSTRAINT "report_discount_rows_report_key_reports_key_fk";
--> statement-breakpoint
ALTER TABLE "report_entry_rows" DROP CONSTRAINT "report_entry_rows_report_key_reports_key_fk";
--> statement-breakpoint
ALTER TABLE "report_order_rows" DROP CONSTRAINT "report_order_rows_report_key_reports_key_fk";
--> statement-breakpoint
ALTER TABLE "report_payment_rows" DROP CONSTRAINT "report_payment_rows_report_key_reports_key_fk";
--> statement-breakpoint
ALTER TABLE "report_product_rows" DROP CONSTRAINT "report_product_rows_report_key_reports_key_fk";
--> statement-breakpoint
ALTER TABLE "report_tax_rows" DROP CONSTRAINT "report_tax_rows_report_key_reports_key_fk";
--> statement-breakpoint
-- The child rows go with their order or report, deleted by the writers (a replaced record) or by
-- hand, as ON DELETE CASCADE did: one statement per child table for a whole DELETE, not a
-- check of every inserted row. The trigger's arguments: the child tables' column with the
-- parent's key, then the child tables. SET search_path FROM CURRENT: the configured schema,
-- whoever deletes.
CREATE FUNCTION delete_child_rows() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    EXECUTE format('DELETE FROM %I WHERE %I IN (SELECT key FROM gone)', TG_ARGV[i], TG_ARGV[0]);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_rows_delete_child_rows AFTER DELETE ON order_rows
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
  EXECUTE FUNCTION delete_child_rows('order_key', 'order_item_modifier_rows',
    'order_item_discount_rows', 'order_item_rows', 'order_payment_rows');
--> statement-breakpoint
CREATE TRIGGER reports_delete_child_rows AFTER DELETE ON reports
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
  EXECUTE FUNCTION delete_child_rows('report_key', 'report_product_rows',
    'report_clerk_shift_rows', 'report_discount_rows', 'report_tax_rows', 'report_payment_rows',
    'report_entry_rows', 'report_order_rows');
