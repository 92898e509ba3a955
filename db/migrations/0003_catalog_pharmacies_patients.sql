CREATE TABLE "pharmacy_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"name" text NOT NULL,
	"adapter" text NOT NULL,
	"settings" jsonb NOT NULL,
	"states" jsonb NOT NULL,
	"status" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "routing_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"strategy" text NOT NULL,
	"priority" jsonb NOT NULL,
	"require_state_license" boolean NOT NULL,
	"allow_fallback" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulated_pharmacy_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"reason_code" text,
	"received_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "catalog_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"catalog_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"line_no" integer NOT NULL,
	"product_id" text NOT NULL,
	"item_code" text NOT NULL,
	"price_cents" integer NOT NULL,
	"stock" integer NOT NULL,
	"eta_days" integer NOT NULL,
	"live" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogs" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"connection_id" text NOT NULL,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"line_count" integer NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"rejection_reason" text,
	"created_by" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"name" text NOT NULL,
	"sku" text NOT NULL,
	"form" text NOT NULL,
	"strength" text,
	"rx_required" boolean NOT NULL,
	"active" boolean NOT NULL,
	"description" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "protocols" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"items" jsonb NOT NULL,
	"active" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_access_log" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"patient_id" text NOT NULL,
	"action" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"request_id" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"synthetic" boolean NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"date_of_birth" text NOT NULL,
	"sex" text NOT NULL,
	"email" text,
	"phone" text,
	"address" jsonb,
	"allergies" jsonb NOT NULL,
	"medications" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pharmacy_connections" ADD CONSTRAINT "pharmacy_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routing_policies" ADD CONSTRAINT "routing_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_lines" ADD CONSTRAINT "catalog_lines_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_lines" ADD CONSTRAINT "catalog_lines_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_lines" ADD CONSTRAINT "catalog_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogs" ADD CONSTRAINT "catalogs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogs" ADD CONSTRAINT "catalogs_connection_id_pharmacy_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."pharmacy_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protocols" ADD CONSTRAINT "protocols_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_access_log" ADD CONSTRAINT "patient_access_log_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_access_log" ADD CONSTRAINT "patient_access_log_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pharmacy_connections_scope_idx" ON "pharmacy_connections" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "routing_policies_scope_idx" ON "routing_policies" USING btree ("tenant_id","livemode");--> statement-breakpoint
CREATE UNIQUE INDEX "simulated_pharmacy_orders_key_idx" ON "simulated_pharmacy_orders" USING btree ("connection_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "catalog_lines_catalog_idx" ON "catalog_lines" USING btree ("catalog_id","line_no");--> statement-breakpoint
CREATE INDEX "catalog_lines_routing_idx" ON "catalog_lines" USING btree ("tenant_id","livemode","product_id") WHERE "catalog_lines"."live";--> statement-breakpoint
CREATE INDEX "catalogs_scope_idx" ON "catalogs" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "catalogs_connection_idx" ON "catalogs" USING btree ("connection_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "products_sku_idx" ON "products" USING btree ("tenant_id","livemode","sku");--> statement-breakpoint
CREATE INDEX "products_scope_idx" ON "products" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "protocols_scope_idx" ON "protocols" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "patient_access_log_patient_idx" ON "patient_access_log" USING btree ("tenant_id","livemode","patient_id","id");--> statement-breakpoint
CREATE INDEX "patients_scope_idx" ON "patients" USING btree ("tenant_id","livemode","id");