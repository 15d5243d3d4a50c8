-- What the list and run pages show changed: tell the owner's open pages through NOTIFY (delivered when the writing
-- transaction commits, to every process listening: backend/db/changes.ts) instead of a per-user counter updated in
-- that transaction. No write locks a row it does not own: two runs of one user no longer queue on their users row.
CREATE FUNCTION "notify_owner_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('tributary_owner_changes', NEW."owner_id"::text);
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."owner_id" IS DISTINCT FROM NEW."owner_id") THEN
    PERFORM pg_notify('tributary_owner_changes', OLD."owner_id"::text);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- connector_destinations has no owner: its connector's (gone already when the connector's own delete cascades here,
-- which told its owner itself).
CREATE FUNCTION "notify_connector_owner_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE owner uuid;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT "owner_id" INTO owner FROM "connectors" WHERE "id" = NEW."connector_id";
    IF owner IS NOT NULL THEN PERFORM pg_notify('tributary_owner_changes', owner::text); END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT "owner_id" INTO owner FROM "connectors" WHERE "id" = OLD."connector_id";
    IF owner IS NOT NULL THEN PERFORM pg_notify('tributary_owner_changes', owner::text); END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER "sources_data_version" ON "sources";--> statement-breakpoint
DROP TRIGGER "destinations_data_version" ON "destinations";--> statement-breakpoint
DROP TRIGGER "connectors_data_version" ON "connectors";--> statement-breakpoint
DROP TRIGGER "transforms_data_version" ON "transforms";--> statement-breakpoint
DROP TRIGGER "sync_runs_data_version" ON "sync_runs";--> statement-breakpoint
DROP TRIGGER "sync_runs_data_version_update" ON "sync_runs";--> statement-breakpoint
DROP TRIGGER "transform_runs_data_version" ON "transform_runs";--> statement-breakpoint
DROP TRIGGER "transform_runs_data_version_update" ON "transform_runs";--> statement-breakpoint
DROP TRIGGER "connector_destinations_data_version" ON "connector_destinations";--> statement-breakpoint
DROP FUNCTION "bump_owner_data_version"();--> statement-breakpoint
DROP FUNCTION "bump_connector_owner_data_version"();--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "data_version";--> statement-breakpoint
CREATE TRIGGER "sources_changed" AFTER INSERT OR UPDATE OR DELETE ON "sources" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "destinations_changed" AFTER INSERT OR UPDATE OR DELETE ON "destinations" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "connectors_changed" AFTER INSERT OR UPDATE OR DELETE ON "connectors" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "transforms_changed" AFTER INSERT OR UPDATE OR DELETE ON "transforms" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "connector_destinations_changed" AFTER INSERT OR UPDATE OR DELETE ON "connector_destinations" FOR EACH ROW EXECUTE FUNCTION "notify_connector_owner_change"();--> statement-breakpoint
-- A heartbeat changes nothing a page shows: it tells no one.
CREATE TRIGGER "sync_runs_changed" AFTER INSERT OR DELETE ON "sync_runs" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "sync_runs_changed_update" AFTER UPDATE ON "sync_runs" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'heartbeat_at') IS DISTINCT FROM (to_jsonb(NEW) - 'heartbeat_at')) EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "transform_runs_changed" AFTER INSERT OR DELETE ON "transform_runs" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "transform_runs_changed_update" AFTER UPDATE ON "transform_runs" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'heartbeat_at') IS DISTINCT FROM (to_jsonb(NEW) - 'heartbeat_at')) EXECUTE FUNCTION "notify_owner_change"();
