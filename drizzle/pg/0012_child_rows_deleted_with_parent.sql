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
-- check of every inserted row. SET search_path FROM CURRENT: the configured schema, whoever
-- deletes.
CREATE FUNCTION delete_order_child_rows() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM order_item_modifier_rows WHERE order_key IN (SELECT key FROM gone);
  DELETE FROM order_item_discount_rows WHERE order_key IN (SELECT key FROM gone);
  DELETE FROM order_item_rows WHERE order_key IN (SELECT key FROM gone);
  DELETE FROM order_payment_rows WHERE order_key IN (SELECT key FROM gone);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_rows_delete_child_rows AFTER DELETE ON order_rows
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION delete_order_child_rows();
--> statement-breakpoint
CREATE FUNCTION delete_report_child_rows() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM report_product_rows WHERE report_key IN (SELECT key FROM gone);
  DELETE FROM report_clerk_shift_rows WHERE report_key IN (SELECT key FROM gone);
  DELETE FROM report_discount_rows WHERE report_key IN (SELECT key FROM gone);
  DELETE FROM report_tax_rows WHERE report_key IN (SELECT key FROM gone);
  DELETE FROM report_payment_rows WHERE report_key IN (SELECT key FROM gone);
  DELETE FROM report_entry_rows WHERE report_key IN (SELECT key FROM gone);
  DELETE FROM report_order_rows WHERE report_key IN (SELECT key FROM gone);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reports_delete_child_rows AFTER DELETE ON reports
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION delete_report_child_rows();
