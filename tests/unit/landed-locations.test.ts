import { describe, expect, it } from "vitest";
import { DESTINATION_PLUGINS, destinationPlugin } from "../../backend/integrations/destinations/index.js";
import type { LandedData, PluginDestination } from "../../backend/integrations/destinations/plugin.js";

/** Each destination plug-in says where a sync's data landed (the run details page), with no branching in the sync engine. */

const destination = (integrationName: string, config: Record<string, unknown>): PluginDestination => ({ id: "d", name: "D", integrationName, config, credentialId: null });

const meetings: LandedData = { folders: ["zoom/src-1/"], tables: ["meetings", "transcript_utterances"] };
const location = (name: string, config: Record<string, unknown>, landed = meetings) => destinationPlugin(name)!.location!(destination(name, config), landed);

describe("where a sync's data landed, per destination", () => {
  it("every plug-in can say", () => {
    for (const plugin of DESTINATION_PLUGINS) expect(plugin.location, plugin.manifest.name).toBeTypeOf("function");
  });

  it("a local folder: its files folder and its warehouse file, under the data directory", () => {
    expect(location("local", { folder: "destinations/u/d" })).toBe(
      "files in destinations/u/d/files/zoom/src-1/; tables meetings and transcript_utterances in destinations/u/d/warehouse.duckdb (under the data directory)",
    );
  });

  it("Cloud Storage: gs:// paths of the files and of the rows", () => {
    expect(location("storage", { project_id: "p", bucket_name: "my-bucket" })).toBe(
      "files in gs://my-bucket/zoom/src-1/; rows in gs://my-bucket/tables/meetings/ and gs://my-bucket/tables/transcript_utterances/",
    );
  });

  it("BigQuery: project.dataset and its tables (files as the objects table)", () => {
    expect(location("bigquery", { project_id: "proj", dataset_name: "raw" })).toBe("BigQuery proj.raw: tables objects, meetings and transcript_utterances");
    expect(location("bigquery", { project_id: "proj", dataset_name: "raw" }, { folders: [], tables: ["email_messages"] })).toBe("BigQuery proj.raw: tables email_messages");
  });

  it("Snowflake: DB.SCHEMA tables, and the stage's files", () => {
    expect(location("snowflake", { database: "DB", schema: "RAW" })).toBe("Snowflake DB.RAW: tables OBJECTS, MEETINGS and TRANSCRIPT_UTTERANCES");
    expect(location("snowflake_stage", { database: "DB", schema: "RAW", stage_name: "LANDING" })).toBe(
      "files in @DB.RAW.LANDING/zoom/src-1/; Snowflake DB.RAW: tables MEETINGS and TRANSCRIPT_UTTERANCES",
    );
  });

  it("PostgreSQL: host, database and schema, and its tables", () => {
    expect(location("postgres", { host: "db.example.com", port: 5432, database: "app", schema: "raw", user: "u" })).toBe(
      "PostgreSQL db.example.com:5432/app, schema raw: tables tributary_objects, meetings and transcript_utterances",
    );
  });
});
