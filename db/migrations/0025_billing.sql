CREATE TABLE "billing_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"provider" text DEFAULT 'simulated' NOT NULL,
	"plan" text DEFAULT 'free' NOT NULL,
	"status" text DEFAULT 'none' NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"customer_id" text,
	"subscription_id" text,
	"stage" text DEFAULT 'healthy' NOT NULL,
	"stage_changed_at" timestamp with time zone,
	"first_failed_at" timestamp with time zone,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"amount_due_cents" integer DEFAULT 0 NOT NULL,
	"next_action_at" timestamp with time zone,
	"grace_extended" boolean DEFAULT false NOT NULL,
	"grace_extended_at" timestamp with time zone,
	"simulated_card_declines" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_provider_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"tenant_id" text,
	"type" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "billing_provider_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "billing_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"kind" text NOT NULL,
	"plan" text,
	"coupon_code" text,
	"percent_off" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "billing_stage_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"from_stage" text NOT NULL,
	"to_stage" text NOT NULL,
	"cause" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "billing_accounts_scope_idx" ON "billing_accounts" USING btree ("tenant_id","livemode");--> statement-breakpoint
CREATE INDEX "billing_accounts_next_action_idx" ON "billing_accounts" USING btree ("next_action_at");--> statement-breakpoint
CREATE INDEX "billing_accounts_customer_idx" ON "billing_accounts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "billing_sessions_scope_idx" ON "billing_sessions" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "billing_stage_changes_scope_idx" ON "billing_stage_changes" USING btree ("tenant_id","livemode","id");