ALTER TABLE "flow_stats_daily" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "flow_stats_daily" DROP CONSTRAINT "flow_stats_daily_flow_id_day_flow_version_id_step_id_experiment_id_arm_pk";--> statement-breakpoint
ALTER TABLE "flow_stats_daily" ADD CONSTRAINT "flow_stats_daily_flow_id_day_flow_version_id_step_id_experiment_id_arm_shard_pk" PRIMARY KEY("flow_id","day","flow_version_id","step_id","experiment_id","arm","shard");
