DROP INDEX "connectors_owner_created_idx";--> statement-breakpoint
DROP INDEX "destinations_owner_created_idx";--> statement-breakpoint
DROP INDEX "sources_owner_created_idx";--> statement-breakpoint
DROP INDEX "sync_runs_connector_created_idx";--> statement-breakpoint
DROP INDEX "transform_runs_transform_created_idx";--> statement-breakpoint
DROP INDEX "transforms_owner_created_idx";--> statement-breakpoint
CREATE INDEX "connectors_owner_created_idx" ON "connectors" USING btree ("owner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "destinations_owner_created_idx" ON "destinations" USING btree ("owner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sources_owner_created_idx" ON "sources" USING btree ("owner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sync_runs_connector_created_idx" ON "sync_runs" USING btree ("connector_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transform_runs_transform_created_idx" ON "transform_runs" USING btree ("transform_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transforms_owner_created_idx" ON "transforms" USING btree ("owner_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);