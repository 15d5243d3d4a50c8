ALTER TABLE "connectors" ADD COLUMN "next_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transforms" ADD COLUMN "next_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "connectors_next_due_idx" ON "connectors" USING btree ("next_due_at" NULLS FIRST) WHERE "connectors"."paused" = false;--> statement-breakpoint
CREATE INDEX "transforms_next_due_idx" ON "transforms" USING btree ("next_due_at" NULLS FIRST);--> statement-breakpoint
-- The scheduler looks again at a connector or transform whose slots may have moved: its bookmark is cleared.
CREATE FUNCTION "clear_next_due"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n jsonb := to_jsonb(NEW);
  o jsonb := to_jsonb(OLD);
BEGIN
  -- What decides a key's slots and whether it is scheduled (a column the table lacks reads null on both sides).
  IF (n->'frequency', n->'schedule', n->'paused', n->'created_at', n->'source_id', n->'connector_id')
     IS DISTINCT FROM (o->'frequency', o->'schedule', o->'paused', o->'created_at', o->'source_id', o->'connector_id') THEN
    NEW."next_due_at" := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "connectors_clear_next_due" BEFORE UPDATE ON "connectors" FOR EACH ROW EXECUTE FUNCTION "clear_next_due"();--> statement-breakpoint
CREATE TRIGGER "transforms_clear_next_due" BEFORE UPDATE ON "transforms" FOR EACH ROW EXECUTE FUNCTION "clear_next_due"();--> statement-breakpoint
-- The bookmark is the scheduler's alone: moving it changes nothing a page shows, and tells no one (migration 0010).
DROP TRIGGER "connectors_changed" ON "connectors";--> statement-breakpoint
CREATE TRIGGER "connectors_changed" AFTER INSERT OR DELETE ON "connectors" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "connectors_changed_update" AFTER UPDATE ON "connectors" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'next_due_at') IS DISTINCT FROM (to_jsonb(NEW) - 'next_due_at')) EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
DROP TRIGGER "transforms_changed" ON "transforms";--> statement-breakpoint
CREATE TRIGGER "transforms_changed" AFTER INSERT OR DELETE ON "transforms" FOR EACH ROW EXECUTE FUNCTION "notify_owner_change"();--> statement-breakpoint
CREATE TRIGGER "transforms_changed_update" AFTER UPDATE ON "transforms" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'next_due_at') IS DISTINCT FROM (to_jsonb(NEW) - 'next_due_at')) EXECUTE FUNCTION "notify_owner_change"();
