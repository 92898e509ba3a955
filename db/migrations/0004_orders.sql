CREATE TABLE "order_dispatches" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"order_id" text NOT NULL,
	"round" integer NOT NULL,
	"connection_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"external_id" text,
	"last_error" text,
	"pharmacy_status" text,
	"created_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_transitions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"order_id" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"reason_code" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"priority" text NOT NULL,
	"foreign_order_id" text,
	"patient_id" text,
	"items" jsonb NOT NULL,
	"amber_fields" jsonb NOT NULL,
	"connection_id" text,
	"approved_at" timestamp with time zone,
	"approved_by" text,
	"dispatch_round" integer DEFAULT 0 NOT NULL,
	"first_routed_at" timestamp with time zone,
	"rejection_reason_code" text,
	"shipment" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pharmacy_callbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"connection_id" text NOT NULL,
	"callback_id" text,
	"idempotency_key" text,
	"status" text,
	"order_id" text,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_dispatches" ADD CONSTRAINT "order_dispatches_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_dispatches" ADD CONSTRAINT "order_dispatches_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_dispatches" ADD CONSTRAINT "order_dispatches_connection_id_pharmacy_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."pharmacy_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_transitions" ADD CONSTRAINT "order_transitions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_transitions" ADD CONSTRAINT "order_transitions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_connection_id_pharmacy_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."pharmacy_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_callbacks" ADD CONSTRAINT "pharmacy_callbacks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_dispatches_round_idx" ON "order_dispatches" USING btree ("order_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "order_dispatches_key_idx" ON "order_dispatches" USING btree ("connection_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "order_transitions_order_idx" ON "order_transitions" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "orders_scope_idx" ON "orders" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("tenant_id","livemode","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_foreign_idx" ON "orders" USING btree ("tenant_id","livemode","source","foreign_order_id") WHERE "orders"."foreign_order_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_routed_idx" ON "orders" USING btree ("tenant_id","first_routed_at") WHERE "orders"."livemode" and "orders"."first_routed_at" is not null;--> statement-breakpoint
CREATE INDEX "pharmacy_callbacks_scope_idx" ON "pharmacy_callbacks" USING btree ("tenant_id","livemode","outcome","id");