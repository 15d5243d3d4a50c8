import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGcs } from "../fakes/gcs.js";
import { FakeBigQuery } from "../fakes/bigquery.js";
import { FakeSnowflake } from "../fakes/snowflake.js";
import { GcsWriter } from "../../backend/integrations/destinations/gcs/writer.js";
import { BigQueryWriter, LOAD_CHUNK_BYTES, mergeStatement, STAGING_PREFIX, STAGING_TTL_HOURS } from "../../backend/integrations/destinations/bigquery/writer.js";
import { columnsOf, isoTime, scalar } from "../../backend/integrations/destinations/writer.js";
import { MERGE_MAX_BINDS, MERGE_MAX_BYTES, MERGE_MAX_ROWS, mergeChunks, SnowflakeWriter } from "../../backend/integrations/destinations/snowflake/writer.js";

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
  it("creates the table once; a batch written twice leaves one row per key", async () => {
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

  it("adds the columns a later batch brings to the table's schema (tables.patch, NULLABLE) before loading", async () => {
    bigquery.createDataset("demo-project", "evolve");
    const writer = new BigQueryWriter(account, "demo-project", "evolve");
    await writer.upsertRows("meetings", rows, ["id"]);
    const later = [{ id: "m3", topic: "hiring", minutes: 20, host: "ana", recorded: true }];
    await writer.upsertRows("meetings", later, ["id"]);
    const patches = bigquery.requests.filter((r) => r.method === "PATCH" && r.path.endsWith("/datasets/evolve/tables/meetings"));
    expect(patches).toHaveLength(1);
    expect(bigquery.schema("demo-project", "evolve", "meetings")).toEqual([
      { name: "id", type: "STRING" },
      { name: "topic", type: "STRING" },
      { name: "minutes", type: "FLOAT" },
      { name: "host", type: "STRING", mode: "NULLABLE" },
      { name: "recorded", type: "BOOLEAN", mode: "NULLABLE" },
    ]);
    expect(bigquery.rows("demo-project", "evolve", "meetings")).toEqual([...rows, ...later]);
    // Known columns: no further schema calls.
    await writer.upsertRows("meetings", [{ id: "m4", host: "bo" }], ["id"]);
    expect(bigquery.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect(bigquery.rows("demo-project", "evolve", "meetings")).toHaveLength(4);
  });

  it("keeps fields another writer added meanwhile when it patches the schema", async () => {
    bigquery.createDataset("demo-project", "shared");
    const first = new BigQueryWriter(account, "demo-project", "shared");
    const second = new BigQueryWriter(account, "demo-project", "shared");
    await first.upsertRows("notes", [{ id: "n1", body: "a" }], ["id"]);
    await second.upsertRows("notes", [{ id: "n2", body: "b", author: "ana" }], ["id"]);
    await first.upsertRows("notes", [{ id: "n3", body: "c", words: 1 }], ["id"]);
    expect(bigquery.schema("demo-project", "shared", "notes")?.map((f) => f.name)).toEqual(["id", "body", "author", "words"]);
    expect(bigquery.rows("demo-project", "shared", "notes").map((r) => r.id)).toEqual(["n1", "n2", "n3"]);
  });

  it("uses a column just added, by itself or by another writer, at once (no streaming lag), and fails at once on a refused row", async () => {
    bigquery.createDataset("demo-project", "lag");
    bigquery.schemaLagMs = 60_000;
    try {
      const writer = new BigQueryWriter(account, "demo-project", "lag", [100, 100, 100, 100, 100]);
      await writer.upsertRows("notes", [{ id: "n1", body: "a" }], ["id"]);
      await writer.upsertRows("notes", [{ id: "n2", body: "b", words: 2 }], ["id"]);
      expect(bigquery.rows("demo-project", "lag", "notes")).toEqual([
        { id: "n1", body: "a" },
        { id: "n2", body: "b", words: 2 },
      ]);
      const uploads = () => bigquery.requests.filter((r) => r.path === "/upload/bigquery/v2/projects/demo-project/jobs").length;
      const before = uploads();
      await expect(writer.upsertRows("notes", [{ id: "n3", body: "c", words: "many" }], ["id"])).rejects.toThrow("BigQuery refused the rows: Cannot convert value to float. (1 of 1 invalid; none were written)");
      expect(uploads() - before).toBe(1);
      // A field another writer added is known to the next load and MERGE.
      const other = new BigQueryWriter(account, "demo-project", "lag", [100, 100]);
      await other.upsertRows("notes", [{ id: "n4", body: "d", lang: "en" }], ["id"]);
      await writer.upsertRows("notes", [{ id: "n5", body: "e", lang: "fr" }], ["id"]);
      expect(bigquery.rows("demo-project", "lag", "notes").map((r) => [r.id, r.lang])).toEqual([
        ["n1", undefined],
        ["n2", undefined],
        ["n4", "en"],
        ["n5", "fr"],
      ]);
      expect(bigquery.requests.filter((r) => r.path.endsWith("/insertAll"))).toHaveLength(0);
    } finally {
      bigquery.schemaLagMs = 0;
    }
  });

  it("reports a refused row with BigQuery's reason, and writes none of its batch", async () => {
    bigquery.createDataset("demo-project", "refused");
    const writer = new BigQueryWriter(account, "demo-project", "refused");
    await writer.upsertRows("notes", [{ id: "n1", body: "first", words: 1 }], ["id"]);
    await expect(writer.upsertRows("notes", [{ id: "n2", body: "second", words: "many" }], ["id"])).rejects.toThrow("BigQuery refused the rows: Cannot convert value to float. (1 of 1 invalid; none were written)");
    await expect(
      writer.upsertRows("notes", [{ id: "n3", body: "x", words: 2 }, { id: "n4", body: { nested: true }, words: 3 }, { id: "n5", body: "y", words: "lots" }], ["id"]),
    ).rejects.toThrow("BigQuery refused the rows: Cannot convert value to float. (1 of 3 invalid; none were written)");
    expect(bigquery.rows("demo-project", "refused", "notes")).toEqual([{ id: "n1", body: "first", words: 1 }]);
  });

  it("the fake refuses a patch that drops or retypes a field, or adds a REQUIRED one", async () => {
    bigquery.createDataset("demo-project", "strict");
    const writer = new BigQueryWriter(account, "demo-project", "strict");
    await writer.upsertRows("notes", [{ id: "n1", body: "a" }], ["id"]);
    const patch = (fields: unknown[]) =>
      fetch(`${bigquery.url}/bigquery/v2/projects/demo-project/datasets/strict/tables/notes`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ schema: { fields } }) });
    expect((await (await patch([{ name: "id", type: "STRING" }])).json()).error.message).toBe("Provided Schema does not match Table demo-project:strict.notes. Field body is missing in new schema");
    expect((await (await patch([{ name: "id", type: "STRING" }, { name: "body", type: "FLOAT" }])).json()).error.message).toMatch(/Field body has changed type from STRING to FLOAT/);
    expect((await (await patch([{ name: "id", type: "STRING" }, { name: "body", type: "STRING" }, { name: "x", type: "STRING", mode: "REQUIRED" }])).json()).error.message).toMatch(/Cannot add required fields/);
    expect(bigquery.schema("demo-project", "strict", "notes")?.map((f) => f.name)).toEqual(["id", "body"]);
  });
});

describe("BigQueryWriter: a staging table per batch, then MERGE", () => {
  it("loads the batch as NDJSON into an expiring staging table typed as the target, MERGEs it on the key, and drops it", async () => {
    bigquery.createDataset("demo-project", "staged");
    const writer = new BigQueryWriter(account, "demo-project", "staged");
    const [jobs, queries, requests] = [bigquery.jobs.length, bigquery.queries.length, bigquery.requests.length];
    await writer.upsertRows("meetings", [{ id: "m1", topic: "pricing", at: new Date(Date.UTC(2026, 10, 22)), meta: { n: 1 } }], ["id"]);
    const [load] = bigquery.jobs.slice(jobs) as { load: Record<string, any> }[];
    const staging = load!.load.destinationTable.tableId as string;
    expect(staging).toMatch(new RegExp(`^${STAGING_PREFIX}meetings_[0-9a-f]{16}$`));
    expect(load!.load).toMatchObject({
      sourceFormat: "NEWLINE_DELIMITED_JSON",
      createDisposition: "CREATE_NEVER",
      writeDisposition: "WRITE_APPEND",
      maxBadRecords: 1,
      schema: { fields: [{ name: "id", type: "STRING", mode: "NULLABLE" }, { name: "topic", type: "STRING", mode: "NULLABLE" }, { name: "at", type: "TIMESTAMP", mode: "NULLABLE" }, { name: "meta", type: "JSON", mode: "NULLABLE" }] },
    });
    const upload = bigquery.requests.slice(requests).find((r) => r.path.startsWith("/upload/"))!;
    expect(upload.body.toString("utf8")).toContain('{"id":"m1","topic":"pricing","at":"2026-11-22T00:00:00.000Z","meta":{"n":1}}\n');
    expect(bigquery.queries.slice(queries)).toEqual([
      `CREATE TABLE IF NOT EXISTS \`demo-project.staged.${staging}\` (\`id\` STRING, \`topic\` STRING, \`at\` TIMESTAMP, \`meta\` JSON) ` +
        `OPTIONS (expiration_timestamp = TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL ${STAGING_TTL_HOURS} HOUR))`,
      `MERGE \`demo-project.staged.meetings\` AS t USING \`demo-project.staged.${staging}\` AS s ON t.\`id\` = s.\`id\` ` +
        "WHEN MATCHED THEN UPDATE SET `topic` = s.`topic`, `at` = s.`at`, `meta` = s.`meta` " +
        "WHEN NOT MATCHED THEN INSERT (`id`, `topic`, `at`, `meta`) VALUES (s.`id`, s.`topic`, s.`at`, s.`meta`)",
    ]);
    expect(bigquery.tables("demo-project", "staged").map((t) => t.name)).toEqual(["meetings"]);
  });

  it("pins the MERGE of a composite key, and of a table of key columns only (no WHEN MATCHED)", () => {
    expect(mergeStatement("p.d.t", "p.d.s", ["a", "b", "c"], ["a", "b"])).toBe(
      "MERGE `p.d.t` AS t USING `p.d.s` AS s ON t.`a` = s.`a` AND t.`b` = s.`b` WHEN MATCHED THEN UPDATE SET `c` = s.`c` WHEN NOT MATCHED THEN INSERT (`a`, `b`, `c`) VALUES (s.`a`, s.`b`, s.`c`)",
    );
    expect(mergeStatement("p.d.t", "p.d.s", ["a"], ["a"])).toBe("MERGE `p.d.t` AS t USING `p.d.s` AS s ON t.`a` = s.`a` WHEN NOT MATCHED THEN INSERT (`a`) VALUES (s.`a`)");
  });

  it("replaces a changed row whole, keeps the later row of a key given twice, and refuses a row without its key", async () => {
    bigquery.createDataset("demo-project", "replace");
    const writer = new BigQueryWriter(account, "demo-project", "replace");
    await writer.upsertRows("notes", [{ id: "a", body: "x", words: 5 }, { id: "b", body: "y", words: 6 }], ["id"]);
    await writer.upsertRows("notes", [{ id: "a", body: "x2" }, { id: "c", body: "z" }, { id: "a", body: "x3" }], ["id"]);
    expect(bigquery.rows("demo-project", "replace", "notes")).toEqual([{ id: "a", body: "x3" }, { id: "b", body: "y", words: 6 }, { id: "c", body: "z" }]);
    await expect(writer.upsertRows("notes", [{ id: null, body: "w" }], ["id"])).rejects.toThrow("Row without key column id");
  });

  it("loads a large batch into one staging table in several uploads, then MERGEs it once", async () => {
    bigquery.createDataset("demo-project", "large");
    const [jobs, queries] = [bigquery.jobs.length, bigquery.queries.length];
    const many = Array.from({ length: Math.ceil((2.5 * LOAD_CHUNK_BYTES) / 1_000) }, (_, i) => ({ id: `r${i}`, body: "x".repeat(990) }));
    await new BigQueryWriter(account, "demo-project", "large").upsertRows("notes", many, ["id"]);
    const loads = bigquery.jobs.slice(jobs) as { load: { writeDisposition: string; destinationTable: { tableId: string } } }[];
    expect(loads.map((j) => j.load.writeDisposition)).toEqual(["WRITE_APPEND", "WRITE_APPEND", "WRITE_APPEND"]);
    expect(new Set(loads.map((j) => j.load.destinationTable.tableId)).size).toBe(1);
    expect(bigquery.queries.slice(queries).filter((q) => q.startsWith("MERGE"))).toHaveLength(1);
    expect(bigquery.rows("demo-project", "large", "notes")).toHaveLength(many.length);
  });

  it("tries a load again when BigQuery aborts it for a passing reason", async () => {
    bigquery.createDataset("demo-project", "transient");
    bigquery.failingLoads = 1;
    const uploads = () => bigquery.requests.filter((r) => r.path.startsWith("/upload/")).length;
    const before = uploads();
    await new BigQueryWriter(account, "demo-project", "transient", [10, 10]).upsertRows("notes", [{ id: "a", n: 1 }], ["id"]);
    expect(uploads() - before).toBe(2);
    expect(bigquery.rows("demo-project", "transient", "notes")).toEqual([{ id: "a", n: 1 }]);
  });

  it("leaves an expiring staging table when it cannot drop it, and a refused load leaves nothing in the target", async () => {
    bigquery.createDataset("demo-project", "leftover").deny("demo-project.leftover", "bigquery.tables.delete");
    const writer = new BigQueryWriter(account, "demo-project", "leftover");
    await writer.upsertRows("notes", [{ id: "a", n: 1 }], ["id"]);
    const tables = bigquery.tables("demo-project", "leftover");
    expect(tables.find((t) => t.name === "notes")?.expirationTime).toBeUndefined();
    expect(tables.filter((t) => t.name !== "notes").map((t) => (t.expirationTime ?? 0) - Date.now())).toEqual([expect.any(Number)]);
    expect((tables.find((t) => t.name !== "notes")!.expirationTime ?? 0) - Date.now()).toBeGreaterThan(STAGING_TTL_HOURS * 3_600_000 - 60_000);
    await expect(writer.upsertRows("notes", [{ id: "b", n: "many" }], ["id"])).rejects.toThrow(/^BigQuery refused the rows: Cannot convert value to float\. \(1 of 1 invalid; none were written\)$/);
    expect(bigquery.rows("demo-project", "leftover", "notes")).toEqual([{ id: "a", n: 1 }]);
  });
});

describe("SnowflakeWriter", () => {
  const loader = () => new SnowflakeWriter({ account: "org-acct", user: "loader", password: "pw", warehouse: "WH", database: "raw", schema: "meetings" }, "snowflake");
  const merges = (table: string) => snowflake.statements.filter((s) => s.sqlText.startsWith(`MERGE INTO RAW.MEETINGS.${table} t USING`));
  beforeAll(() => {
    snowflake.addUser("LOADER", { password: "pw", warehouses: ["WH"], databases: ["RAW"], schemas: ["RAW.MEETINGS"], createTableIn: ["RAW.MEETINGS"] });
  });

  it("creates the table and MERGEs each batch in one statement on its key", async () => {
    const writer = loader();
    await writer.upsertRows("meetings", rows, ["id"]);
    await writer.upsertRows("meetings", [rows[0]!], ["id"]);
    await writer.close();
    const sql = snowflake.statements.map((s) => s.sqlText);
    expect(sql[0]).toBe("CREATE TABLE IF NOT EXISTS RAW.MEETINGS.MEETINGS (ID VARCHAR, TOPIC VARCHAR, MINUTES FLOAT)");
    expect(sql[1]).toBe("SELECT COLUMN_NAME, DATA_TYPE FROM RAW.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION");
    expect(merges("MEETINGS")).toHaveLength(2);
    expect(merges("MEETINGS")[0]!.sqlText).toBe(
      "MERGE INTO RAW.MEETINGS.MEETINGS t USING (SELECT column1::VARCHAR AS ID, column2::VARCHAR AS TOPIC, column3::FLOAT AS MINUTES FROM VALUES (?, ?, ?), (?, ?, ?)) s ON t.ID = s.ID " +
        "WHEN MATCHED THEN UPDATE SET t.TOPIC = s.TOPIC, t.MINUTES = s.MINUTES WHEN NOT MATCHED THEN INSERT (ID, TOPIC, MINUTES) VALUES (s.ID, s.TOPIC, s.MINUTES)",
    );
    expect(snowflake.rowsOf("RAW.MEETINGS.MEETINGS")).toEqual([
      { ID: "m1", TOPIC: "pricing", MINUTES: 30 },
      { ID: "m2", TOPIC: "roadmap", MINUTES: 45 },
    ]);
  });

  it("writes many rows in few statements, chunked within Snowflake's limits", async () => {
    const writer = loader();
    const many = Array.from({ length: 20_000 }, (_, i) => ({ id: `u${i}`, meeting_id: `m${i % 7}`, at: new Date(Date.UTC(2026, 10, 22, 0, 0, i % 60)), words: { n: i } }));
    const before = snowflake.statements.length;
    await writer.upsertRows("utterances", many, ["id"]);
    await writer.close();
    const sent = snowflake.statements.slice(before).map((s) => s.sqlText);
    expect(sent.filter((s) => s.startsWith("MERGE"))).toHaveLength(2);
    expect(sent).toHaveLength(4); // CREATE, the columns, 2 MERGEs
    const stored = snowflake.rowsOf("RAW.MEETINGS.UTTERANCES");
    expect(stored).toHaveLength(20_000);
    expect(stored[19_999]).toEqual({ ID: "u19999", MEETING_ID: `m${19_999 % 7}`, AT: new Date(Date.UTC(2026, 10, 22, 0, 0, 19_999 % 60)), WORDS: JSON.stringify({ n: 19_999 }) });
  });

  it("chunks by rows, bound values and bytes", () => {
    const narrow = Array.from({ length: MERGE_MAX_ROWS + 1 }, (_, i) => ({ id: i }));
    expect(mergeChunks(narrow, ["id"]).map((c) => c.rows.length)).toEqual([MERGE_MAX_ROWS, 1]);
    const columns = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const wide = Array.from({ length: 6_000 }, () => Object.fromEntries(columns.map((c) => [c, 1])));
    const byBinds = mergeChunks(wide, columns);
    expect(byBinds.map((c) => c.rows.length)).toEqual([MERGE_MAX_BINDS / 10, 6_000 - MERGE_MAX_BINDS / 10]);
    expect(byBinds[0]!.binds).toHaveLength(MERGE_MAX_BINDS);
    const big = "x".repeat(400_000);
    const heavy = [{ id: 1, body: big }, { id: 2, body: big }, { id: 3, body: big }, { id: 4, body: "x".repeat(MERGE_MAX_BYTES * 2) }, { id: 5, body: "small" }];
    expect(mergeChunks(heavy, ["id", "body"]).map((c) => c.rows.map((r) => r.id))).toEqual([[1, 2], [3], [4], [5]]);
    expect(mergeChunks([{ id: 1, at: new Date(0), ok: true, data: { a: 1 }, none: null }], ["id", "at", "ok", "data", "none"])[0]!.binds).toEqual(["1", "1970-01-01T00:00:00.000Z", "true", '{"a":1}', null]);
  });

  it("keeps the later row of a key given twice in one batch", async () => {
    const writer = loader();
    await writer.upsertRows("dupes", [{ id: "a", n: 1 }, { id: "b", n: 2 }, { id: "a", n: 3 }], ["id"]);
    await writer.close();
    expect(merges("DUPES")).toHaveLength(1);
    expect(Object.keys(merges("DUPES")[0]!.bindings as object)).toHaveLength(4);
    expect(snowflake.rowsOf("RAW.MEETINGS.DUPES")).toEqual([
      { ID: "a", N: 3 },
      { ID: "b", N: 2 },
    ]);
  });

  it("a table of key columns only gets no WHEN MATCHED clause", async () => {
    const writer = loader();
    await writer.upsertRows("pairs", [{ a: "x", b: 1 }, { a: "x", b: 2 }], ["a", "b"]);
    await writer.upsertRows("pairs", [{ a: "x", b: 1 }], ["a", "b"]);
    await writer.close();
    expect(merges("PAIRS").map((m) => m.sqlText.includes("WHEN MATCHED"))).toEqual([false, false]);
    expect(snowflake.rowsOf("RAW.MEETINGS.PAIRS")).toEqual([
      { A: "x", B: 1 },
      { A: "x", B: 2 },
    ]);
  });

  it("a re-write replaces the row: columns the new row lacks become NULL", async () => {
    const writer = loader();
    await writer.upsertRows("replaced", [{ id: "a", topic: "x", minutes: 5 }, { id: "b", topic: "y", minutes: 6 }], ["id"]);
    await writer.upsertRows("replaced", [{ id: "a", topic: "x2" }], ["id"]);
    await writer.close();
    expect(merges("REPLACED")[1]!.sqlText).toContain("WHEN MATCHED THEN UPDATE SET t.TOPIC = s.TOPIC, t.MINUTES = NULL ");
    expect(snowflake.rowsOf("RAW.MEETINGS.REPLACED")).toEqual([
      { ID: "a", TOPIC: "x2", MINUTES: null },
      { ID: "b", TOPIC: "y", MINUTES: 6 },
    ]);
  });

  it("adds the columns a later batch brings, and casts values to the table's own types", async () => {
    const first = loader();
    await first.upsertRows("evolving", [{ id: "a", minutes: 5 }], ["id"]);
    await first.upsertRows("evolving", [{ id: "b", minutes: 6, host: "ana", extra: { k: 1 } }], ["id"]);
    await first.close();
    const alters = snowflake.statements.filter((s) => s.sqlText.startsWith("ALTER TABLE RAW.MEETINGS.EVOLVING")).map((s) => s.sqlText);
    expect(alters).toEqual(["ALTER TABLE RAW.MEETINGS.EVOLVING ADD COLUMN IF NOT EXISTS HOST VARCHAR", "ALTER TABLE RAW.MEETINGS.EVOLVING ADD COLUMN IF NOT EXISTS EXTRA VARIANT"]);
    // Another writer (a later sync) reads the table's columns: MINUTES is FLOAT even when a batch sends it as text.
    const second = loader();
    await second.upsertRows("evolving", [{ id: "c", minutes: "7.5", flag: true }], ["id"]);
    await second.close();
    expect(snowflake.columns.get("RAW.MEETINGS.EVOLVING")).toEqual([
      { name: "ID", type: "VARCHAR" },
      { name: "MINUTES", type: "FLOAT" },
      { name: "HOST", type: "VARCHAR" },
      { name: "EXTRA", type: "VARIANT" },
      { name: "FLAG", type: "BOOLEAN" },
    ]);
    expect(snowflake.rowsOf("RAW.MEETINGS.EVOLVING")).toEqual([
      { ID: "a", MINUTES: 5, HOST: null, EXTRA: null, FLAG: null },
      { ID: "b", MINUTES: 6, HOST: "ana", EXTRA: '{"k":1}', FLAG: null },
      { ID: "c", MINUTES: 7.5, HOST: null, EXTRA: null, FLAG: true },
    ]);
  });

  it("refuses rows without their key, and names that are one column in Snowflake", async () => {
    const writer = loader();
    await expect(writer.upsertRows("bad", [{ id: null, n: 1 }], ["id"])).rejects.toThrow("Row without key column id");
    await expect(writer.upsertRows("bad", [{ id: "a", n: 1, N: 2 }], ["id"])).rejects.toThrow('Columns "n" and "N" are the same column in Snowflake');
    await writer.close();
  });
});

describe("columnsOf", () => {
  it("takes a column's kind from its first non-null value, keeps a string when one follows a null, and makes an always-null column a string", () => {
    const when = new Date("2026-11-20T00:00:00Z");
    const kinds = columnsOf([
      { id: "a", n: null, s: null, t: when, always: null, mixed: 1 },
      { id: "b", n: 2, s: 3, t: null, always: null, mixed: "x", late: true },
      { id: "c", n: 3, s: "text", t: when, always: null, mixed: 2, late: false, meta: { k: 1 } },
    ]);
    expect(Object.fromEntries(kinds)).toEqual({ id: "string", n: "number", s: "string", t: "timestamp", always: "string", mixed: "number", late: "boolean", meta: "json" });
    expect([...kinds.keys()]).toEqual(["id", "n", "s", "t", "always", "mixed", "late", "meta"]);
  });

  it("looks at every row however many of one shape come before it: a new column, a column decided late, names in another order", () => {
    const same = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, n: i }));
    const kinds = columnsOf([...same, { id: "x", n: 1, extra: true }, ...same, { n: 2, id: "y", later: null }, ...same, { id: "z", n: 3, later: new Date(0) }, ...same]);
    expect(Object.fromEntries(kinds)).toEqual({ id: "string", n: "number", extra: "boolean", later: "timestamp" });
    expect([...kinds.keys()]).toEqual(["id", "n", "extra", "later"]);
    // A column null so far is looked at in every row, even in rows of the shape before.
    const nulls = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, maybe: null as number | string | null }));
    expect(columnsOf([...nulls, { id: "a", maybe: 1 }, ...nulls]).get("maybe")).toBe("number");
    expect(columnsOf([...nulls, { id: "a", maybe: 1 }, { id: "b", maybe: "s" }]).get("maybe")).toBe("string");
    expect(() => columnsOf([...same, { id: "q", "bad name": 1 }])).toThrow(/Invalid column name "bad name"/);
  });

  it("refuses a column name a destination could not take, wherever it first appears", () => {
    expect(() => columnsOf([{ id: "a" }, { id: "b", "bad name": 1 }])).toThrow(/Invalid column name "bad name"/);
  });
});

describe("isoTime", () => {
  it("writes what toISOString writes: across seconds, minutes, days and years, far out, and in any order", () => {
    const times = [0, 999, 1000, 59_999, 60_000, 86_399_999, 1_763_596_799_999, 1_763_596_800_000, 253_402_300_799_999, 253_402_300_800_000, -1, -62_198_755_200_000];
    let t = Date.UTC(2026, 10, 19, 23, 58, 0, 0);
    for (let i = 0; i < 5_000; i++) times.push((t += (i * 7919) % 9_001));
    for (let i = 0; i < 2_000; i++) times.push(Math.floor(((i * 2654435761) % 4_000_000_000) * 60_000.123) - 1e13);
    for (const ms of times) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
    expect(scalar(new Date(Date.UTC(2026, 10, 20, 0, 1, 1, 5)))).toBe("2026-11-20T00:01:01.005Z");
    expect(() => isoTime(new Date(NaN))).toThrow(RangeError);
  });
});
