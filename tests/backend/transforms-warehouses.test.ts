import { generateKeyPairSync, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultTableName } from "../../backend/transforms/runner.js";
import { BigQueryWriter } from "../../backend/integrations/destinations/bigquery/writer.js";
import { platformServiceAccount } from "../../backend/integrations/destinations/kit/google.js";
import type { TransformRun } from "../../contract/transforms.js";
import type { SyncRun } from "../../contract/connectors.js";
import { api, createUserSession, startTestBackend, waitForRun, type TestBackend } from "../support/backend.js";
import { FakeBigQuery } from "../fakes/bigquery.js";
import { FakeSnowflake } from "../fakes/snowflake.js";

/**
 * Transforms on cloud warehouses over real HTTP with a real worker (role all):
 * a datagen source synced by the real BigQuery / Snowflake writers (the
 * official SDKs) into the local fakes, transforms reading those tables back,
 * writing their result tables there, and GET /transforms/{id}/results reading
 * them again.
 */
let t: TestBackend;
let cookie: string;
const bigquery = new FakeBigQuery();
const snowflake = new FakeSnowflake();
const PROJECT = "demo-project";
const PASSWORD = `pa'ss"word`;
const SA_KEY = JSON.stringify({
  type: "service_account",
  project_id: "tributary-test",
  client_email: "tributary-platform@tributary-test.iam.gserviceaccount.com",
  private_key: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }),
});

beforeAll(async () => {
  await Promise.all([bigquery.start(), snowflake.start()]);
  process.env.BIGQUERY_API_ENDPOINT = bigquery.url;
  process.env.SNOWFLAKE_HOST_OVERRIDE = snowflake.url;
  process.env.GOOGLE_SERVICE_ACCOUNT_KEY = SA_KEY;
  delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE;
  t = await startTestBackend({ role: "all" });
  cookie = (await createUserSession(t, "wh@example.com", "W")).cookie;
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await Promise.all([bigquery.stop(), snowflake.stop()]);
  delete process.env.BIGQUERY_API_ENDPOINT;
  delete process.env.SNOWFLAKE_HOST_OVERRIDE;
  delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY;
});

const call = (method: string, route: string, body?: unknown) => api(t, cookie, method, route, body);

async function bigQueryDestination(dataset: string) {
  const sa = await call("POST", "/externalauth/bigquery/service_account", { integration_name: "bigquery" });
  const fields = { integration_name: "bigquery", credential_id: sa.body.credential_id, project_id: PROJECT, dataset_name: dataset };
  const tested = await call("POST", "/externalauth/bigquery/test_connection", fields);
  expect(tested.body.status).toBe("success");
  const created = await call("POST", "/destinations/create", { name: `BigQuery ${randomBytes(3).toString("hex")}`, ...fields, validation_token: tested.body.validation_token });
  expect(created.status).toBe(201);
  return created.body.destination.id as string;
}

async function snowflakeDestination() {
  const fields = { category: "WAREHOUSE", account: "org-acct", user: "loader", password: PASSWORD, warehouse: "load_wh", database: "raw", schema: "meetings" };
  const tested = await call("POST", "/externalauth/snowflake/test_connection", fields);
  expect(tested.body.status).toBe("success");
  const created = await call("POST", "/destinations/create", { name: `Snow ${randomBytes(3).toString("hex")}`, integration_name: "snowflake", ...fields, credential_id: tested.body.credential_id, validation_token: tested.body.validation_token });
  expect(created.status).toBe(201);
  return created.body.destination.id as string;
}

async function connectorTo(destinationId: string) {
  const credential = await call("POST", "/externalauth/datagen/callback", {});
  const source = await call("POST", "/sources/create", { name: `Gen ${randomBytes(3).toString("hex")}`, credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme Rockets", format: "zoom" } });
  expect(source.status).toBe(201);
  const connector = await call("POST", "/connectors/create", { first_sync: false, name: `Sync ${randomBytes(3).toString("hex")}`, description: "", frequency: "daily", source_id: source.body.id, destination_ids: [destinationId], lookback_days: 3 });
  expect(connector.status).toBe(201);
  return { connectorId: connector.body.id as string, sourceId: source.body.id as string };
}

async function sync(connectorId: string) {
  const queued = await call("POST", `/connectors/${connectorId}/sync`);
  expect(queued.status).toBe(202);
  const run = await waitForRun<SyncRun>(t, cookie, `/connectors/${connectorId}`, queued.body.run.id, { timeoutMs: 120_000 });
  if (run.status !== "succeeded") throw new Error(`sync ${run.status}: ${run.error}`);
  return run;
}

const waitForTransformRun = (transformId: string, runId: string) => waitForRun<TransformRun>(t, cookie, `/transforms/${transformId}`, runId, { until: (r) => r.status === "succeeded" || r.status === "failed", timeoutMs: 120_000 });

async function createTransform(connectorId: string, template: string, inputs: Record<string, unknown> = {}, requirement_inputs: Record<string, unknown> = {}) {
  const created = await call("POST", "/transforms/create", {
    template_id: template,
    name: `${template} ${randomBytes(3).toString("hex")}`,
    description: "",
    connector_id: connectorId,
    permissions_setup: true,
    frequency: "daily",
    file_types: [".vtt"],
    status: "PENDING",
    inputs,
    requirement_inputs,
  });
  expect(created.status).toBe(201);
  const id = created.body.transform_id as string;
  const run = await waitForTransformRun(id, created.body.run_id);
  expect({ template, status: run.status, error: run.error }).toEqual({ template, status: "succeeded", error: null });
  return { id, run };
}

const unique = (values: unknown[]) => new Set(values.map(String)).size;
const sorted = (values: unknown[]) => values.map((v) => (v === null || v === undefined ? "" : String(v))).sort();

describe("transforms on BigQuery", () => {
  it("syncs into BigQuery, runs topic_modeling there, and reads the result rows back through the API", async () => {
    bigquery.reset();
    bigquery.createDataset(PROJECT, "analytics").createDataset(PROJECT, "results");
    const destinationId = await bigQueryDestination("analytics");
    const { connectorId, sourceId } = await connectorTo(destinationId);
    const preview = { template_id: "topic_modeling", connector_id: connectorId, inputs: {}, requirement_inputs: {}, file_types: [".vtt"] };
    expect((await call("POST", "/templates/topic_modeling/preview", preview)).body.record_count).toBe(0);

    await sync(connectorId);
    const meetings = bigquery.rows(PROJECT, "analytics", "meetings");
    const utterances = bigquery.rows(PROJECT, "analytics", "transcript_utterances");
    expect(meetings.length).toBeGreaterThan(5);
    expect(meetings.every((m) => m.source_id === sourceId && m.platform === "zoom")).toBe(true);
    expect(utterances.length).toBeGreaterThan(meetings.length);
    expect(bigquery.schema(PROJECT, "analytics", "meetings")).toContainEqual({ name: "started_at", type: "TIMESTAMP" });

    // A second sync of the same window (past any streaming de-duplication window) merges on the key: still one row per meeting.
    bigquery.dedupWindowMs = 0;
    await sync(connectorId);
    expect(bigquery.rows(PROJECT, "analytics", "meetings").length).toBe(meetings.length);
    bigquery.dedupWindowMs = 60_000;
    const distinct = unique(meetings.map((m) => m.meeting_id));
    expect((await call("POST", "/templates/topic_modeling/preview", preview)).body.record_count).toBe(distinct);
    expect((await call("POST", "/templates/topic_modeling/preview", { ...preview, file_types: [".json"] })).body.record_count).toBe(0);

    const { id, run } = await createTransform(connectorId, "topic_modeling", { num_topics: 3, extra_stopwords: "acme, rockets" });
    expect(run.records).toBe(distinct);
    const topics = resultTableName(id, "topics");
    const assignments = resultTableName(id, "topic_assignments");
    expect(run.outputs.map((o) => o.table)).toEqual([topics, assignments]);
    const written = bigquery.rows(PROJECT, "analytics", topics);
    expect(written.length).toBe(run.outputs[0]!.rows);
    expect(written.length).toBeGreaterThanOrEqual(2);
    expect(written.every((r) => r.run_id === run.id)).toBe(true);
    const assigned = bigquery.rows(PROJECT, "analytics", assignments);
    expect(assigned.length).toBe(run.outputs[1]!.rows);
    expect(unique(assigned.map((a) => a.meeting_id))).toBe(assigned.length);
    expect(assigned.length).toBeLessThanOrEqual(distinct);

    const results = await call("GET", `/transforms/${id}/results?table=${topics}&limit=50`);
    expect(results.status).toBe(200);
    expect(results.body).toMatchObject({ table: topics, tables: [topics, assignments], total: written.length });
    expect(results.body.columns).toEqual(["topic_id", "label", "top_words", "documents", "run_id", "computed_at"]);
    expect(sorted(results.body.rows.map((r: { label: string }) => r.label))).toEqual(sorted(written.map((r) => r.label)));
    for (const row of results.body.rows) {
      expect(row.run_id).toBe(run.id);
      expect(typeof row.topic_id).toBe("number");
      expect(Array.isArray(JSON.parse(row.top_words))).toBe(true);
      expect(row.computed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    const page = await call("GET", `/transforms/${id}/results?table=${assignments}&limit=2`);
    expect(page.body).toMatchObject({ table: assignments, total: assigned.length });
    expect(page.body.rows).toHaveLength(Math.min(2, assigned.length));

    // Run now at once (inside the de-duplication window): the new run's rows are kept apart by run_id, and the results show that run only.
    const again = await call("POST", `/transforms/${id}/run`);
    expect(again.status).toBe(202);
    const rerun = await waitForTransformRun(id, again.body.run.id);
    expect(rerun).toMatchObject({ status: "succeeded", trigger: "manual", records: distinct });
    expect(bigquery.rows(PROJECT, "analytics", topics).filter((r) => r.run_id === rerun.id)).toHaveLength(rerun.outputs[0]!.rows);
    const latest = await call("GET", `/transforms/${id}/results?table=${topics}`);
    expect(latest.body.total).toBe(rerun.outputs[0]!.rows);
    expect(latest.body.rows.every((r: { run_id: string }) => r.run_id === rerun.id)).toBe(true);
  });

  it("writes action_items into the results dataset named at create, and reads them from there", async () => {
    bigquery.reset();
    bigquery.createDataset(PROJECT, "analytics").createDataset(PROJECT, "results");
    const { connectorId } = await connectorTo(await bigQueryDestination("analytics"));
    await sync(connectorId);
    const utterances = new Map(bigquery.rows(PROJECT, "analytics", "transcript_utterances").map((u) => [u.utterance_id, u]));
    const { id, run } = await createTransform(connectorId, "action_items", {}, { results_dataset: "results" });
    const table = resultTableName(id, "action_items");
    expect(run.outputs).toEqual([{ table, rows: expect.any(Number) }]);
    expect(run.outputs[0]!.rows).toBeGreaterThan(0);
    expect(bigquery.schema(PROJECT, "analytics", table)).toBeUndefined();
    const items = bigquery.rows(PROJECT, "results", table);
    expect(items.length).toBe(run.outputs[0]!.rows);
    // Every item points at a synced line of its meeting.
    for (const item of items) expect(utterances.get(item.utterance_id)?.meeting_id).toBe(item.meeting_id);
    const results = await call("GET", `/transforms/${id}/results?limit=500`);
    expect(results.status).toBe(200);
    expect(results.body.total).toBe(items.length);
    expect(results.body.rows).toHaveLength(Math.min(500, items.length));
    const ids = new Set(items.map((i) => i.utterance_id));
    expect(results.body.rows.every((r: { utterance_id: string; run_id: string }) => ids.has(r.utterance_id) && r.run_id === run.id)).toBe(true);

    // A warehouse that refuses the read is a 502 naming the table and BigQuery's reason.
    bigquery.deny(`${PROJECT}.results`, "bigquery.tables.getData");
    const refused = await call("GET", `/transforms/${id}/results`);
    expect(refused.status).toBe(502);
    expect(refused.body.message).toMatch(new RegExp(`^Reading the result table ${table} from "BigQuery \\w+" failed: Access Denied: .*bigquery\\.tables\\.getData`));
  });

  it("the BigQuery writer reports a refused row with BigQuery's reason", async () => {
    bigquery.reset();
    bigquery.createDataset(PROJECT, "analytics");
    const writer = new BigQueryWriter(platformServiceAccount(), PROJECT, "analytics");
    await writer.upsertRows("notes", [{ id: "n1", body: "first", words: 1 }], ["id"]);
    await expect(writer.upsertRows("notes", [{ id: "n2", body: "second", words: "many" }], ["id"])).rejects.toThrow("BigQuery refused the rows: Cannot convert value to float. (1 of 1 invalid; none were written)");
    await expect(writer.upsertRows("notes", [{ id: "n3", body: "x", words: 2 }, { id: "n4", body: { nested: true }, words: 3 }, { id: "n5", body: "y", words: "lots" }], ["id"])).rejects.toThrow("BigQuery refused the rows: Cannot convert value to float. (1 of 3 invalid; none were written)");
    expect(bigquery.rows(PROJECT, "analytics", "notes")).toEqual([{ id: "n1", body: "first", words: 1 }]);
  });
});

describe("transforms on Snowflake", () => {
  const grant = () =>
    snowflake.addUser("LOADER", {
      password: PASSWORD,
      warehouses: ["LOAD_WH"],
      databases: ["RAW"],
      schemas: ["RAW.MEETINGS", "RAW.RESULTS"],
      createTableIn: ["RAW.MEETINGS", "RAW.RESULTS"],
    });

  it("syncs into Snowflake, runs topic_modeling there, re-runs replace the rows, and the API reads them back", async () => {
    snowflake.reset();
    grant();
    const { connectorId, sourceId } = await connectorTo(await snowflakeDestination());
    await sync(connectorId);
    const meetings = snowflake.rowsOf("RAW.MEETINGS.MEETINGS");
    expect(meetings.length).toBeGreaterThan(5);
    expect(meetings.every((m) => m.SOURCE_ID === sourceId && m.STARTED_AT instanceof Date)).toBe(true);
    expect(snowflake.columns.get("RAW.MEETINGS.MEETINGS")).toContainEqual({ name: "PARTICIPANTS", type: "VARIANT" });
    const preview = await call("POST", "/templates/topic_modeling/preview", { template_id: "topic_modeling", connector_id: connectorId, inputs: {}, requirement_inputs: {}, file_types: [".vtt"] });
    expect(preview.body.record_count).toBe(meetings.length);

    const { id, run } = await createTransform(connectorId, "topic_modeling", { num_topics: 3 });
    expect(run.records).toBe(meetings.length);
    const topics = resultTableName(id, "topics");
    const assignments = resultTableName(id, "topic_assignments");
    const written = snowflake.rowsOf(`RAW.MEETINGS.${topics}`);
    expect(written.length).toBe(run.outputs[0]!.rows);
    expect(written.every((r) => r.RUN_ID === run.id)).toBe(true);
    expect(snowflake.rowsOf(`RAW.MEETINGS.${assignments}`).length).toBe(run.outputs[1]!.rows);

    const results = await call("GET", `/transforms/${id}/results?table=${topics}`);
    expect(results.status).toBe(200);
    expect(results.body).toMatchObject({ table: topics, tables: [topics, assignments], total: written.length });
    expect(results.body.columns).toEqual(["topic_id", "label", "top_words", "documents", "run_id", "computed_at"]);
    expect(sorted(results.body.rows.map((r: { label: string }) => r.label))).toEqual(sorted(written.map((r) => r.LABEL)));
    for (const row of results.body.rows) {
      expect(row.run_id).toBe(run.id);
      expect(Array.isArray(JSON.parse(row.top_words))).toBe(true);
      expect(row.computed_at).toBe(new Date(run.started_at!).toISOString());
    }

    // A re-run MERGEs by key and then deletes the rows the new run did not write.
    const again = await call("POST", `/transforms/${id}/run`);
    const rerun = await waitForTransformRun(id, again.body.run.id);
    expect(rerun.status).toBe("succeeded");
    const after = snowflake.rowsOf(`RAW.MEETINGS.${assignments}`);
    expect(after.length).toBe(rerun.outputs[1]!.rows);
    expect(after.every((r) => r.RUN_ID === rerun.id)).toBe(true);
    expect(snowflake.statements.some((s) => s.sqlText === `DELETE FROM RAW.MEETINGS.${assignments.toUpperCase()} WHERE RUN_ID <> ?`)).toBe(true);
    expect((await call("GET", `/transforms/${id}/results?table=${assignments}`)).body.total).toBe(after.length);
  });

  it("writes keyword_tracker into the results schema named at create, and reads both tables back", async () => {
    snowflake.reset();
    grant();
    const { connectorId } = await connectorTo(await snowflakeDestination());
    await sync(connectorId);
    const keywords = ["Fivetran", "Airbyte", "Stitch", "Segment", "Hevo", "price"];
    const { id, run } = await createTransform(connectorId, "keyword_tracker", { keywords: keywords.join(", ") }, { results_schema: "results" });
    const mentions = resultTableName(id, "keyword_mentions");
    const summary = resultTableName(id, "keyword_summary");
    expect(run.outputs.map((o) => o.table)).toEqual([mentions, summary]);
    expect(snowflake.rowsOf(`RAW.MEETINGS.${summary}`)).toEqual([]);
    const stored = snowflake.rowsOf(`RAW.RESULTS.${summary}`);
    expect(sorted(stored.map((r) => r.KEYWORD))).toEqual(sorted(keywords));
    expect(snowflake.rowsOf(`RAW.RESULTS.${mentions}`).length).toBe(run.outputs[0]!.rows);

    const read = await call("GET", `/transforms/${id}/results?table=${summary}&limit=10`);
    expect(read.status).toBe(200);
    expect(sorted(read.body.rows.map((r: { keyword: string }) => r.keyword))).toEqual(sorted(keywords));
    expect(read.body.rows.reduce((n: number, r: { mentions: number }) => n + r.mentions, 0)).toBe(run.outputs[0]!.rows);
    expect(read.body.columns).toEqual(expect.arrayContaining(["keyword", "mentions", "meetings", "avg_sentiment", "first_mention_at", "last_mention_at", "run_id", "computed_at"]));
    const listed = await call("GET", `/transforms/${id}/results?table=${mentions}&limit=5`);
    expect(listed.body.total).toBe(run.outputs[0]!.rows);
    expect(listed.body.rows.length).toBe(Math.min(5, run.outputs[0]!.rows));
  });
});
