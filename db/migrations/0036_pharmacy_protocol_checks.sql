CREATE TABLE "pharmacy_verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"connection_id" text NOT NULL,
	"status" text NOT NULL,
	"base_url" text NOT NULL,
	"checks" jsonb NOT NULL,
	"callbacks" jsonb NOT NULL,
	"requested_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_dispatches" ADD COLUMN "pharmacy_hold" text;--> statement-breakpoint
ALTER TABLE "pharmacy_verifications" ADD CONSTRAINT "pharmacy_verifications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pharmacy_verifications" ADD CONSTRAINT "pharmacy_verifications_connection_id_pharmacy_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."pharmacy_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pharmacy_verifications_connection_idx" ON "pharmacy_verifications" USING btree ("tenant_id","livemode","connection_id","id");