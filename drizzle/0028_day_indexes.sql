CREATE INDEX `order_version_rows_day` ON `order_version_rows` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `order_rows_day` ON `order_rows` (`business_date_typed`);--> statement-breakpoint
CREATE INDEX `report_rows_day` ON `report_rows` (`business_date_typed`);