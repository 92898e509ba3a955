CREATE TABLE "notice_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"switches" jsonb NOT NULL,
	"sender_name" text,
	"support_contact" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_notices" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"milestone" text NOT NULL,
	"channel" text NOT NULL,
	"cause" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"skip_reason" text,
	"patient_id" text,
	"subject" text,
	"body" text,
	"via" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sending_at" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notice_settings" ADD CONSTRAINT "notice_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notice_settings_scope_idx" ON "notice_settings" USING btree ("tenant_id","livemode");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_notices_once_idx" ON "patient_notices" USING btree ("tenant_id","subject_kind","subject_id","milestone","channel");--> statement-breakpoint
CREATE INDEX "patient_notices_scope_idx" ON "patient_notices" USING btree ("tenant_id","livemode","id");--> statement-breakpoint
-- Every recorded notice gets its `patient_notice.send` job in the inserting statement, as events get their
-- webhook deliveries (0006): a notice written with ON CONFLICT DO NOTHING that was already there inserts no row,
-- so it queues nothing either. Workers are woken (channel fr_jobs) when the transaction commits. The job kind is
-- NOTICE_JOB of server/domain/notices/notice-jobs.ts (tests/patient-notices.test.ts holds them equal).
CREATE OR REPLACE FUNCTION fr_enqueue_patient_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (id, kind, tenant_id, livemode, payload, run_at, created_at, updated_at)
  VALUES (fr_typeid('job'), 'patient_notice.send', NEW.tenant_id, NEW.livemode, jsonb_build_object('noticeId', NEW.id), NEW.created_at, NEW.created_at, NEW.created_at);
  PERFORM pg_notify('fr_jobs', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER patient_notices_enqueue AFTER INSERT ON patient_notices FOR EACH ROW EXECUTE FUNCTION fr_enqueue_patient_notice();
