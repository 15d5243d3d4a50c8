CREATE TABLE "run_log_lines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "run_log_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sync_run_id" uuid,
	"transform_run_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "run_log_lines_one_run" CHECK (num_nonnulls("sync_run_id", "transform_run_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "schedule" jsonb;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "range_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "range_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "landed" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "transform_runs" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transform_runs" ADD COLUMN "attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "transforms" ADD COLUMN "schedule" jsonb;--> statement-breakpoint
ALTER TABLE "run_log_lines" ADD CONSTRAINT "run_log_lines_sync_run_id_sync_runs_id_fk" FOREIGN KEY ("sync_run_id") REFERENCES "public"."sync_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_log_lines" ADD CONSTRAINT "run_log_lines_transform_run_id_transform_runs_id_fk" FOREIGN KEY ("transform_run_id") REFERENCES "public"."transform_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_log_lines_sync_run_idx" ON "run_log_lines" USING btree ("sync_run_id","id") WHERE "sync_run_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "run_log_lines_transform_run_idx" ON "run_log_lines" USING btree ("transform_run_id","id") WHERE "transform_run_id" IS NOT NULL;