CREATE TABLE "categories" (
	"location_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"position" bigint NOT NULL,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "categories_location_id_id_pk" PRIMARY KEY("location_id","id")
);
--> statement-breakpoint
CREATE TABLE "daily_operator_sales" (
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"operator_id" text NOT NULL,
	"operator_name" text NOT NULL,
	"orders" bigint NOT NULL,
	"total_sales" numeric NOT NULL,
	"total_discount" numeric NOT NULL,
	"cancelled_orders" bigint NOT NULL,
	"cancelled_total" numeric NOT NULL,
	"cancelled_items" bigint NOT NULL,
	"cancelled_items_total" numeric NOT NULL,
	CONSTRAINT "daily_operator_sales_location_id_business_date_operator_id_pk" PRIMARY KEY("location_id","business_date","operator_id")
);
--> statement-breakpoint
CREATE TABLE "daily_payment_sales" (
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"payment_name" text NOT NULL,
	"payments" bigint NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "daily_payment_sales_location_id_business_date_payment_name_pk" PRIMARY KEY("location_id","business_date","payment_name")
);
--> statement-breakpoint
CREATE TABLE "daily_product_sales" (
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"product_id" text NOT NULL,
	"product_name" text NOT NULL,
	"category" text NOT NULL,
	"sub_category" text NOT NULL,
	"quantity" numeric NOT NULL,
	"sales" numeric NOT NULL,
	"tax" numeric NOT NULL,
	"net_sales" numeric NOT NULL,
	"orders" bigint NOT NULL,
	CONSTRAINT "daily_product_sales_location_id_business_date_product_id_pk" PRIMARY KEY("location_id","business_date","product_id")
);
--> statement-breakpoint
CREATE TABLE "daily_sales" (
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"orders" bigint NOT NULL,
	"guests" numeric NOT NULL,
	"total_sales" numeric NOT NULL,
	"total_tax" numeric NOT NULL,
	"net_sales" numeric NOT NULL,
	"total_discount" numeric NOT NULL,
	"transferred_orders" bigint NOT NULL,
	"transferred_sales" numeric NOT NULL,
	"cancelled_orders" bigint NOT NULL,
	"cancelled_total" numeric NOT NULL,
	"training_orders" bigint NOT NULL,
	CONSTRAINT "daily_sales_location_id_business_date_pk" PRIMARY KEY("location_id","business_date")
);
--> statement-breakpoint
CREATE TABLE "daily_tax_sales" (
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"tax_rate_bp" bigint NOT NULL,
	"tax_name" text NOT NULL,
	"gross_sales" numeric NOT NULL,
	"tax_amount" numeric NOT NULL,
	"taxable_amount" numeric NOT NULL,
	CONSTRAINT "daily_tax_sales_location_id_business_date_tax_rate_bp_pk" PRIMARY KEY("location_id","business_date","tax_rate_bp")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"location_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"position" bigint NOT NULL,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "devices_location_id_id_pk" PRIMARY KEY("location_id","id")
);
--> statement-breakpoint
CREATE TABLE "hourly_sales" (
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"hour" bigint NOT NULL,
	"orders" bigint NOT NULL,
	"total_sales" numeric NOT NULL,
	CONSTRAINT "hourly_sales_location_id_business_date_hour_pk" PRIMARY KEY("location_id","business_date","hour")
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"name" text,
	"address" text,
	"city" text,
	"zip" text,
	"country" text,
	"phone" text,
	"url" text,
	"text" text,
	"siret" text,
	"naf" text,
	"tva" text,
	"api_key_fingerprint" text,
	"time_zone" text,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "modifier_options" (
	"location_id" text NOT NULL,
	"modifier_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"price" numeric NOT NULL,
	"position" bigint NOT NULL,
	CONSTRAINT "modifier_options_location_id_modifier_id_id_pk" PRIMARY KEY("location_id","modifier_id","id")
);
--> statement-breakpoint
CREATE TABLE "modifiers" (
	"location_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "modifiers_location_id_id_pk" PRIMARY KEY("location_id","id")
);
--> statement-breakpoint
CREATE TABLE "order_item_discounts" (
	"order_id" text NOT NULL,
	"item_position" bigint NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"discount_name" text NOT NULL,
	"discount_value" numeric NOT NULL,
	"discount_catalog_id" text NOT NULL,
	CONSTRAINT "order_item_discounts_order_id_item_position_position_pk" PRIMARY KEY("order_id","item_position","position")
);
--> statement-breakpoint
CREATE TABLE "order_item_modifiers" (
	"order_id" text NOT NULL,
	"item_position" bigint NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"modifier_group_id" text NOT NULL,
	"modifier_id" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "order_item_modifiers_order_id_item_position_position_pk" PRIMARY KEY("order_id","item_position","position")
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"order_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"description" text NOT NULL,
	"quantity" numeric NOT NULL,
	"weight" numeric,
	"unit_price" numeric NOT NULL,
	"total" numeric NOT NULL,
	"category" text NOT NULL,
	"sub_category" text NOT NULL,
	"is_canceled" boolean NOT NULL,
	"cancel_reason" text,
	"tier" text NOT NULL,
	"is_transferred" boolean NOT NULL,
	"transfer_reason" text,
	"stock_impact_indicator" boolean,
	"tax_name" text NOT NULL,
	"tax_rate" numeric NOT NULL,
	"tax_rate_bp" bigint NOT NULL,
	"tax_amount" numeric NOT NULL,
	"tax_catalog_id" text NOT NULL,
	"item_catalog_id" text NOT NULL,
	"is_loss" boolean,
	"loss_reason" text,
	"combo_parent_id" text,
	CONSTRAINT "order_items_order_id_position_pk" PRIMARY KEY("order_id","position")
);
--> statement-breakpoint
CREATE TABLE "order_payments" (
	"order_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"payment_amount" numeric NOT NULL,
	"payment_name" text NOT NULL,
	"payment_catalog_id" text NOT NULL,
	CONSTRAINT "order_payments_order_id_position_pk" PRIMARY KEY("order_id","position")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"customer_id" text,
	"device_id" text,
	"device_name" text,
	"report_id" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"closed_hour" bigint,
	"guests" numeric NOT NULL,
	"order_place" text NOT NULL,
	"order_number" text NOT NULL,
	"operator_id" text NOT NULL,
	"operator_name" text NOT NULL,
	"total" numeric NOT NULL,
	"total_tax" numeric NOT NULL,
	"total_discount" numeric NOT NULL,
	"menus" jsonb NOT NULL,
	"tips" jsonb,
	"is_canceled" boolean NOT NULL,
	"is_transferred" boolean NOT NULL,
	"transfer_reason" text,
	"cancel_reason" text,
	"channel" text NOT NULL,
	"service_type" text NOT NULL,
	"is_training" boolean NOT NULL,
	"source" text NOT NULL,
	"external_order_id" text,
	"external_location_id" text,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"location_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "payment_methods_location_id_id_pk" PRIMARY KEY("location_id","id")
);
--> statement-breakpoint
CREATE TABLE "product_prices" (
	"location_id" text NOT NULL,
	"product_id" text NOT NULL,
	"price_type_id" bigint NOT NULL,
	"price_type_name" text NOT NULL,
	"unit_price" numeric NOT NULL,
	"tax_rate" numeric NOT NULL,
	"tax_rate_bp" bigint NOT NULL,
	"position" bigint NOT NULL,
	CONSTRAINT "product_prices_location_id_product_id_price_type_id_pk" PRIMARY KEY("location_id","product_id","price_type_id")
);
--> statement-breakpoint
CREATE TABLE "product_sub_categories" (
	"location_id" text NOT NULL,
	"product_id" text NOT NULL,
	"sub_category_id" text NOT NULL,
	"name" text NOT NULL,
	"position" bigint NOT NULL,
	CONSTRAINT "product_sub_categories_location_id_product_id_sub_category_id_pk" PRIMARY KEY("location_id","product_id","sub_category_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"location_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"category_id" text NOT NULL,
	"sku" text,
	"is_archived" boolean NOT NULL,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "products_location_id_id_pk" PRIMARY KEY("location_id","id")
);
--> statement-breakpoint
CREATE TABLE "raw_records" (
	"table_name" text NOT NULL,
	"location_id" text NOT NULL,
	"id" text NOT NULL,
	"document" jsonb NOT NULL,
	"synced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "raw_records_table_name_id_location_id_pk" PRIMARY KEY("table_name","id","location_id")
);
--> statement-breakpoint
CREATE TABLE "rejected_records" (
	"id" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "rejected_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint,
	"location_id" text NOT NULL,
	"stream" text NOT NULL,
	"day" date,
	"record_id" text,
	"record_key" text NOT NULL,
	"reason" text NOT NULL,
	"raw" text NOT NULL,
	"rejected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_clerk_shifts" (
	"report_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"clerk_id" text NOT NULL,
	"name" text NOT NULL,
	"clock_in_date" timestamp with time zone NOT NULL,
	"clock_out_date" timestamp with time zone NOT NULL,
	CONSTRAINT "report_clerk_shifts_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "report_discounts" (
	"report_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"discount_name" text NOT NULL,
	"discount_value" numeric NOT NULL,
	"discount_catalog_id" text NOT NULL,
	CONSTRAINT "report_discounts_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "report_entries" (
	"report_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"entry_name" text NOT NULL,
	"entry_amount" numeric NOT NULL,
	"entry_type" text NOT NULL,
	CONSTRAINT "report_entries_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "report_order_sums" (
	"report_id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"orders_listed" bigint NOT NULL,
	"orders_stored" bigint NOT NULL,
	"orders_missing" bigint NOT NULL,
	"stored_total_sales" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_orders" (
	"report_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"order_id" text NOT NULL,
	CONSTRAINT "report_orders_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "report_payments" (
	"report_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"payment_name" text NOT NULL,
	"payment_amount" numeric NOT NULL,
	CONSTRAINT "report_payments_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "report_products" (
	"report_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"product_name" text NOT NULL,
	"product_sales" numeric NOT NULL,
	"category" text NOT NULL,
	"sub_category" text NOT NULL,
	"product_quantity" bigint NOT NULL,
	"product_catalog_id" text NOT NULL,
	CONSTRAINT "report_products_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "report_taxes" (
	"report_id" text NOT NULL,
	"position" bigint NOT NULL,
	"location_id" text NOT NULL,
	"tax_name" text NOT NULL,
	"tax_rate" bigint NOT NULL,
	"tax_rate_bp" bigint NOT NULL,
	"tax_amount" numeric NOT NULL,
	"taxable_amount" numeric NOT NULL,
	CONSTRAINT "report_taxes_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finalized_at" timestamp with time zone NOT NULL,
	"device_name" text NOT NULL,
	"device_identifier" text,
	"report_number" bigint NOT NULL,
	"guests_number" bigint NOT NULL,
	"total_sales" numeric NOT NULL,
	"header_address" text NOT NULL,
	"header_city" text NOT NULL,
	"header_country" text NOT NULL,
	"header_name" text NOT NULL,
	"header_phone" text NOT NULL,
	"header_naf" text NOT NULL,
	"header_siret" text NOT NULL,
	"header_text" text NOT NULL,
	"header_tva" text NOT NULL,
	"header_zip" text NOT NULL,
	"header_url" text,
	"clerk_name" text,
	"clerk_id" text,
	"initial_cash_balance" bigint,
	"final_cash_balance" bigint,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "summary_pending" (
	"kind" text NOT NULL,
	"location_id" text NOT NULL,
	"key" text NOT NULL,
	CONSTRAINT "summary_pending_kind_location_id_key_pk" PRIMARY KEY("kind","location_id","key")
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "sync_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"stats" jsonb,
	"requests" bigint,
	"error" text,
	"pid" bigint,
	"hostname" text
);
--> statement-breakpoint
CREATE TABLE "sync_state" (
	"location_id" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sync_state_location_id_name_pk" PRIMARY KEY("location_id","name")
);
--> statement-breakpoint
CREATE TABLE "sync_windows" (
	"location_id" text NOT NULL,
	"stream" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"api_total_count" bigint,
	"stored_count" bigint,
	"attempts" bigint NOT NULL,
	"last_error" text,
	"run_id" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sync_windows_location_id_stream_day_pk" PRIMARY KEY("location_id","stream","day")
);
--> statement-breakpoint
CREATE TABLE "taxes" (
	"location_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"percentage" bigint NOT NULL,
	"tax_rate_bp" bigint NOT NULL,
	"content_hash" bigint,
	"synced_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "taxes_location_id_id_pk" PRIMARY KEY("location_id","id")
);
--> statement-breakpoint
ALTER TABLE "modifier_options" ADD CONSTRAINT "modifier_options_location_id_modifier_id_modifiers_location_id_id_fk" FOREIGN KEY ("location_id","modifier_id") REFERENCES "public"."modifiers"("location_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_item_discounts" ADD CONSTRAINT "order_item_discounts_order_id_item_position_order_items_order_id_position_fk" FOREIGN KEY ("order_id","item_position") REFERENCES "public"."order_items"("order_id","position") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_item_modifiers" ADD CONSTRAINT "order_item_modifiers_order_id_item_position_order_items_order_id_position_fk" FOREIGN KEY ("order_id","item_position") REFERENCES "public"."order_items"("order_id","position") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_prices" ADD CONSTRAINT "product_prices_location_id_product_id_products_location_id_id_fk" FOREIGN KEY ("location_id","product_id") REFERENCES "public"."products"("location_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sub_categories" ADD CONSTRAINT "product_sub_categories_location_id_product_id_products_location_id_id_fk" FOREIGN KEY ("location_id","product_id") REFERENCES "public"."products"("location_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_clerk_shifts" ADD CONSTRAINT "report_clerk_shifts_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_discounts" ADD CONSTRAINT "report_discounts_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_entries" ADD CONSTRAINT "report_entries_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_orders" ADD CONSTRAINT "report_orders_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_payments" ADD CONSTRAINT "report_payments_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_products" ADD CONSTRAINT "report_products_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_taxes" ADD CONSTRAINT "report_taxes_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_location_day" ON "orders" USING btree ("location_id","business_date");--> statement-breakpoint
CREATE INDEX "orders_report" ON "orders" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "orders_updated_at" ON "orders" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rejected_records_record" ON "rejected_records" USING btree ("location_id","stream","record_key");--> statement-breakpoint
CREATE INDEX "rejected_records_window" ON "rejected_records" USING btree ("location_id","stream","day");--> statement-breakpoint
CREATE INDEX "report_orders_order" ON "report_orders" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "reports_location_day" ON "reports" USING btree ("location_id","business_date");--> statement-breakpoint
CREATE INDEX "sync_windows_status" ON "sync_windows" USING btree ("status");