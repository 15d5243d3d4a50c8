import { existsSync } from "node:fs";
import path from "node:path";
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { FakeGcs } from "../fakes/gcs.js";
import { FakeBigQuery } from "../fakes/bigquery.js";
import { FakeSnowflake } from "../fakes/snowflake.js";
import { DESTINATION_MESSAGES as M } from "../../contract/destinations.js";
import { GOOGLE_UNAVAILABLE, googleUnavailable } from "../../backend/integrations/destinations/kit/google-access.js";
import { createLogger } from "../../backend/lib/log.js";

let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };
const gcs = new FakeGcs();
const bigquery = new FakeBigQuery();
const snowflake = new FakeSnowflake();
const SA_EMAIL = "tributary-platform@tributary-test.iam.gserviceaccount.com";
const SA_KEY = JSON.stringify({
  type: "service_account",
  project_id: "tributary-test",
  client_email: SA_EMAIL,
  private_key: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }),
});

function call(method: string, route: string, cookie: string | undefined, body?: unknown, raw?: string) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined || raw !== undefined) headers["content-type"] = "application/json";
  return fetch(`${t.url}${route}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
}
const post = (route: string, cookie: string | undefined, body?: unknown) => call("POST", route, cookie, body ?? {});

async function expectMessage(response: Response, status: number, message: string | RegExp) {
  const body = (await response.json()) as { message: string };
  expect({ status: response.status, message: body.message }).toEqual({ status, message: typeof message === "string" ? message : expect.stringMatching(message) });
}

beforeAll(async () => {
  await Promise.all([gcs.start(), bigquery.start(), snowflake.start()]);
  process.env.SNOWFLAKE_HOST_OVERRIDE = snowflake.url;
  process.env.GCS_API_ENDPOINT = gcs.url;
  process.env.BIGQUERY_API_ENDPOINT = bigquery.url;
  delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY;
  delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE;
  t = await startTestBackend();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([gcs.stop(), bigquery.stop(), snowflake.stop()]);
});
beforeEach(() => {
  process.env.GOOGLE_SERVICE_ACCOUNT_KEY = SA_KEY;
  delete process.env.ALLOW_LOCAL_DESTINATION;
  gcs.reset();
  bigquery.reset();
  snowflake.reset();
});

const createLocal = async (cookie: string, name = "Local files") => {
  const response = await post("/destinations/create", cookie, { name, description: "on disk", integration_name: "local" });
  expect(response.status).toBe(201);
  return ((await response.json()) as { destination: { id: string; config: { folder: string } } }).destination;
};

describe("GET /integrations/destinations", () => {
  it("needs a session", async () => {
    await expectMessage(await get(t, "/integrations/destinations"), 401, "User not authenticated");
  });

  it("lists the destination types, with the local one unless ALLOW_LOCAL_DESTINATION=false", async () => {
    const body = await (await get(t, "/integrations/destinations", alice.cookie)).json();
    expect(body.data.destinations.map((d: { name: string }) => d.name)).toEqual(["storage", "bigquery", "snowflake", "snowflake_stage", "local", "postgres"]);
    expect(body.data.destinations[0]).toEqual({ name: "storage", label: "Google Cloud Storage" });
    process.env.ALLOW_LOCAL_DESTINATION = "false";
    const off = await (await get(t, "/integrations/destinations", alice.cookie)).json();
    expect(off.data.destinations.map((d: { name: string }) => d.name)).not.toContain("local");
    await expectMessage(await post("/destinations/create", alice.cookie, { name: "x", integration_name: "local" }), 400, /ALLOW_LOCAL_DESTINATION/);
  });
});

describe("POST /destinations/create: validation (spec §5)", () => {
  const cases: [string, unknown, string | RegExp][] = [
    ["no name", { integration_name: "local" }, M.name],
    ["a blank name", { name: "   ", integration_name: "local" }, M.name],
    ["no type", { name: "x" }, M.integration],
    ["an unknown type", { name: "x", integration_name: "ftp" }, M.integration],
    ["storage without project", { name: "x", integration_name: "storage", bucket_name: "b-1" }, M.projectId],
    ["storage without bucket", { name: "x", integration_name: "storage", project_id: "demo-project" }, M.bucket],
    ["bigquery without dataset", { name: "x", integration_name: "bigquery", project_id: "demo-project" }, M.dataset],
    ["snowflake without account", { name: "x", integration_name: "snowflake" }, M.account],
    ["snowflake without warehouse", { name: "x", integration_name: "snowflake", account: "org-acct" }, M.warehouse],
    ["snowflake without database", { name: "x", integration_name: "snowflake", account: "org-acct", warehouse: "WH" }, M.database],
    ["snowflake without schema", { name: "x", integration_name: "snowflake", account: "org-acct", warehouse: "WH", database: "DB" }, M.schema],
    ["snowflake without user", { name: "x", integration_name: "snowflake", account: "org-acct", warehouse: "WH", database: "DB", schema: "S" }, M.user],
    ["a stage without stage name", { name: "x", integration_name: "snowflake_stage", account: "org-acct", database: "DB", schema: "S", user: "U" }, M.stageRequired],
    ["a stage name with a hyphen", { name: "x", integration_name: "snowflake_stage", account: "org-acct", database: "DB", schema: "S", user: "U", stage_name: "my-stage" }, M.stagePattern],
    ["storage that was never tested", { name: "x", integration_name: "storage", project_id: "demo-project", bucket_name: "my-bucket" }, M.notTested],
    ["a forged token", { name: "x", integration_name: "storage", project_id: "demo-project", bucket_name: "my-bucket", credential_id: "00000000-0000-4000-8000-000000000000", validation_token: "abc.def" }, M.notTested],
    ["a host in the account", { name: "x", integration_name: "snowflake", account: "evil.com/x", warehouse: "WH", database: "DB", schema: "S", user: "U" }, /^Account identifier must look like/],
    ["SQL in an identifier", { name: "x", integration_name: "snowflake", account: "org-acct", warehouse: "WH; DROP", database: "DB", schema: "S", user: "U" }, /^Warehouse may contain only/],
    ["a name too long", { name: "x".repeat(201), integration_name: "local" }, "At most 200 characters"],
  ];
  it.each(cases)("refuses %s", async (_, body, message) => {
    await expectMessage(await post("/destinations/create", alice.cookie, body), 400, message);
  });

  it.each([
    ["not JSON", "{", 400],
    ["an array", "[]", 400],
    ["null", "null", 400],
    ["a number for the name", JSON.stringify({ name: 5, integration_name: "local" }), 400],
  ])("answers %s with a 4xx and a message", async (_, raw, status) => {
    const response = await call("POST", "/destinations/create", alice.cookie, undefined, raw as string);
    expect(response.status).toBe(status);
    expect(typeof (await response.json()).message).toBe("string");
  });

  it("wants JSON", async () => {
    const response = await fetch(`${t.url}/destinations/create`, { method: "POST", headers: { cookie: alice.cookie, "content-type": "text/plain" }, body: "name=x" });
    expect(response.status).toBe(415);
  });
});

describe("the local destination", () => {
  it("creates a folder and a DuckDB warehouse under DATA_DIR, and reads back owner-scoped", async () => {
    const created = await createLocal(alice.cookie);
    expect(created.config.folder).toBe(`destinations/${alice.userId}/${created.id}`);
    expect(existsSync(path.resolve(t.dataDir, created.config.folder, "warehouse.duckdb"))).toBe(true);
    expect(existsSync(path.resolve(t.dataDir, created.config.folder, "files"))).toBe(true);

    const one = await (await get(t, `/destinations/list-by-id/${created.id}`, alice.cookie)).json();
    expect(one).toMatchObject({ id: created.id, name: "Local files", description: "on disk", integration_name: "local", integration_label: "Local folder", category: "STORAGE", status: "ACTIVE", connector_count: 0, updated_at: null });
    const all = await (await get(t, "/destinations/list-all", alice.cookie)).json();
    expect(all.map((d: { id: string }) => d.id)).toContain(created.id);

    await expectMessage(await get(t, `/destinations/list-by-id/${created.id}`, bob.cookie), 404, M.notFound);
    await expectMessage(await get(t, "/destinations/list-by-id/not-a-uuid", alice.cookie), 404, M.notFound);
    expect((await (await get(t, "/destinations/list-all", bob.cookie)).json()).map((d: { id: string }) => d.id)).not.toContain(created.id);
    await expectMessage(await call("PUT", `/destinations/update/${created.id}`, bob.cookie, { name: "mine now" }), 404, M.notFound);
    await expectMessage(await call("DELETE", `/destinations/delete/${created.id}`, bob.cookie), 404, M.notFound);
    expect((await (await get(t, `/destinations/list-by-id/${created.id}`, alice.cookie)).json()).name).toBe("Local files");
  });

  it("updates name and description; a blank name is refused", async () => {
    const created = await createLocal(alice.cookie, "Before");
    await expectMessage(await call("PUT", `/destinations/update/${created.id}`, alice.cookie, { name: " " }), 400, M.name);
    const response = await call("PUT", `/destinations/update/${created.id}`, alice.cookie, { name: "After", description: "new words" });
    expect(response.status).toBe(200);
    const after = await (await get(t, `/destinations/list-by-id/${created.id}`, alice.cookie)).json();
    expect(after).toMatchObject({ name: "After", description: "new words", config: created.config });
    expect(after.updated_at).not.toBeNull();
  });

  it("refuses to delete a destination that connectors use, naming them; deletes it once free", async () => {
    const created = await createLocal(alice.cookie, "In use");
    const source = await t.db.query("INSERT INTO sources (owner_id, name, integration_name, integration_label) VALUES ($1, 's', 'datagen', 'Data generator') RETURNING id", [alice.userId]);
    const connector = await t.db.query("INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days) VALUES ($1, 'Weekly sync', $2, 'daily', 7) RETURNING id", [
      alice.userId,
      source.rows[0].id,
    ]);
    await t.db.query("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [connector.rows[0].id, created.id]);
    expect((await (await get(t, `/destinations/list-by-id/${created.id}`, alice.cookie)).json()).connector_count).toBe(1);
    await expectMessage(await call("DELETE", `/destinations/delete/${created.id}`, alice.cookie), 409, /used by the connector "Weekly sync"/);
    await t.db.query("DELETE FROM connectors WHERE id = $1", [connector.rows[0].id]);
    expect((await call("DELETE", `/destinations/delete/${created.id}`, alice.cookie)).status).toBe(200);
    await expectMessage(await get(t, `/destinations/list-by-id/${created.id}`, alice.cookie), 404, M.notFound);
    await expectMessage(await call("DELETE", `/destinations/delete/${created.id}`, alice.cookie), 404, M.notFound);
  });
});

describe("Cloud Storage and BigQuery", () => {
  async function serviceAccount(cookie: string, integration: "storage" | "bigquery" | "gcs") {
    const response = await post(`/externalauth/${integration}/service_account`, cookie, { integration_name: integration === "gcs" ? "storage" : integration });
    expect(response.status).toBe(200);
    return (await response.json()) as { service_account_email: string; credential_id: string; instructions: string[]; description: string; status: string; message: string };
  }

  it("without the platform's service account, a user reads a plain sentence and the operator's log says which variables to set", async () => {
    delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY;
    const missing = await post("/externalauth/storage/service_account", alice.cookie, { integration_name: "storage" });
    await expectMessage(missing.clone(), 422, GOOGLE_UNAVAILABLE);
    expect(await missing.text()).not.toMatch(/GOOGLE_SERVICE_ACCOUNT_KEY/);
    // Both Google types are offered disabled with that sentence, and refused.
    const list = await (await get(t, "/integrations/destinations", alice.cookie)).json();
    const google = list.data.destinations.filter((d: { name: string }) => d.name === "storage" || d.name === "bigquery");
    expect(google).toEqual([
      { name: "storage", label: "Google Cloud Storage", unavailable: GOOGLE_UNAVAILABLE },
      { name: "bigquery", label: "BigQuery", unavailable: GOOGLE_UNAVAILABLE },
    ]);
    expect(list.data.destinations.find((d: { name: string }) => d.name === "snowflake")).toEqual({ name: "snowflake", label: "Snowflake" });
    await expectMessage(await post("/destinations/create", alice.cookie, { name: "x", integration_name: "bigquery", project_id: "demo-project", dataset_name: "analytics" }), 400, GOOGLE_UNAVAILABLE);
    process.env.GOOGLE_SERVICE_ACCOUNT_KEY = "{not json";
    await expectMessage(await post("/externalauth/bigquery/get_instructions", alice.cookie, {}), 422, GOOGLE_UNAVAILABLE);
    expect(googleUnavailable()?.detail).toMatch(/not valid JSON/);

    // The operator's detail: logged once when a backend starts without the key.
    delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY;
    const lines: string[] = [];
    const other = await startTestBackend({ log: createLogger("info", "backend", { write: (line: string) => void lines.push(line) }) });
    await other.stop();
    const warnings = lines.map((line) => JSON.parse(line) as { msg: string; destination?: string; detail?: string }).filter((l) => l.msg.startsWith("destination type unavailable"));
    expect(warnings.map((w) => w.destination)).toEqual(["storage", "bigquery"]);
    expect(warnings[0]!.detail).toMatch(/GOOGLE_SERVICE_ACCOUNT_KEY .*GOOGLE_SERVICE_ACCOUNT_KEY_FILE/);
  });

  it("service_account answers with the platform's e-mail, a credential and numbered steps; no key material", async () => {
    const response = await post("/externalauth/storage/service_account", alice.cookie, { integration_name: "storage" });
    const text = await response.text();
    expect(text).not.toContain("PRIVATE KEY");
    const info = JSON.parse(text);
    expect(info).toMatchObject({ service_account_email: SA_EMAIL, status: "success" });
    expect(info.credential_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(info.instructions.length).toBeGreaterThanOrEqual(3);
    expect(info.instructions.join("\n")).toContain("roles/storage.objectAdmin");
    expect((await serviceAccount(alice.cookie, "storage")).credential_id).toBe(info.credential_id);
    await expectMessage(await post("/externalauth/storage/service_account", alice.cookie, { integration_name: "bigquery" }), 400, /does not match/);
    expect((await post("/externalauth/storage/service_account", undefined, {})).status).toBe(401);
  });

  it("get_instructions differ per type and permission type", async () => {
    const storage = await (await post("/externalauth/storage/get_instructions", alice.cookie, { project_id: "demo-project", bucket_name: "my-bucket" })).json();
    expect(storage.steps.map((s: { description: string }) => s.description).join(" ")).toContain("gs://my-bucket");
    expect(storage.service_account_email).toBe(SA_EMAIL);
    const write = await (await post("/externalauth/bigquery/get_instructions", alice.cookie, { category: "WAREHOUSE", project_id: "demo-project", dataset_name: "analytics" })).json();
    expect(write.instructions.join(" ")).toContain("roles/bigquery.dataEditor");
    const query = await (await post("/externalauth/bigquery/get_instructions", alice.cookie, { category: "WAREHOUSE", permission_type: "dataset_query_access", project_id: "demo-project" })).json();
    expect(query.instructions.join(" ")).toContain("roles/bigquery.jobUser");
    expect(query.instructions.join(" ")).toContain("roles/bigquery.dataViewer");
    expect(query.title).not.toBe(write.title);
    await expectMessage(await post("/externalauth/bigquery/get_instructions", alice.cookie, { permission_type: "everything" }), 400, "Unknown permission type");
  });

  it("storage: the test writes, reads and deletes a probe object, then create accepts exactly the tested values", async () => {
    gcs.createBucket("my-bucket");
    const sa = await serviceAccount(alice.cookie, "storage");
    const body = { integration_name: "storage", service_account_email: sa.service_account_email, credential_id: sa.credential_id, name: "Bucket", label: "Google Cloud Storage", project_id: "demo-project", bucket_name: "my-bucket" };
    const response = await post("/externalauth/storage/test_connection", alice.cookie, body);
    expect(response.status).toBe(200);
    const tested = await response.json();
    expect(tested).toMatchObject({ status: "success", credential_id: sa.credential_id });
    expect(gcs.requests.map((r) => `${r.method} ${r.path.split("/o")[0]}`)).toEqual(["POST /upload/storage/v1/b/my-bucket", "GET /storage/v1/b/my-bucket", "DELETE /storage/v1/b/my-bucket"]);
    expect(gcs.objects("my-bucket")).toEqual([]);

    const create = { name: "Bucket", description: "", integration_name: "storage", integration_label: "Google Cloud Storage", credential_id: sa.credential_id, service_account_email: SA_EMAIL, project_id: "demo-project", validation_token: tested.validation_token };
    await expectMessage(await post("/destinations/create", alice.cookie, { ...create, bucket_name: "other-bucket" }), 400, M.notTested);
    await expectMessage(await post("/destinations/create", bob.cookie, { ...create, bucket_name: "my-bucket" }), 400, M.notTested);
    const created = await post("/destinations/create", alice.cookie, { ...create, bucket_name: "my-bucket" });
    expect(created.status).toBe(201);
    const destination = (await created.json()).destination;
    expect(destination).toMatchObject({ category: "STORAGE", integration_label: "Google Cloud Storage", config: { project_id: "demo-project", bucket_name: "my-bucket", service_account_email: SA_EMAIL } });

    // Edit: a changed bucket needs a new successful test over the new values.
    await expectMessage(await call("PUT", `/destinations/update/${destination.id}`, alice.cookie, { name: "Bucket", project_id: "demo-project" }), 400, M.bucket);
    await expectMessage(await call("PUT", `/destinations/update/${destination.id}`, alice.cookie, { name: "Bucket", bucket_name: "my-bucket" }), 400, M.projectId);
    await expectMessage(await call("PUT", `/destinations/update/${destination.id}`, alice.cookie, { name: "Bucket", project_id: "demo-project", bucket_name: "new-bucket" }), 400, M.reauthenticate);
    expect((await call("PUT", `/destinations/update/${destination.id}`, alice.cookie, { name: "Renamed", project_id: "demo-project", bucket_name: "my-bucket" })).status).toBe(200);
    gcs.createBucket("new-bucket");
    const retest = await (await post("/externalauth/storage/test_connection", alice.cookie, { ...body, bucket_name: "new-bucket" })).json();
    const updated = await call("PUT", `/destinations/update/${destination.id}`, alice.cookie, { name: "Renamed", project_id: "demo-project", bucket_name: "new-bucket", credential_id: sa.credential_id, validation_token: retest.validation_token });
    expect(updated.status).toBe(200);
    expect((await updated.json()).destination.config.bucket_name).toBe("new-bucket");
  });

  it("storage: a failed test names what is missing", async () => {
    const sa = await serviceAccount(alice.cookie, "gcs");
    const body = { integration_name: "storage", credential_id: sa.credential_id, project_id: "demo-project", bucket_name: "my-bucket" };
    await expectMessage(await post("/externalauth/gcs/test_connection", alice.cookie, body), 422, /^Connection test failed: bucket my-bucket was not found/);
    gcs.createBucket("my-bucket").deny("my-bucket", "storage.objects.create");
    await expectMessage(await post("/externalauth/storage/test_connection", alice.cookie, body), 422, /^Connection test failed: .* cannot create objects in bucket my-bucket: it needs storage\.objects\.create/);
    gcs.reset();
    gcs.createBucket("my-bucket").deny("my-bucket", "storage.objects.delete");
    await expectMessage(await post("/externalauth/storage/test_connection", alice.cookie, body), 422, /storage\.objects\.delete/);
    await expectMessage(await post("/externalauth/storage/test_connection", alice.cookie, { ...body, project_id: "" }), 400, M.projectIdBeforeTest);
    await expectMessage(await post("/externalauth/storage/test_connection", alice.cookie, { ...body, bucket_name: undefined }), 400, M.bucketBeforeTest);
    await expectMessage(await post("/externalauth/storage/test_connection", bob.cookie, body), 400, "Integration details are missing. Please re-select the integration type.");
  });

  it("bigquery: dataset get and a dry-run query; query access needs no dataset", async () => {
    bigquery.createDataset("demo-project", "analytics");
    const sa = await serviceAccount(alice.cookie, "bigquery");
    const body = { integration_name: "bigquery", credential_id: sa.credential_id, project_id: "demo-project", dataset_name: "analytics" };
    const tested = await (await post("/externalauth/bigquery/test_connection", alice.cookie, body)).json();
    expect(tested.status).toBe("success");
    expect(bigquery.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /bigquery/v2/projects/demo-project/datasets/analytics", "POST /bigquery/v2/projects/demo-project/jobs"]);
    expect(bigquery.jobs[0]).toMatchObject({ dryRun: true });
    const created = await post("/destinations/create", alice.cookie, { name: "Warehouse", integration_name: "bigquery", credential_id: sa.credential_id, project_id: "demo-project", dataset_name: "analytics", validation_token: tested.validation_token });
    expect(created.status).toBe(201);
    expect((await created.json()).destination).toMatchObject({ category: "WAREHOUSE", config: { dataset_name: "analytics", permission_type: "dataset_write" } });

    await expectMessage(await post("/externalauth/bigquery/test_connection", alice.cookie, { ...body, dataset_name: "missing" }), 422, "Connection test failed: dataset missing was not found in project demo-project");
    await expectMessage(await post("/externalauth/bigquery/test_connection", alice.cookie, { ...body, dataset_name: undefined }), 400, M.datasetBeforeTest);
    const query = await post("/externalauth/bigquery/test_connection", alice.cookie, { ...body, dataset_name: undefined, permission_type: "dataset_query_access" });
    expect(query.status).toBe(200);
    bigquery.deny("demo-project", "bigquery.jobs.create");
    await expectMessage(await post("/externalauth/bigquery/test_connection", alice.cookie, body), 422, /needs bigquery\.jobs\.create/);
  });
});

describe("Snowflake (without a server)", () => {
  it("get_instructions returns setup SQL for the warehouse and the stage variant, with the password placeholder", async () => {
    const warehouse = await (await post("/externalauth/snowflake/get_instructions", alice.cookie, { category: "WAREHOUSE", account: "org-acct", user: "tributary", warehouse: "load_wh", database: "raw", schema: "meetings" })).json();
    expect(warehouse.sql).toContain("CREATE ROLE IF NOT EXISTS TRIBUTARY_ROLE;");
    expect(warehouse.sql).toContain("PASSWORD = '<YOUR_PASSWORD>'");
    expect(warehouse.sql).toContain("CREATE WAREHOUSE IF NOT EXISTS LOAD_WH");
    expect(warehouse.sql).toContain("GRANT USAGE ON WAREHOUSE LOAD_WH TO ROLE TRIBUTARY_ROLE;");
    expect(warehouse.sql).not.toContain("CREATE STAGE");
    expect(warehouse.steps.length).toBe(3);
    const stage = await (await post("/externalauth/snowflake/get_instructions", alice.cookie, { category: "STORAGE", user: "tributary", database: "raw", schema: "meetings", stage_name: "landing" })).json();
    expect(stage.sql).toContain("CREATE STAGE IF NOT EXISTS RAW.MEETINGS.LANDING;");
    expect(stage.sql).toContain("GRANT READ, WRITE ON STAGE RAW.MEETINGS.LANDING TO ROLE TRIBUTARY_ROLE;");
    expect(stage.sql).not.toContain("CREATE WAREHOUSE");
    await expectMessage(await post("/externalauth/snowflake/get_instructions", alice.cookie, { stage_name: "a-b" }), 400, M.stagePattern);
  });

  it("test_connection validates before connecting", async () => {
    const base = { category: "WAREHOUSE", account: "org-acct", user: "U", password: "pw", warehouse: "WH", database: "DB", schema: "S" };
    await expectMessage(await post("/externalauth/snowflake/test_connection", alice.cookie, { ...base, password: "" }), 400, M.password);
    await expectMessage(await post("/externalauth/snowflake/test_connection", alice.cookie, { ...base, account: "127.0.0.1:80/x" }), 400, /^Account identifier/);
    await expectMessage(await post("/externalauth/snowflake/test_connection", alice.cookie, { ...base, category: "STORAGE" }), 400, M.stageRequired);
    expect((await post("/externalauth/snowflake/test_connection", undefined, base)).status).toBe(401);
  });
});

describe("Snowflake against the fake server", () => {
  const PASSWORD = `pa'ss"word`;
  const base = { category: "WAREHOUSE", account: "org-acct", user: "loader", password: PASSWORD, warehouse: "load_wh", database: "raw", schema: "meetings" };
  const grant = () =>
    snowflake.addUser("LOADER", { password: PASSWORD, warehouses: ["LOAD_WH"], databases: ["RAW"], schemas: ["RAW.MEETINGS"], createTableIn: ["RAW.MEETINGS"], stages: ["RAW.MEETINGS.LANDING"] });

  it("tests the warehouse variant, seals the password, and create accepts the tested values", async () => {
    grant();
    const response = await post("/externalauth/snowflake/test_connection", alice.cookie, base);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain("pa'ss");
    const tested = JSON.parse(text);
    expect(tested).toMatchObject({ status: "success", message: "Connection successful" });
    expect(snowflake.logins).toEqual([{ account: "org-acct", user: "LOADER", ok: true }]);
    expect(snowflake.statements.map((s) => s.sqlText)).toEqual([
      "USE WAREHOUSE LOAD_WH",
      "USE DATABASE RAW",
      "USE SCHEMA RAW.MEETINGS",
      "CREATE TRANSIENT TABLE IF NOT EXISTS RAW.MEETINGS.TRIBUTARY_CONNECTION_TEST (CHECKED_AT TIMESTAMP_NTZ)",
      "DROP TABLE IF EXISTS RAW.MEETINGS.TRIBUTARY_CONNECTION_TEST",
    ]);
    const { rows } = await t.db.query("SELECT integration_name, secret, metadata FROM credentials WHERE id = $1", [tested.credential_id]);
    expect(rows[0].integration_name).toBe("snowflake");
    expect(rows[0].secret).toMatch(/^v1\./);
    expect(rows[0].secret).not.toContain("pa'ss");
    expect(JSON.stringify(rows[0].metadata)).not.toContain("pa'ss");

    const create = { name: "Snow", integration_name: "snowflake", ...base, credential_id: tested.credential_id, validation_token: tested.validation_token };
    await expectMessage(await post("/destinations/create", alice.cookie, { ...create, schema: "other" }), 400, M.notTested);
    await expectMessage(await post("/destinations/create", alice.cookie, { ...create, password: "not the tested one" }), 400, M.notTested);
    const created = await post("/destinations/create", alice.cookie, create);
    const createdText = await created.text();
    expect(created.status).toBe(201);
    expect(createdText).not.toContain("pa'ss");
    expect(JSON.parse(createdText).destination).toMatchObject({ category: "WAREHOUSE", integration_label: "Snowflake", config: { account: "org-acct", user: "LOADER", warehouse: "LOAD_WH", database: "RAW", schema: "MEETINGS" } });
    const listed = await (await get(t, "/destinations/list-all", alice.cookie)).text();
    expect(listed).not.toContain("pa'ss");
  });

  it("tests the stage variant (category STORAGE) by listing the stage", async () => {
    grant();
    const stage = { ...base, category: "STORAGE", warehouse: undefined, stage_name: "landing" };
    const tested = await (await post("/externalauth/snowflake/test_connection", alice.cookie, stage)).json();
    expect(tested.status).toBe("success");
    expect(snowflake.statements.map((s) => s.sqlText)).toContain("LIST @RAW.MEETINGS.LANDING");
    const created = await post("/destinations/create", alice.cookie, { name: "Stage", integration_name: "snowflake_stage", ...stage, credential_id: tested.credential_id, validation_token: tested.validation_token });
    expect(created.status).toBe(201);
    expect((await created.json()).destination).toMatchObject({ category: "STORAGE", config: { stage_name: "LANDING" } });
    await expectMessage(await post("/externalauth/snowflake/test_connection", alice.cookie, { ...stage, stage_name: "missing" }), 422, /^Connection test failed: the user cannot read stage RAW\.MEETINGS\.MISSING/);
  });

  it("names what is missing; a wrong password is the spec's credentials message", async () => {
    await expectMessage(await post("/externalauth/snowflake/test_connection", alice.cookie, base), 422, M.credentialsFailed);
    snowflake.addUser("LOADER", { password: PASSWORD, warehouses: [], databases: ["RAW"], schemas: ["RAW.MEETINGS"] });
    await expectMessage(await post("/externalauth/snowflake/test_connection", alice.cookie, base), 422, /^Connection test failed: the user cannot use warehouse LOAD_WH: grant USAGE/);
    snowflake.addUser("LOADER", { password: PASSWORD, warehouses: ["LOAD_WH"], databases: ["RAW"], schemas: ["RAW.MEETINGS"] });
    await expectMessage(await post("/externalauth/snowflake/test_connection", alice.cookie, base), 422, /cannot create tables in RAW\.MEETINGS/);
  });
});
