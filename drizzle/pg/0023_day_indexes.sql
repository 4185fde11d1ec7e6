CREATE INDEX "order_rows_day" ON "pos_internal"."order_rows" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "order_version_rows_day" ON "pos_internal"."order_version_rows" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "report_rows_day" ON "pos_internal"."report_rows" USING btree ("business_date");