CREATE TABLE "experiments" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"flow_id" text NOT NULL,
	"flow_version_id" text,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"split_basis_points" integer NOT NULL,
	"overrides" jsonb NOT NULL,
	"winner_variant" text,
	"created_by" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"folded_in_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "experiments_scope_idx" ON "experiments" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
CREATE INDEX "experiments_flow_idx" ON "experiments" USING btree ("flow_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "experiments_one_running_idx" ON "experiments" USING btree ("flow_id") WHERE status = 'running';