import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGcs } from "../fakes/gcs.js";
import { FakeBigQuery } from "../fakes/bigquery.js";
import { FakeSnowflake } from "../fakes/snowflake.js";
import { BigQueryWriter, GcsWriter } from "../../backend/integrations/destinations/cloud-writers.js";
import { SnowflakeWriter } from "../../backend/integrations/destinations/snowflake.js";

/** The cloud writers, through the official SDKs, against the local fakes: idempotent by path and key. */
const gcs = new FakeGcs();
const bigquery = new FakeBigQuery();
const snowflake = new FakeSnowflake();
const account = { client_email: "writer@test.iam.gserviceaccount.com", private_key: "unused with an endpoint override" };

beforeAll(async () => {
  await Promise.all([gcs.start(), bigquery.start(), snowflake.start()]);
  process.env.GCS_API_ENDPOINT = gcs.url;
  process.env.BIGQUERY_API_ENDPOINT = bigquery.url;
  process.env.SNOWFLAKE_HOST_OVERRIDE = snowflake.url;
});
afterAll(async () => {
  await Promise.all([gcs.stop(), bigquery.stop(), snowflake.stop()]);
});

const rows = [
  { id: "m1", topic: "pricing", minutes: 30 },
  { id: "m2", topic: "roadmap", minutes: 45 },
];

describe("GcsWriter", () => {
  it("writes objects by path and rows as one object per key", async () => {
    gcs.createBucket("sync-bucket");
    const writer = new GcsWriter(account, "demo-project", "sync-bucket");
    await writer.writeObjects([{ path: "zoom/2026-11-22/m1.vtt", body: "WEBVTT", contentType: "text/vtt" }]);
    await writer.upsertRows("meetings", rows, ["id"]);
    await writer.upsertRows("meetings", [{ id: "m1", topic: "pricing v2", minutes: 31 }], ["id"]);
    const objects = gcs.objects("sync-bucket");
    expect(objects.map((o) => o.name).filter((n) => n.startsWith("zoom/"))).toEqual(["zoom/2026-11-22/m1.vtt"]);
    const tableObjects = objects.filter((o) => o.name.startsWith("tables/meetings/"));
    expect(tableObjects).toHaveLength(2);
    expect(tableObjects.map((o) => JSON.parse(o.data.toString("utf8")).topic).sort()).toEqual(["pricing v2", "roadmap"]);
    await expect(writer.writeObjects([{ path: "../x", body: "" }])).rejects.toThrow(/Invalid object path/);
  });
});

describe("BigQueryWriter", () => {
  it("creates the table once and streams rows with key-derived insert ids", async () => {
    bigquery.createDataset("demo-project", "sync");
    const writer = new BigQueryWriter(account, "demo-project", "sync");
    await writer.upsertRows("meetings", rows, ["id"]);
    await writer.upsertRows("meetings", rows, ["id"]);
    expect(bigquery.rows("demo-project", "sync", "meetings")).toEqual(rows);
    const created = bigquery.requests.filter((r) => r.method === "POST" && r.path.endsWith("/datasets/sync/tables"));
    expect(created).toHaveLength(1);
    expect(JSON.parse(created[0]!.body.toString()).schema.fields).toEqual([
      { name: "id", type: "STRING" },
      { name: "topic", type: "STRING" },
      { name: "minutes", type: "FLOAT" },
    ]);
  });
});

describe("SnowflakeWriter", () => {
  it("creates the table and MERGEs each row on its key", async () => {
    snowflake.addUser("LOADER", { password: "pw", warehouses: ["WH"], databases: ["RAW"], schemas: ["RAW.MEETINGS"], createTableIn: ["RAW.MEETINGS"] });
    const writer = new SnowflakeWriter({ account: "org-acct", user: "loader", password: "pw", warehouse: "WH", database: "raw", schema: "meetings" }, "snowflake");
    await writer.upsertRows("meetings", rows, ["id"]);
    await writer.upsertRows("meetings", [rows[0]!], ["id"]);
    await writer.close();
    const sql = snowflake.statements.map((s) => s.sqlText);
    expect(sql[0]).toBe("CREATE TABLE IF NOT EXISTS RAW.MEETINGS.MEETINGS (ID VARCHAR, TOPIC VARCHAR, MINUTES FLOAT)");
    expect(sql.filter((s) => s.startsWith("MERGE INTO RAW.MEETINGS.MEETINGS t USING"))).toHaveLength(3);
    expect(snowflake.tables.get("RAW.MEETINGS.MEETINGS")?.size).toBe(2);
  });
});
