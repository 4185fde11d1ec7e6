CREATE INDEX `order_version_rows_day` ON `order_version_rows` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `order_rows_day` ON `order_rows` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `report_rows_day` ON `report_rows` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `daily_operator_sales_day` ON `daily_operator_sales` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `daily_payment_sales_day` ON `daily_payment_sales` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `daily_product_sales_day` ON `daily_product_sales` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `daily_sales_day` ON `daily_sales` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `daily_tax_sales_day` ON `daily_tax_sales` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `hourly_sales_day` ON `hourly_sales` (`business_date_typed`);