CREATE TABLE "known_sign_in_sources" (
	"user_id" text NOT NULL,
	"source_hash" text NOT NULL,
	"last_sign_in_at" timestamp with time zone NOT NULL,
	CONSTRAINT "known_sign_in_sources_user_id_source_hash_pk" PRIMARY KEY("user_id","source_hash")
);
--> statement-breakpoint
ALTER TABLE "known_sign_in_sources" ADD CONSTRAINT "known_sign_in_sources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;