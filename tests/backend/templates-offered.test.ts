import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { syncConnector } from "../../backend/sync/index.js";
import { SecretBox } from "../../backend/lib/crypto.js";
import { previewResponseSchema, TRANSFORM_MESSAGES as M } from "../../contract/transforms.js";
import { startFakeGoogle, type FakeGoogle } from "../fakes/google-admin.js";

/**
 * Which templates a connector is offered (backend/transforms/offer.ts), over real HTTP: a Gmail connector the e-mail
 * templates, a meeting connector the transcript ones; the wizard's lists follow ?connector_id=, and create and preview
 * refuse a template whose data the connector's source does not sync, with a sentence that says why.
 */

let t: TestBackend;
let handle: DatabaseHandle;
let google: FakeGoogle;
let cookie: string;
let other: string;
let gmailConnector: string;
let meetingConnector: string;

async function call(method: string, route: string, body?: unknown, as = cookie) {
  const response = await fetch(`${t.url}${route}`, {
    method,
    headers: { cookie: as, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function connector(source: Record<string, unknown>, credential: { status: number; body: { credential_id: string } }) {
  expect(credential.status).toBe(200);
  const created = await call("POST", "/sources/create", { ...source, credentialId: credential.body.credential_id });
  expect(created.status).toBe(201);
  const destination = await call("POST", "/destinations/create", { name: `Disk ${Math.random()}`, integration_name: "local" });
  expect(destination.status).toBe(201);
  const made = await call("POST", "/connectors/create", { first_sync: false, name: `Sync ${Math.random()}`, description: "", frequency: "daily", source_id: created.body.id, destination_ids: [destination.body.destination.id], lookback_days: 7 });
  expect(made.status).toBe(201);
  return made.body.id as string;
}

beforeAll(async () => {
  t = await startTestBackend();
  handle = connectDatabase(t.db.options.connectionString!, 2);
  google = await startFakeGoogle();
  Object.assign(process.env, { GMAIL_SERVICE_ACCOUNT_KEY: google.serviceAccountKey, GOOGLE_TOKEN_URL: google.tokenUrl, GOOGLE_ADMIN_BASE_URL: google.url, GMAIL_API_BASE_URL: google.url });
  cookie = (await createUserSession(t, "offered@example.com")).cookie;
  other = (await createUserSession(t, "someone-else@example.com")).cookie;
  gmailConnector = await connector(
    { name: "All mail", integration_name: "gmail", integration_label: "Gmail", source_metadata: { gmail_extraction_scope: "ORG", admin_email: "admin@acme.example" } },
    await call("POST", "/externalauth/gmail/callback", { mode: "service_account" }),
  );
  meetingConnector = await connector(
    { name: "Calls", integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme Rockets", format: "zoom" } },
    await call("POST", "/externalauth/datagen/callback", {}),
  );
});
afterAll(async () => {
  await handle?.close();
  await t?.stop();
  await google?.close();
});

const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe("templates offered to a connector", () => {
  it("without a connector: every category and template", async () => {
    expect(ids((await call("GET", "/templates/categories")).body.categories)).toEqual(["conversation_intelligence", "sales_insights", "coaching", "email_insights"]);
    expect(ids((await call("GET", "/templates/categories/email_insights/templates")).body.templates)).toEqual(["email_response_time", "email_sentiment", "email_correspondents"]);
  });

  it("a Gmail connector: the e-mail insights only", async () => {
    const q = `?connector_id=${gmailConnector}`;
    expect((await call("GET", `/templates/categories${q}`)).body).toEqual({ categories: [{ id: "email_insights", name: "E-mail insights" }] });
    expect(ids((await call("GET", `/templates/categories/email_insights/templates${q}`)).body.templates)).toEqual(["email_response_time", "email_sentiment", "email_correspondents"]);
    expect(await call("GET", `/templates/categories/conversation_intelligence/templates${q}`)).toEqual({ status: 200, body: { templates: [] } });
  });

  it("a meeting connector: the transcript templates only", async () => {
    const q = `?connector_id=${meetingConnector}`;
    expect(ids((await call("GET", `/templates/categories${q}`)).body.categories)).toEqual(["conversation_intelligence", "sales_insights", "coaching"]);
    expect((await call("GET", `/templates/categories/email_insights/templates${q}`)).body.templates).toEqual([]);
  });

  it("another user's connector, or none such: 404", async () => {
    expect(await call("GET", `/templates/categories?connector_id=${gmailConnector}`, undefined, other)).toEqual({ status: 404, body: { message: M.connectorNotFound } });
    expect((await call("GET", "/templates/categories/coaching/templates?connector_id=nope")).status).toBe(404);
  });

  it("preview and create refuse a template the connector is not offered, saying why", async () => {
    const preview = await call("POST", "/templates/topic_modeling/preview", { template_id: "topic_modeling", connector_id: gmailConnector });
    expect(preview).toEqual({ status: 400, body: { message: "Topic modeling reads transcripts, which a Gmail connector does not sync. Choose one of the templates offered for this connector.", field: "template_id" } });
    const create = await call("POST", "/transforms/create", { template_id: "email_sentiment", name: "Mail mood", connector_id: meetingConnector, permissions_setup: true });
    expect(create).toEqual({
      status: 400,
      body: { message: "E-mail sentiment over time reads e-mail messages, which a Data Generator connector does not sync. Choose one of the templates offered for this connector.", field: "template_id" },
    });
  });

  it("an e-mail template's preview counts the synced messages, and its setup steps speak of them", async () => {
    const services = { db: handle.db, secrets: new SecretBox("x".repeat(43)), config: { DATA_DIR: t.dataDir } };
    const synced = await syncConnector(services, gmailConnector, new Date());
    expect(synced.records).toBeGreaterThan(0);
    const preview = await call("POST", "/templates/email_response_time/preview", { template_id: "email_response_time", connector_id: gmailConnector, file_types: [".txt"] });
    expect(preview.status).toBe(200);
    expect(previewResponseSchema.parse(preview.body)).toMatchObject({ record_count: synced.records, template_name: "E-mail response time", transform_type: "email_response_time", connector_file_types: [".txt", ".json"] });
    const steps = (await call("GET", `/templates/email_response_time/setup-steps?connector_id=${gmailConnector}`)).body.steps;
    expect(steps[0]).toMatchObject({ title: "Connect the e-mail messages", instructions: ["Make sure the connector has synced at least once: the preview shows how many e-mail messages the transform would read."] });
    expect(steps[0].description).toMatch(/^The transform reads the email_messages table that the connector synced into /);
    const config = (await call("GET", "/transforms/config")).body;
    expect(config.transform_types).toEqual(expect.arrayContaining([{ value: "email_correspondents", label: "E-mail Correspondents" }]));
  });
});
