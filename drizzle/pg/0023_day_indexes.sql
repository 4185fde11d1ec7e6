CREATE INDEX "daily_operator_sales_day" ON "pos_internal"."daily_operator_sales" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "daily_payment_sales_day" ON "pos_internal"."daily_payment_sales" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "daily_product_sales_day" ON "pos_internal"."daily_product_sales" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "daily_sales_day" ON "pos_internal"."daily_sales" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "daily_tax_sales_day" ON "pos_internal"."daily_tax_sales" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "hourly_sales_day" ON "pos_internal"."hourly_sales" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "order_rows_day" ON "pos_internal"."order_rows" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "order_version_rows_day" ON "pos_internal"."order_version_rows" USING btree ("business_date");--> statement-breakpoint
CREATE INDEX "report_rows_day" ON "pos_internal"."report_rows" USING btree ("business_date");