ALTER TABLE "patients" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "intake_answers" ADD COLUMN "facts" jsonb;--> statement-breakpoint
ALTER TABLE "intake_submissions" ADD COLUMN "identity_status" text;--> statement-breakpoint
ALTER TABLE "intake_submissions" ADD COLUMN "identity_fields" jsonb;--> statement-breakpoint
ALTER TABLE "intake_submissions" ADD COLUMN "identity_matched_patient_id" text;--> statement-breakpoint
ALTER TABLE "intake_submissions" ADD COLUMN "identity_resolution" text;--> statement-breakpoint
ALTER TABLE "intake_submissions" ADD COLUMN "identity_resolved_by" text;--> statement-breakpoint
ALTER TABLE "intake_submissions" ADD COLUMN "identity_resolved_at" timestamp with time zone;