CREATE TABLE "flow_session_answers" (
	"session_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"steps" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_session_marks" (
	"session_id" text NOT NULL,
	"mark" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "flow_session_marks_session_id_mark_pk" PRIMARY KEY("session_id","mark")
);
--> statement-breakpoint
CREATE TABLE "flow_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"flow_id" text NOT NULL,
	"flow_version_id" text NOT NULL,
	"embed_key_id" text NOT NULL,
	"experiment_id" text,
	"variant_key" text,
	"status" text NOT NULL,
	"verdict" text,
	"submission_id" text,
	"campaign" text,
	"checkout_completed_at" timestamp with time zone,
	"external_order_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_stats_daily" (
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"flow_id" text NOT NULL,
	"flow_version_id" text NOT NULL,
	"day" date NOT NULL,
	"step_id" text NOT NULL,
	"experiment_id" text NOT NULL,
	"arm" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"qualified" integer DEFAULT 0 NOT NULL,
	"disqualified" integer DEFAULT 0 NOT NULL,
	"step_views" integer DEFAULT 0 NOT NULL,
	"completes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "flow_stats_daily_flow_id_day_flow_version_id_step_id_experiment_id_arm_pk" PRIMARY KEY("flow_id","day","flow_version_id","step_id","experiment_id","arm")
);
--> statement-breakpoint
CREATE TABLE "flow_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"flow_id" text NOT NULL,
	"number" integer NOT NULL,
	"status" text NOT NULL,
	"document" jsonb NOT NULL,
	"questionnaire_id" text NOT NULL,
	"questionnaire_key" text NOT NULL,
	"questionnaire_version" integer NOT NULL,
	"clinical_plane_hash" text NOT NULL,
	"published_by" text NOT NULL,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"approved_here" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flows" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"draft" jsonb NOT NULL,
	"active_version_id" text,
	"pending_version_id" text,
	"origin" text NOT NULL,
	"created_by" text NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_sessions_scope_idx" ON "flow_sessions" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "flow_sessions_flow_idx" ON "flow_sessions" USING btree ("flow_id","created_at");--> statement-breakpoint
CREATE INDEX "flow_versions_scope_idx" ON "flow_versions" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "flow_versions_number_idx" ON "flow_versions" USING btree ("flow_id","number");--> statement-breakpoint
CREATE INDEX "flows_scope_idx" ON "flows" USING btree ("tenant_id","livemode","id");