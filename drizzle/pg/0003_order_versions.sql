CREATE TABLE "order_versions" (
	"order_id" text NOT NULL,
	"version" bigint NOT NULL,
	"location_id" text NOT NULL,
	"business_date" date NOT NULL,
	"order_number" text NOT NULL,
	"operator_id" text NOT NULL,
	"operator_name" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"total" numeric NOT NULL,
	"is_canceled" boolean NOT NULL,
	"paid" numeric NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"ended_by" text NOT NULL,
	"next_total" numeric,
	"next_updated_at" timestamp with time zone,
	"next_operator_id" text,
	"next_operator_name" text,
	"next_is_canceled" boolean,
	"changed_fields" jsonb,
	"content" jsonb NOT NULL,
	CONSTRAINT "order_versions_order_id_version_pk" PRIMARY KEY("order_id","version")
);
--> statement-breakpoint
CREATE INDEX "order_versions_location_ended" ON "order_versions" USING btree ("location_id","ended_at");--> statement-breakpoint
CREATE INDEX "order_versions_ended" ON "order_versions" USING btree ("ended_at");