import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { SilentServer } from "../fakes/silent-server.js";
import { writerFor } from "../../backend/integrations/destinations/index.js";
import { localFolder, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { writeBatch } from "../../backend/sync/index.js";
import { TOO_MANY_CONNECTION_TESTS } from "../../backend/lib/outbound.js";
import type { PluginDestination } from "../../backend/integrations/destinations/plugin.js";

/**
 * Issue #24: every call made for a user is bounded. "Unreachable" hosts are a local TCP server that accepts and
 * never answers (SilentServer); nothing here leaves loopback.
 */
let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };
const silent = new SilentServer();
const SA_KEY = JSON.stringify({
  type: "service_account",
  project_id: "tributary-test",
  client_email: "tributary-platform@tributary-test.iam.gserviceaccount.com",
  private_key: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }),
});
const SNOWFLAKE = { category: "WAREHOUSE", account: "org-acct", user: "loader", password: "pw", warehouse: "load_wh", database: "raw", schema: "meetings" };

function post(route: string, cookie: string, body: unknown) {
  return fetch(`${t.url}${route}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** Status, message and how long the answer took. */
async function timed(request: Promise<Response>) {
  const started = Date.now();
  const response = await request;
  const body = (await response.json()) as { message?: string };
  return { status: response.status, message: body.message ?? "", ms: Date.now() - started };
}

async function serviceAccount(cookie: string, integration: "storage" | "bigquery") {
  const response = await post(`/externalauth/${integration}/service_account`, cookie, { integration_name: integration });
  expect(response.status).toBe(200);
  return (await response.json()) as { credential_id: string };
}

beforeAll(async () => {
  await silent.start();
  process.env.SNOWFLAKE_HOST_OVERRIDE = silent.url;
  process.env.GCS_API_ENDPOINT = silent.url;
  process.env.BIGQUERY_API_ENDPOINT = silent.url;
  process.env.GOOGLE_SERVICE_ACCOUNT_KEY = SA_KEY;
  t = await startTestBackend();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
});
afterAll(async () => {
  await t?.stop();
  await silent.stop();
  delete process.env.CONNECTION_TEST_TIMEOUT_SECONDS;
});
beforeEach(() => {
  process.env.CONNECTION_TEST_TIMEOUT_SECONDS = "2";
});

describe("connection tests to a host that never answers", () => {
  // "Within its timeout": 2 s, plus a generous margin for a busy machine (and the first use's loading of the
  // Snowflake SDK); before, Snowflake held the request ~160 s.
  const BOUND_MS = 2_000 + 10_000;

  it("Snowflake (warehouse and stage) answers 504 with the spec's 'Connection test failed: …' within the timeout", { timeout: 30_000 }, async () => {
    const warehouse = await timed(post("/externalauth/snowflake/test_connection", alice.cookie, SNOWFLAKE));
    expect(warehouse).toMatchObject({ status: 504, message: expect.stringMatching(/^Connection test failed: Snowflake account org-acct did not answer within 2 seconds\./) });
    expect(warehouse.ms).toBeLessThan(BOUND_MS);
    const stage = await timed(post("/externalauth/snowflake_stage/test_connection", alice.cookie, { ...SNOWFLAKE, category: "STORAGE", warehouse: undefined, stage_name: "landing" }));
    expect(stage).toMatchObject({ status: 504, message: expect.stringMatching(/^Connection test failed: Snowflake account org-acct did not answer within 2 seconds/) });
    expect(stage.ms).toBeLessThan(BOUND_MS);
    expect(silent.connections).toBeGreaterThan(0);
    // Nothing was stored for a test that failed.
    const { rows } = await t.db.query("SELECT id FROM credentials WHERE integration_name LIKE 'snowflake%'");
    expect(rows).toEqual([]);
  });

  it("Cloud Storage answers 504 within the timeout", { timeout: 30_000 }, async () => {
    const sa = await serviceAccount(alice.cookie, "storage");
    const answer = await timed(post("/externalauth/storage/test_connection", alice.cookie, { integration_name: "storage", credential_id: sa.credential_id, project_id: "demo-project", bucket_name: "my-bucket" }));
    expect(answer).toMatchObject({ status: 504, message: "Connection test failed: Google Cloud Storage did not answer within 2 seconds. Please try again later." });
    expect(answer.ms).toBeLessThan(BOUND_MS);
  });

  it("BigQuery answers 504 within the timeout", { timeout: 30_000 }, async () => {
    const sa = await serviceAccount(alice.cookie, "bigquery");
    const answer = await timed(post("/externalauth/bigquery/test_connection", alice.cookie, { integration_name: "bigquery", credential_id: sa.credential_id, project_id: "demo-project", dataset_name: "analytics" }));
    expect(answer).toMatchObject({ status: 504, message: "Connection test failed: BigQuery did not answer within 2 seconds. Please try again later." });
    expect(answer.ms).toBeLessThan(BOUND_MS);
  });

  it("the timeout follows CONNECTION_TEST_TIMEOUT_SECONDS", { timeout: 30_000 }, async () => {
    process.env.CONNECTION_TEST_TIMEOUT_SECONDS = "1";
    const answer = await timed(post("/externalauth/snowflake/test_connection", alice.cookie, SNOWFLAKE));
    expect(answer).toMatchObject({ status: 504, message: expect.stringMatching(/did not answer within 1 second\./) });
    expect(answer.ms).toBeLessThan(1_000 + 10_000);
  });
});

describe("source sign-in and verification calls to a provider that never answers", () => {
  const BOUND_MS = 2_000 + 10_000;
  const PRIVATE_KEY = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" });
  beforeAll(() => {
    Object.assign(process.env, {
      ZOOM_CLIENT_ID: "zoom-client",
      ZOOM_CLIENT_SECRET: "zoom-secret",
      ZOOM_OAUTH_BASE_URL: silent.url,
      ZOOM_API_BASE_URL: silent.url,
      TEAMS_CLIENT_ID: "teams-client",
      TEAMS_CLIENT_SECRET: "teams-secret",
      MICROSOFT_LOGIN_BASE_URL: silent.url,
      MICROSOFT_GRAPH_BASE_URL: silent.url,
      GMAIL_SERVICE_ACCOUNT_KEY: JSON.stringify({ client_email: "reader@tributary-test.iam.gserviceaccount.com", private_key: PRIVATE_KEY, client_id: "1234567890" }),
      GOOGLE_TOKEN_URL: `${silent.url}/token`,
      GOOGLE_ADMIN_BASE_URL: silent.url,
      GMAIL_API_BASE_URL: silent.url,
    });
  });

  it("Zoom: the code exchange answers 504 within the timeout", { timeout: 30_000 }, async () => {
    const answer = await timed(post("/externalauth/zoom/callback", alice.cookie, { code: "a-code" }));
    expect(answer).toMatchObject({ status: 504, message: "Zoom did not answer the authorization code within 2 seconds. Please try again." });
    expect(answer.ms).toBeLessThan(BOUND_MS);
  });

  it("Microsoft: the admin-consent check answers 504 within the timeout", { timeout: 30_000 }, async () => {
    const answer = await timed(post("/externalauth/teams/callback", alice.cookie, { tenant: "0b7a4c1e-1d2f-4a5b-9c8d-7e6f5a4b3c2d", admin_consent: "True" }));
    expect(answer).toMatchObject({ status: 504, message: "Microsoft's sign-in service did not answer within 2 seconds. Please try again." });
    expect(answer.ms).toBeLessThan(BOUND_MS);
  });

  it("Google: Gmail's test connection answers 504 within the timeout and records nothing", { timeout: 30_000 }, async () => {
    const callback = await post("/externalauth/gmail/callback", alice.cookie, { mode: "service_account_verified" });
    expect(callback.status).toBe(200);
    const { credential_id } = (await callback.json()) as { credential_id: string };
    const answer = await timed(post("/externalauth/gmail/test_connection", alice.cookie, { credential_id, admin_email: "admin@example.com" }));
    expect(answer).toMatchObject({ status: 504, message: expect.stringMatching(/^Google did not answer within 2 seconds to read admin@example\.com's mailbox\. Please try again\.$/) });
    expect(answer.ms).toBeLessThan(BOUND_MS);
    const { rows } = await t.db.query<{ metadata: Record<string, unknown> }>("SELECT metadata FROM credentials WHERE id = $1", [credential_id]);
    expect(rows[0]!.metadata.verification).toBeUndefined();
  });
});

describe("at most three connection tests of one user at once", () => {
  it("the 4th gets 429 at once while another user's test still runs; the cap frees up as tests end", { timeout: 60_000 }, async () => {
    process.env.CONNECTION_TEST_TIMEOUT_SECONDS = "4";
    const running = [1, 2, 3].map(() => timed(post("/externalauth/snowflake/test_connection", alice.cookie, SNOWFLAKE)));
    // Let the three reach the backend before the fourth.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const fourth = await timed(post("/externalauth/snowflake/test_connection", alice.cookie, SNOWFLAKE));
    expect(fourth).toMatchObject({ status: 429, message: TOO_MANY_CONNECTION_TESTS });
    expect(fourth.ms).toBeLessThan(2_000);
    const bobs = await timed(post("/externalauth/snowflake/test_connection", bob.cookie, SNOWFLAKE));
    expect(bobs.status).toBe(504);
    for (const answer of await Promise.all(running)) expect(answer.status).toBe(504);
    // All three ended: alice may test again.
    process.env.CONNECTION_TEST_TIMEOUT_SECONDS = "1";
    expect((await timed(post("/externalauth/snowflake/test_connection", alice.cookie, SNOWFLAKE))).status).toBe(504);
  });
});

describe("a local destination's write errors name the problem, never the server's folders", () => {
  let folder: string;
  let root: string;
  const destination = (): PluginDestination => ({ id: "00000000-0000-4000-8000-000000000001", name: "Disk", integrationName: "local", config: { folder }, credentialId: null });

  beforeEach(() => {
    folder = localFolder(alice.userId, `d-${Date.now()}`);
    root = resolveLocalRoot(t.dataDir, folder);
    mkdirSync(root, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const withoutPaths = (message: string) => {
    expect(message).not.toContain(t.dataDir);
    expect(message).not.toContain(root);
    expect(message).not.toMatch(/(^|[\s"'(])\/(tmp|srv|home|root|var|work)\b/);
  };

  it("files: the run's error says what is wrong with the folder", async () => {
    // A plain file where the files folder should be: the OS refuses every write (as an unwritable folder would).
    writeFileSync(path.join(root, "files"), "not a folder");
    const writer = await writerFor(destination(), alice.userId, { db: undefined as never, secrets: undefined as never, config: { DATA_DIR: t.dataDir } });
    let message = "";
    try {
      await writeBatch([{ name: "Disk", writer }], { objects: [{ path: "zoom/a/b.json", body: "{}" }], tables: [] } as unknown as Parameters<typeof writeBatch>[1]);
    } catch (error) {
      message = (error as Error).message;
    } finally {
      await writer.close().catch(() => {});
    }
    expect(message).toMatch(/^Writing to destination "Disk" failed: ENOTDIR: a file stands where the destination's folder needs a folder$/);
    withoutPaths(message);
  });

  it("rows: the warehouse file's error keeps DuckDB's reason without the path", async () => {
    // A folder where the warehouse file should be.
    mkdirSync(path.join(root, "warehouse.duckdb"));
    const writer = await writerFor(destination(), alice.userId, { db: undefined as never, secrets: undefined as never, config: { DATA_DIR: t.dataDir } });
    let message = "";
    try {
      await writeBatch([{ name: "Disk", writer }], { objects: [], tables: [{ table: "meetings", rows: [{ id: "m1", title: "x" }], key: ["id"] }] } as unknown as Parameters<typeof writeBatch>[1]);
    } catch (error) {
      message = (error as Error).message;
    } finally {
      await writer.close().catch(() => {});
    }
    expect(message).toMatch(/^Writing to destination "Disk" failed: /);
    expect(message.length).toBeGreaterThan('Writing to destination "Disk" failed: '.length + 5);
    withoutPaths(message);
  });
});
