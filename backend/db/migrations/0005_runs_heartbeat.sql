ALTER TABLE "sync_runs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transform_runs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sync_runs_running_heartbeat_idx" ON "sync_runs" USING btree ("heartbeat_at") WHERE "status" = 'running';--> statement-breakpoint
CREATE INDEX "transform_runs_running_heartbeat_idx" ON "transform_runs" USING btree ("heartbeat_at") WHERE "status" = 'running';--> statement-breakpoint
-- A heartbeat changes nothing the list pages show: it must not bump the owner's data_version (migration 0004) every
-- few seconds per running run, which would empty the page cache and lock the users row that often.
DROP TRIGGER "sync_runs_data_version" ON "sync_runs";--> statement-breakpoint
CREATE TRIGGER "sync_runs_data_version" AFTER INSERT OR DELETE ON "sync_runs" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "sync_runs_data_version_update" AFTER UPDATE ON "sync_runs" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'heartbeat_at') IS DISTINCT FROM (to_jsonb(NEW) - 'heartbeat_at')) EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
DROP TRIGGER "transform_runs_data_version" ON "transform_runs";--> statement-breakpoint
CREATE TRIGGER "transform_runs_data_version" AFTER INSERT OR DELETE ON "transform_runs" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "transform_runs_data_version_update" AFTER UPDATE ON "transform_runs" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'heartbeat_at') IS DISTINCT FROM (to_jsonb(NEW) - 'heartbeat_at')) EXECUTE FUNCTION "bump_owner_data_version"();
