import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { syncConnector } from "../../backend/sync/index.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { SecretBox } from "../../backend/lib/crypto.js";
import { allDefinitions, setupStepsFor, templateDefinition, type WarehouseTarget } from "../../backend/transforms/catalogue.js";
import { HOSTED_UNAVAILABLE } from "../../backend/transforms/provider.js";
import { DEFAULT_SETUP_STEP_TITLES, previewResponseSchema, templateSchema, TRANSFORM_MESSAGES as M } from "../../contract/transforms.js";

/** The template calls of spec §7 over real HTTP; syncs run through the real sync function (this backend has no worker). */
let t: TestBackend;
let handle: DatabaseHandle;
let cookie: string;
let other: string;

beforeAll(async () => {
  t = await startTestBackend();
  handle = connectDatabase(t.db.options.connectionString!, 2);
  cookie = (await createUserSession(t, "templates@example.com")).cookie;
  other = (await createUserSession(t, "someone-else@example.com")).cookie;
});
afterAll(async () => {
  await handle?.close();
  await t?.stop();
});

async function call(method: string, route: string, body?: unknown, as = cookie) {
  const response = await fetch(`${t.url}${route}`, {
    method,
    headers: { cookie: as, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function localConnector(as = cookie, format: "zoom" | "gong" = "zoom") {
  const credential = await call("POST", "/externalauth/datagen/callback", {}, as);
  const source = await call("POST", "/sources/create", { name: `Gen ${Math.random()}`, credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme Rockets", format } }, as);
  expect(source.status).toBe(201);
  const destination = await call("POST", "/destinations/create", { name: `Disk ${Math.random()}`, integration_name: "local" }, as);
  expect(destination.status).toBe(201);
  const connector = await call("POST", "/connectors/create", { first_sync: false, name: `Sync ${Math.random()}`, description: "", frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: 3 }, as);
  expect(connector.status).toBe(201);
  return { connectorId: connector.body.id as string, folder: destination.body.destination.config.folder as string, destinationId: destination.body.destination.id as string };
}

describe("templates: catalogue calls", () => {
  it("needs a session", async () => {
    const response = await fetch(`${t.url}/templates/categories`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: M.notAuthenticated });
  });

  it("answers the input constants", async () => {
    const { status, body } = await call("GET", "/templates/input-constants");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      input_types: ["string", "integer", "boolean", "enum", "list[string]"],
      group_order: ["general", "primitives", "signals", "outcome"],
      file_types: [".vtt", ".txt", ".json"],
      default_file_types: [".vtt", ".txt"],
      frequencies: ["daily", "hourly"],
      default_template_id: "topic_modeling",
    });
    expect(body.workflows).toEqual([
      { value: "template", label: "Use Templates", available: true },
      { value: "custom", label: "Build Custom", available: false },
    ]);
  });

  it("lists categories and each category's templates; every template is valid and the six pipelines exist", async () => {
    const { body } = await call("GET", "/templates/categories");
    expect(body.categories.length).toBeGreaterThanOrEqual(3);
    const ids: string[] = [];
    for (const category of body.categories as { id: string }[]) {
      const list = await call("GET", `/templates/categories/${category.id}/templates`);
      expect(list.status).toBe(200);
      for (const template of list.body.templates) {
        templateSchema.parse(template);
        expect(template.category).toBe(category.id);
        ids.push(template.id);
      }
    }
    expect(ids.sort()).toEqual(["action_items", "deal_risk", "email_correspondents", "email_response_time", "email_sentiment", "keyword_tracker", "sentiment_over_time", "speaker_metrics", "topic_modeling"]);
    expect(await call("GET", "/templates/categories/nope/templates")).toEqual({ status: 404, body: { message: "Category not found" } });
  });

  it("answers a template with a real flowchart whose node ids have tooltips, its metadata and its setup steps", async () => {
    const { status, body } = await call("GET", "/templates/topic_modeling");
    expect(status).toBe(200);
    expect(body.destination).toBeUndefined();
    expect(body.mermaid_code.startsWith("flowchart LR")).toBe(true);
    for (const id of Object.keys(body.node_descriptions)) expect(body.mermaid_code).toContain(`${id}`);
    expect(body.mermaid_code).toContain("transcripts --> tokenize");
    expect(body.inputs.num_topics).toMatchObject({ type: "integer", min: 2, max: 20, default: 6, group: "general" });
    expect(body.inputs.provider.description).toContain("unavailable");
    expect(body.setup_steps.map((s: { type: string }) => s.type)).toEqual(["destination_setup", "permissions_review", "permission_setup", "deployment"]);
    expect(body.steps.length).toBeGreaterThan(3);
    expect((await call("GET", "/templates/topic_modeling/metadata")).body).toEqual({ inputs: body.inputs });
    expect((await call("GET", "/templates/topic_modeling/setup-steps")).body.steps).toEqual(body.setup_steps);
    // A template without steps of its own answers the two defaults (§4).
    const steps = (await call("GET", "/templates/speaker_metrics/setup-steps")).body.steps;
    expect(steps.map((s: { title: string }) => s.title)).toEqual([...DEFAULT_SETUP_STEP_TITLES]);
    for (const path of ["/templates/nope", "/templates/nope/metadata", "/templates/nope/setup-steps"]) {
      expect(await call("GET", path)).toEqual({ status: 404, body: { message: M.templateNotFound } });
    }
  });

  it("with ?connector_id= answers the destination the wizard uses, and refuses another user's connector", async () => {
    const { connectorId, destinationId } = await localConnector();
    const { body } = await call("GET", `/templates/deal_risk?connector_id=${connectorId}`);
    expect(body.destination).toMatchObject({ id: destinationId, integration_name: "local", category: "STORAGE" });
    expect(body.setup_steps[1].description).toBe("Nothing to grant: the local warehouse is a DuckDB file on this server that Tributary reads and writes itself.");
    expect(body.setup_steps[3].requirement_inputs).toEqual([expect.objectContaining({ key: "results_prefix", default: "tx", required: true })]);
    expect((await call("GET", `/templates/deal_risk/setup-steps?connector_id=${connectorId}`)).body.steps).toEqual(body.setup_steps);
    expect(await call("GET", `/templates/deal_risk?connector_id=${connectorId}`, undefined, other)).toEqual({ status: 404, body: { message: M.connectorNotFound } });
    expect(await call("GET", `/templates/deal_risk?connector_id=not-a-uuid`)).toEqual({ status: 404, body: { message: M.connectorNotFound } });
  });

  it("words the permission steps per warehouse: BigQuery grants to the service account, Snowflake GRANT statements", () => {
    const d = templateDefinition("topic_modeling")!;
    const bigquery: WarehouseTarget = { id: "b", name: "BQ", integration_name: "bigquery", category: "WAREHOUSE", config: { project_id: "acme-prj", dataset_name: "calls" }, service_account_email: "sa@platform.iam.gserviceaccount.com" };
    const [, review, write] = setupStepsFor(d, bigquery);
    expect(review!.sql).toBe('GRANT `roles/bigquery.dataViewer` ON SCHEMA `acme-prj.calls` TO "serviceAccount:sa@platform.iam.gserviceaccount.com";');
    expect(review!.permission).toBe("dataset_query_access");
    expect(write!.requirement_inputs).toEqual([expect.objectContaining({ key: "results_dataset", default: "calls", required: true, placeholder: "tributary_results" })]);
    const snowflake: WarehouseTarget = { id: "s", name: "SF", integration_name: "snowflake", category: "WAREHOUSE", config: { database: "ANALYTICS", schema: "RAW", warehouse: "WH", user: "TRIB" } };
    const steps = setupStepsFor(d, snowflake);
    expect(steps[1]!.sql).toContain("GRANT SELECT ON ALL TABLES IN SCHEMA ANALYTICS.RAW TO ROLE TRIBUTARY_ROLE;");
    expect(steps[2]!.sql).toContain("GRANT CREATE TABLE ON SCHEMA ANALYTICS.<RESULTS_SCHEMA>");
    expect(steps[2]!.requirement_inputs[0]).toMatchObject({ key: "results_schema", default: "RAW", required: true });
    // Every template's flowchart edges join declared nodes, from the data through primitives and signals to an outcome.
    for (const def of allDefinitions()) {
      const ids = new Set(def.nodes.map((n) => n.id));
      for (const [a, b] of def.edges) expect(ids.has(a) && ids.has(b)).toBe(true);
      expect(def.nodes.some((n) => n.kind === "outcome")).toBe(true);
    }
  });
});

describe("templates: preview", () => {
  it("counts the transcripts the transform would read: 0 before a sync, the warehouse's real count after, filtered by file type", async () => {
    const { connectorId, folder } = await localConnector();
    const body = { template_id: "topic_modeling", connector_id: connectorId, inputs: { num_topics: "4", extra_stopwords: " acme , rockets ,," }, requirement_inputs: {} };
    const before = await call("POST", "/templates/topic_modeling/preview", body);
    expect(before.status).toBe(200);
    expect(before.body.record_count).toBe(0);

    const services = { db: handle.db, secrets: new SecretBox("x".repeat(43)), config: { DATA_DIR: t.dataDir } };
    const result = await syncConnector(services, connectorId, new Date());
    expect(result.records).toBeGreaterThan(5);
    const reader = new LocalWriter(resolveLocalRoot(t.dataDir, folder));
    const [{ n }] = (await reader.query("SELECT count(*)::INT AS n FROM meetings")) as { n: number }[];
    await reader.close();
    expect(n).toBe(result.records);

    const after = await call("POST", "/templates/topic_modeling/preview", body);
    expect(after.status).toBe(200);
    const preview = previewResponseSchema.parse(after.body);
    expect(preview.record_count).toBe(n);
    expect(preview.template_name).toBe("Topic modeling");
    expect(preview.transform_type).toBe("topic_modeling");
    expect(preview.template_config.pipeline.primitives[1]).toMatchObject({ type: "topic_model", parameters: { provider: "local", model: "kmeans-tfidf", num_topics: 4 } });
    expect(preview.template_config.pipeline.primitives[0]!.parameters.extra_stopwords).toEqual(["acme", "rockets"]);
    expect(preview.template_config.pipeline.outcome.model_type).toBe("topic_summary");
    // A sample of real result rows: the template run on the first records, nothing written.
    expect(before.body.sample).toBeUndefined();
    expect(preview.sample_records).toBe(Math.min(n, 50));
    expect(preview.sample!.map((t) => t.table)).toEqual(["topics", "topic_assignments"]);
    const [topics, assignments] = preview.sample!;
    expect(topics!.rows.length).toBeGreaterThan(0);
    expect(topics!.rows.length).toBeLessThanOrEqual(5);
    expect(topics!.columns).toEqual(["topic_id", "label", "top_words", "documents"]);
    expect(typeof topics!.rows[0]!.label).toBe("string");
    expect(JSON.parse(String(topics!.rows[0]!.top_words))[0]).toMatchObject({ word: expect.any(String), weight: expect.any(Number) });
    expect(assignments!.total).toBeGreaterThan(0);
    expect(assignments!.columns).not.toContain("run_id");
    const speakers = previewResponseSchema.parse((await call("POST", "/templates/speaker_metrics/preview", { ...body, template_id: "speaker_metrics", inputs: {} })).body);
    expect(speakers.sample![0]).toMatchObject({ table: "speaker_metrics", description: expect.stringContaining("One row per meeting and speaker") });
    expect(speakers.sample![0]!.rows[0]).toMatchObject({ meeting_id: expect.any(String), talk_ratio: expect.any(Number) });
    // A zoom-style source writes .vtt and .txt files: asking for .json only reads nothing.
    expect((await call("POST", "/templates/topic_modeling/preview", { ...body, file_types: [".json"] })).body.record_count).toBe(0);
    expect((await call("POST", "/templates/topic_modeling/preview", { ...body, file_types: [".vtt"] })).body.record_count).toBe(n);
    // Another user cannot preview on this connector.
    expect(await call("POST", "/templates/topic_modeling/preview", body, other)).toEqual({ status: 400, body: { message: M.connectorNotFound, field: "connector_id" } });
    // The previews wrote no table.
    const after2 = new LocalWriter(resolveLocalRoot(t.dataDir, folder));
    expect(await after2.query("SELECT count(*)::INT AS n FROM information_schema.tables WHERE table_name LIKE 'tx%'")).toEqual([{ n: 0 }]);
    await after2.close();
  });

  it("a preview of no records says what the connector's data has: its file types, and the records per file type", async () => {
    const { connectorId } = await localConnector(cookie, "gong");
    const body = { template_id: "topic_modeling", connector_id: connectorId, inputs: {}, requirement_inputs: {}, file_types: [".vtt"] };
    const before = previewResponseSchema.parse((await call("POST", "/templates/topic_modeling/preview", body)).body);
    expect(before).toMatchObject({ record_count: 0, record_counts: { ".vtt": 0, ".txt": 0, ".json": 0 }, connector_file_types: [".txt", ".json"] });

    const services = { db: handle.db, secrets: new SecretBox("x".repeat(43)), config: { DATA_DIR: t.dataDir } };
    const synced = await syncConnector(services, connectorId, new Date());
    expect(synced.records).toBeGreaterThan(0);
    // A Gong-style data generator writes .txt and .json files: the default .vtt reads nothing, and the preview says what does.
    const after = previewResponseSchema.parse((await call("POST", "/templates/topic_modeling/preview", body)).body);
    expect(after).toMatchObject({ record_count: 0, record_counts: { ".vtt": 0, ".txt": synced.records, ".json": synced.records }, connector_file_types: [".txt", ".json"] });
    const json = previewResponseSchema.parse((await call("POST", "/templates/topic_modeling/preview", { ...body, file_types: [".json"] })).body);
    expect(json.record_count).toBe(synced.records);
    expect(json.record_counts).toBeUndefined();
  });

  it("refuses bad bodies and bad inputs with a 4xx and a sentence", async () => {
    const { connectorId } = await localConnector();
    const base = { template_id: "topic_modeling", connector_id: connectorId };
    const cases: [unknown, number, string][] = [
      [{}, 400, M.templateIdMissing],
      [{ template_id: "topic_modeling" }, 400, M.templateCreateIncomplete],
      [{ ...base, template_id: "deal_risk" }, 400, "The template_id in the body does not match the template of the address."],
      [{ ...base, inputs: { num_topics: 99 } }, 400, '"Number of topics" must be between 2 and 20.'],
      [{ ...base, inputs: { num_topics: "six" } }, 400, '"Number of topics" must be a whole number.'],
      [{ ...base, inputs: { speakers: "robots" } }, 400, '"Speakers" must be one of: all, internal, external.'],
      [{ ...base, inputs: { provider: "hosted_llm" } }, 400, HOSTED_UNAVAILABLE],
      [{ ...base, inputs: { colour: "blue" } }, 400, 'Unknown input "colour" for the template Topic modeling.'],
      [{ ...base, inputs: { extra_stopwords: 5 } }, 400, '"Extra stop words" must be a comma-separated list.'],
      [{ ...base, requirement_inputs: { results_prefix: "" } }, 400, 'Please fill in "Result table prefix".'],
      [{ ...base, requirement_inputs: { results_prefix: "9lives" } }, 400, '"Result table prefix" may contain only letters, digits and _, and must not start with a digit.'],
      [{ ...base, file_types: [".exe"] }, 400, M.fileTypeRequired],
      [[1, 2], 400, "The request body must be a JSON object."],
      ["{not json", 400, "The request body is not valid JSON."],
    ];
    for (const [body, status, message] of cases) {
      const response = await call("POST", "/templates/topic_modeling/preview", body);
      expect({ body, status: response.status, message: response.body.message }).toEqual({ body, status, message });
    }
    expect((await call("POST", "/templates/nope/preview", base)).status).toBe(404);
  });
});
