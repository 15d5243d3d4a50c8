import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { SOURCE_MESSAGES } from "../../contract/sources.js";

let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };

function send(method: string, path: string, cookie: string | undefined, body?: unknown, raw?: string) {
  return fetch(`${t.url}${path}`, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined || raw !== undefined ? { "content-type": "application/json" } : {}) },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
}
const post = (path: string, cookie: string | undefined, body?: unknown) => send("POST", path, cookie, body);

async function datagenCredential(cookie: string): Promise<string> {
  const response = await post("/externalauth/datagen/callback", cookie);
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body).toMatchObject({ setup_verified: true, instructions: null });
  return body.credential_id;
}

async function createDatagen(cookie: string, name = "Demo data", extra: Record<string, unknown> = {}) {
  const credentialId = await datagenCredential(cookie);
  const response = await post("/sources/create", cookie, {
    name,
    description: "Synthetic meetings",
    credentialId,
    integration_name: "datagen",
    integration_label: "Data Generator",
    source_metadata: { company: "Acme", format: "gong" },
    ...extra,
  });
  expect(response.status).toBe(201);
  return response.json();
}

beforeAll(async () => {
  t = await startTestBackend();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
});
afterAll(async () => {
  await t?.stop();
});

describe("GET /integrations/sources", () => {
  it("lists zoom, teams, gmail, meet, outlook and datagen with labels under data.sources", async () => {
    const response = await get(t, "/integrations/sources", alice.cookie);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data.sources.map((s: { name: string }) => s.name)).toEqual(["zoom", "teams", "gmail", "meet", "outlook", "datagen"]);
    for (const s of body.data.sources) expect(typeof s.label).toBe("string");
  });
  it("needs a session", async () => {
    expect((await get(t, "/integrations/sources")).status).toBe(401);
  });
});

describe("datagen source: create, read, update, delete", () => {
  it("creates an active source with its metadata and reads it back", async () => {
    const created = await createDatagen(alice.cookie, "  Demo data  ");
    expect(created).toMatchObject({
      name: "Demo data",
      description: "Synthetic meetings",
      integration_name: "datagen",
      integration_label: "Data Generator",
      type: "datagen",
      status: "active",
      connector_count: 0,
      source_metadata: { company: "Acme", format: "gong" },
    });
    const one = await (await get(t, `/sources/list-by-id/${created.id}`, alice.cookie)).json();
    expect(one.id).toBe(created.id);
    const all = await (await get(t, "/sources/list-all", alice.cookie)).json();
    expect(all.map((s: { id: string }) => s.id)).toContain(created.id);
    const paged = await (await get(t, "/sources/list", alice.cookie)).json();
    expect(paged.map((s: { id: string }) => s.id)).toContain(created.id);
  });

  it("updates name and description, and refuses a blank name", async () => {
    const created = await createDatagen(alice.cookie, "Before");
    const ok = await send("PUT", `/sources/update/${created.id}`, alice.cookie, { name: " After ", description: "new words" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ name: "After", description: "new words" });
    const stored = await (await get(t, `/sources/list-by-id/${created.id}`, alice.cookie)).json();
    expect(stored).toMatchObject({ name: "After", description: "new words", integration_name: "datagen" });
    expect(stored.updated_at).not.toBeNull();
    const blank = await send("PUT", `/sources/update/${created.id}`, alice.cookie, { name: "   ", description: "" });
    expect(blank.status).toBe(400);
    expect((await blank.json()).message).toBe(SOURCE_MESSAGES.nameRequired);
  });

  it("deletes a source and its credential; a second delete is a 404", async () => {
    const created = await createDatagen(alice.cookie, "Short lived");
    const response = await send("DELETE", `/sources/delete/${created.id}`, alice.cookie);
    expect(response.status).toBe(200);
    expect((await t.db.query("SELECT 1 FROM credentials WHERE id = $1", [created.credentialId])).rowCount).toBe(0);
    const again = await send("DELETE", `/sources/delete/${created.id}`, alice.cookie);
    expect(again.status).toBe(404);
    expect((await again.json()).message).toBe(SOURCE_MESSAGES.notFound);
  });

  it("refuses to delete a source that connectors use, naming them", async () => {
    const created = await createDatagen(alice.cookie, "In use");
    await t.db.query("INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days) VALUES ($1, 'Nightly sync', $2, 'daily', 7)", [alice.userId, created.id]);
    await t.db.query("INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days) VALUES ($1, 'Hourly sync', $2, 'hourly', 1)", [alice.userId, created.id]);
    const response = await send("DELETE", `/sources/delete/${created.id}`, alice.cookie);
    expect(response.status).toBe(409);
    const { message } = await response.json();
    expect(message).toContain('"Hourly sync", "Nightly sync"');
    expect(message).toMatch(/2 connectors use it/);
    expect((await get(t, `/sources/list-by-id/${created.id}`, alice.cookie)).status).toBe(200);
    const count = await (await get(t, `/sources/list-by-id/${created.id}`, alice.cookie)).json();
    expect(count.connector_count).toBe(2);
  });
});

describe("isolation", () => {
  it("another user's source is a 404 Source not found for read, update and delete", async () => {
    const mine = await createDatagen(alice.cookie, "Alice's own");
    for (const response of [
      await get(t, `/sources/list-by-id/${mine.id}`, bob.cookie),
      await send("PUT", `/sources/update/${mine.id}`, bob.cookie, { name: "Stolen", description: "" }),
      await send("DELETE", `/sources/delete/${mine.id}`, bob.cookie),
    ]) {
      expect(response.status).toBe(404);
      expect((await response.json()).message).toBe(SOURCE_MESSAGES.notFound);
    }
    const all = await (await get(t, "/sources/list-all", bob.cookie)).json();
    expect(all.map((s: { id: string }) => s.id)).not.toContain(mine.id);
    expect((await get(t, `/sources/list-by-id/${mine.id}`, alice.cookie)).status).toBe(200);
    const stored = await (await get(t, `/sources/list-by-id/${mine.id}`, alice.cookie)).json();
    expect(stored.name).toBe("Alice's own");
  });

  it("another user's credential cannot be used to create a source", async () => {
    const credentialId = await datagenCredential(alice.cookie);
    const response = await post("/sources/create", bob.cookie, { name: "X", credentialId, integration_name: "datagen", source_metadata: { format: "zoom" } });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(SOURCE_MESSAGES.mustAuthenticate);
  });

  it("every call needs a session", async () => {
    for (const [method, path] of [
      ["GET", "/sources/list-all"],
      ["GET", "/sources/list-by-id/x"],
      ["POST", "/sources/create"],
      ["PUT", "/sources/update/x"],
      ["DELETE", "/sources/delete/x"],
      ["POST", "/externalauth/datagen/callback"],
      ["GET", "/externalauth/zoom/auth_url"],
      ["POST", "/externalauth/zoom/callback"],
      ["POST", "/externalauth/zoom/get-groups"],
    ] as const) {
      const response = await send(method, path, undefined, method === "GET" ? undefined : {});
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe("POST /sources/create refuses bad bodies with 4xx and a message", () => {
  let credentialId: string;
  beforeAll(async () => {
    credentialId = await datagenCredential(alice.cookie);
  });
  const base = () => ({ name: "Ok", description: "", credentialId, integration_name: "datagen", source_metadata: { company: "Acme", format: "zoom" } });
  it.each([
    ["a blank name", { name: "  " }, SOURCE_MESSAGES.nameRequired],
    ["no name", { name: undefined }, SOURCE_MESSAGES.nameRequired],
    ["a numeric name", { name: 42 }, SOURCE_MESSAGES.nameRequired],
    ["no integration", { integration_name: undefined }, SOURCE_MESSAGES.integrationRequired],
    ["an unknown integration", { integration_name: "myspace" }, SOURCE_MESSAGES.integrationRequired],
    ["no credential", { credentialId: undefined }, SOURCE_MESSAGES.mustAuthenticate],
    ["a made-up credential", { credentialId: "00000000-0000-4000-8000-000000000000" }, SOURCE_MESSAGES.mustAuthenticate],
    ["a non-uuid credential", { credentialId: "abc" }, SOURCE_MESSAGES.mustAuthenticate],
    ["a 101-character company", { source_metadata: { company: "x".repeat(101), format: "zoom" } }, SOURCE_MESSAGES.companyTooLong],
    ["an unknown data style", { source_metadata: { company: "Acme", format: "webex" } }, SOURCE_MESSAGES.formatRequired],
    ["a credential of another integration", { integration_name: "zoom", source_metadata: { zoom_extraction_scope: "ORG" } }, SOURCE_MESSAGES.mustAuthenticate],
    ["zoom group scope without a group", { integration_name: "zoom", source_metadata: { zoom_extraction_scope: "GROUP" } }, SOURCE_MESSAGES.zoomGroupRequired],
    ["gmail without admin e-mail", { integration_name: "gmail", source_metadata: { gmail_extraction_scope: "ORG" } }, SOURCE_MESSAGES.adminEmailRequired],
    ["gmail group scope without a group", { integration_name: "gmail", source_metadata: { gmail_extraction_scope: "GROUP", admin_email: "admin@example.com" } }, SOURCE_MESSAGES.gmailGroupRequired],
  ])("%s", async (_what, change, message) => {
    const response = await post("/sources/create", alice.cookie, { ...base(), ...change });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect((await response.json()).message).toBe(message);
  });

  it("accepts exactly 100 characters of company", async () => {
    const response = await post("/sources/create", alice.cookie, { ...base(), source_metadata: { company: "x".repeat(100), format: "zoom" } });
    expect(response.status).toBe(201);
  });

  it("answers non-JSON, broken JSON and non-object bodies with 4xx", async () => {
    const plain = await fetch(`${t.url}/sources/create`, { method: "POST", headers: { cookie: alice.cookie, "content-type": "text/plain" }, body: "hi" });
    expect(plain.status).toBe(415);
    const broken = await send("POST", "/sources/create", alice.cookie, undefined, "{not json");
    expect(broken.status).toBe(400);
    for (const raw of ["[]", "null", '"text"', "42"]) {
      const response = await send("POST", "/sources/create", alice.cookie, undefined, raw);
      expect(response.status, raw).toBe(400);
      expect(typeof (await response.json()).message).toBe("string");
    }
    // An update finds its record first (another's or a missing one is a 404 whatever the body), then checks the body.
    const own = await createDatagen(alice.cookie, "Body check");
    const update = await send("PUT", `/sources/update/${own.id}`, alice.cookie, undefined, "[1]");
    expect(update.status).toBe(400);
    expect(typeof (await update.json()).message).toBe("string");
    expect((await send("PUT", "/sources/update/00000000-0000-4000-8000-000000000000", alice.cookie, undefined, "[1]")).status).toBe(404);
  });
});
