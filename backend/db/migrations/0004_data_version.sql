ALTER TABLE "users" ADD COLUMN "data_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The web server's page cache (scripts/page-cache.ts) serves a rendered list page only while its user's
-- data_version is unchanged. Every write to what the four list pages show bumps it, in the writing transaction.
CREATE FUNCTION "bump_owner_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    UPDATE "users" SET "data_version" = "data_version" + 1 WHERE "id" = NEW."owner_id";
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."owner_id" IS DISTINCT FROM NEW."owner_id") THEN
    UPDATE "users" SET "data_version" = "data_version" + 1 WHERE "id" = OLD."owner_id";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- connector_destinations has no owner: its connector's owner (gone already when the connector's own delete
-- cascades here, which bumped the version itself).
CREATE FUNCTION "bump_connector_owner_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    UPDATE "users" SET "data_version" = "data_version" + 1
      WHERE "id" = (SELECT "owner_id" FROM "connectors" WHERE "id" = NEW."connector_id");
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE "users" SET "data_version" = "data_version" + 1
      WHERE "id" = (SELECT "owner_id" FROM "connectors" WHERE "id" = OLD."connector_id");
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sources_data_version" AFTER INSERT OR UPDATE OR DELETE ON "sources" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "destinations_data_version" AFTER INSERT OR UPDATE OR DELETE ON "destinations" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "connectors_data_version" AFTER INSERT OR UPDATE OR DELETE ON "connectors" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "transforms_data_version" AFTER INSERT OR UPDATE OR DELETE ON "transforms" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "sync_runs_data_version" AFTER INSERT OR UPDATE OR DELETE ON "sync_runs" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "transform_runs_data_version" AFTER INSERT OR UPDATE OR DELETE ON "transform_runs" FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();--> statement-breakpoint
CREATE TRIGGER "connector_destinations_data_version" AFTER INSERT OR UPDATE OR DELETE ON "connector_destinations" FOR EACH ROW EXECUTE FUNCTION "bump_connector_owner_data_version"();
