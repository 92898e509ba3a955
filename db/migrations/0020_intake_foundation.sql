CREATE TABLE "embed_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"name" text,
	"allowed_origins" jsonb NOT NULL,
	"flow_id" text,
	"questionnaire_keys" jsonb NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificate_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_key_encrypted" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "intake_answers" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"answers" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intake_hosted_links" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"token_hash" text NOT NULL,
	"patient_id" text NOT NULL,
	"questionnaire_key" text NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"submission_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intake_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"questionnaire_id" text NOT NULL,
	"questionnaire_key" text NOT NULL,
	"questionnaire_version" integer NOT NULL,
	"patient_id" text NOT NULL,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"verdict" text NOT NULL,
	"missing" jsonb NOT NULL,
	"hits" jsonb NOT NULL,
	"flags" jsonb NOT NULL,
	"certificate" text,
	"embed_key_id" text,
	"flow_id" text,
	"flow_session_id" text,
	"order_id" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaires" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"key" text NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"origin" text NOT NULL,
	"document" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"approval_note" text,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "features" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "embed_keys" ADD CONSTRAINT "embed_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_answers" ADD CONSTRAINT "intake_answers_submission_id_intake_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."intake_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embed_keys_scope_idx" ON "embed_keys" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "intake_hosted_links_token_idx" ON "intake_hosted_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "intake_hosted_links_scope_idx" ON "intake_hosted_links" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "intake_submissions_scope_idx" ON "intake_submissions" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "intake_submissions_status_idx" ON "intake_submissions" USING btree ("tenant_id","livemode","status","id");--> statement-breakpoint
CREATE INDEX "questionnaires_scope_idx" ON "questionnaires" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaires_version_idx" ON "questionnaires" USING btree ("tenant_id","livemode","key","version");--> statement-breakpoint
CREATE INDEX "questionnaires_status_idx" ON "questionnaires" USING btree ("tenant_id","livemode","status","key");