CREATE TABLE "provider_license_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"state" text NOT NULL,
	"change" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_licensed_states" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "approval_snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "provider_license_changes" ADD CONSTRAINT "provider_license_changes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_license_changes" ADD CONSTRAINT "provider_license_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_license_changes_user_idx" ON "provider_license_changes" USING btree ("tenant_id","user_id","id");