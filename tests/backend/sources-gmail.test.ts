import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { APP_URL, createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { startFakeGoogle, type FakeGoogle } from "../fakes/google-admin.js";
import { SOURCE_MESSAGES } from "../../contract/sources.js";

let t: TestBackend;
let google: FakeGoogle;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };

const post = (path: string, cookie: string | undefined, body?: unknown) =>
  fetch(`${t.url}${path}`, { method: "POST", headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });

function configure() {
  process.env.GMAIL_SERVICE_ACCOUNT_KEY = google.serviceAccountKey;
  process.env.GOOGLE_TOKEN_URL = google.tokenUrl;
  process.env.GOOGLE_ADMIN_BASE_URL = google.url;
  process.env.GMAIL_API_BASE_URL = google.url;
  process.env.GMAIL_OAUTH_CLIENT_ID = google.oauthClientId;
  process.env.GMAIL_OAUTH_CLIENT_SECRET = google.oauthClientSecret;
  process.env.GOOGLE_OAUTH_AUTH_URL = google.authUrl;
}

async function authenticate(cookie: string, mode: string) {
  const response = await post("/externalauth/gmail/callback", cookie, { mode });
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  t = await startTestBackend();
  google = await startFakeGoogle();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
});
beforeEach(() => {
  configure();
  google.setDelegationGranted(true);
});
afterAll(async () => {
  await google?.close();
  await t?.stop();
});

describe("Gmail auth options and callback", () => {
  it("lists the modes, the default first", async () => {
    const body = await (await get(t, "/externalauth/gmail/get_auth_options", alice.cookie)).json();
    expect(body.options.map((o: { mode: string }) => o.mode)).toEqual(["service_account", "service_account_verified", "individual"]);
    expect(body.default).toBe("service_account");
    for (const o of body.options) expect(o.label).toEqual(expect.any(String));
  });

  it("says which variable to set when Gmail is not configured", async () => {
    delete process.env.GMAIL_SERVICE_ACCOUNT_KEY;
    const response = await post("/externalauth/gmail/callback", alice.cookie, { mode: "service_account" });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe("Gmail is not configured on this server. Set GMAIL_SERVICE_ACCOUNT_KEY in the backend's environment to enable it.");
  });

  it("the default mode is verified at once and returns delegation instructions with the client id, never the key", async () => {
    const response = await post("/externalauth/gmail/callback", alice.cookie, { mode: "service_account" });
    const text = await response.text();
    expect(text).not.toContain("PRIVATE KEY");
    const body = JSON.parse(text);
    expect(body.setup_verified).toBe(true);
    expect(JSON.stringify(body.instructions)).toContain(google.key.client_id);
    const { rows } = await t.db.query("SELECT metadata, secret FROM credentials WHERE id = $1", [body.credential_id]);
    expect(rows[0].metadata).toMatchObject({ mode: "service_account", service_account_email: google.key.client_email });
    expect(JSON.stringify(rows[0])).not.toContain("PRIVATE KEY");
  });

  it("the other mode needs a test connection; a bad mode is a 400 with the spec's message", async () => {
    expect((await authenticate(alice.cookie, "service_account_verified")).setup_verified).toBe(false);
    const bad = await post("/externalauth/gmail/callback", alice.cookie, { mode: "carrier-pigeon" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe(SOURCE_MESSAGES.gmailAuthTypeRequired);
  });
});

describe("Gmail groups and test connection against the fake Google", () => {
  it("get-groups lists the Workspace's groups through domain-wide delegation as the admin", async () => {
    const { credential_id } = await authenticate(alice.cookie, "service_account");
    google.requests.length = 0;
    const response = await post("/externalauth/gmail/get-groups", alice.cookie, { credential_id, admin_email: "admin@acme.example" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      groups: [
        { id: "03x8tuzt1h1n4bb", name: "Sales", email: "sales@acme.example" },
        { id: "01egqt2p2qcpl9f", name: "Support", email: "support@acme.example" },
      ],
    });
    expect(google.requests.find((r) => r.path === "/token")?.subject).toBe("admin@acme.example");
  });

  it("get-groups as a non-admin is refused with Google's reason (4xx/502, never 500)", async () => {
    const { credential_id } = await authenticate(alice.cookie, "service_account");
    const response = await post("/externalauth/gmail/get-groups", alice.cookie, { credential_id, admin_email: "sam@acme.example" });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toBe("Google refused to list the Workspace's groups: Not Authorized to access this resource/api.");
  });

  it("get-groups bad bodies and other users' credentials", async () => {
    const { credential_id } = await authenticate(alice.cookie, "service_account");
    const noEmail = await post("/externalauth/gmail/get-groups", alice.cookie, { credential_id });
    expect(noEmail.status).toBe(400);
    expect((await noEmail.json()).message).toBe(SOURCE_MESSAGES.adminEmailRequired);
    const badEmail = await post("/externalauth/gmail/get-groups", alice.cookie, { credential_id, admin_email: "not-an-email" });
    expect((await badEmail.json()).message).toBe(SOURCE_MESSAGES.adminEmailInvalid);
    const stolen = await post("/externalauth/gmail/get-groups", bob.cookie, { credential_id, admin_email: "admin@acme.example" });
    expect(stolen.status).toBe(404);
  });

  it("test_connection fails while delegation is not granted, then succeeds; only a verified setup may be created", async () => {
    const { credential_id } = await authenticate(alice.cookie, "service_account_verified");
    const create = () =>
      post("/sources/create", alice.cookie, {
        name: "Mail",
        credentialId: credential_id,
        integration_name: "gmail",
        source_metadata: { gmail_extraction_scope: "ORG", admin_email: "admin@acme.example", gmail_auth_mode: "service_account_verified" },
      });
    const unverified = await create();
    expect(unverified.status).toBe(400);
    expect((await unverified.json()).message).toBe(SOURCE_MESSAGES.mustVerify);

    google.setDelegationGranted(false);
    const failed = await post("/externalauth/gmail/test_connection", alice.cookie, { credential_id, admin_email: "admin@acme.example" });
    expect(failed.status).toBe(200);
    const failure = await failed.json();
    expect(failure.status).toBe("failed");
    expect(failure.message).toMatch(/^Google refused to read admin@acme.example's mailbox: Client is unauthorized/);
    expect((await create()).status).toBe(400);

    google.setDelegationGranted(true);
    const ok = await post("/externalauth/gmail/test_connection", alice.cookie, { credential_id, admin_email: "admin@acme.example", group_ids: ["03x8tuzt1h1n4bb"] });
    expect(await ok.json()).toMatchObject({ status: "success" });
    const created = await create();
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ status: "active", integration_name: "gmail", source_metadata: { admin_email: "admin@acme.example" } });
  });

  it("a verification for one admin does not cover another", async () => {
    const { credential_id } = await authenticate(alice.cookie, "service_account_verified");
    await post("/externalauth/gmail/test_connection", alice.cookie, { credential_id, admin_email: "admin@acme.example" });
    const response = await post("/sources/create", alice.cookie, {
      name: "Mail",
      credentialId: credential_id,
      integration_name: "gmail",
      source_metadata: { gmail_extraction_scope: "ORG", admin_email: "sam@acme.example", gmail_auth_mode: "service_account_verified" },
    });
    expect((await response.json()).message).toBe(SOURCE_MESSAGES.mustVerify);
  });

  it("test_connection names a group that does not exist", async () => {
    const { credential_id } = await authenticate(alice.cookie, "service_account_verified");
    const response = await post("/externalauth/gmail/test_connection", alice.cookie, { credential_id, admin_email: "admin@acme.example", group_ids: ["nope"] });
    expect(await response.json()).toEqual({ status: "failed", message: "Google has no group nope in this Workspace." });
  });
});

describe("Gmail INDIVIDUAL: OAuth for one mailbox", () => {
  async function signInWithGoogle(cookie: string) {
    const { auth_url, state } = await (await get(t, "/externalauth/gmail/auth_url", cookie)).json();
    const url = new URL(auth_url);
    expect(url.origin + url.pathname).toBe(google.authUrl);
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP_URL}/sources/add/gmail`);
    expect(url.searchParams.get("access_type")).toBe("offline");
    const page = await (await fetch(auth_url)).text();
    const form = new URLSearchParams();
    for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(name!, value!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))));
    form.set("decision", "allow");
    const back = new URL((await fetch(new URL("/o/oauth2/v2/auth", auth_url), { method: "POST", body: form, redirect: "manual" })).headers.get("location")!);
    expect(back.searchParams.get("state")).toBe(state);
    return back.searchParams.get("code")!;
  }

  it("exchanges the code, seals the tokens, verifies by test_connection and creates an INDIVIDUAL source", async () => {
    const code = await signInWithGoogle(alice.cookie);
    const response = await post("/externalauth/gmail/callback", alice.cookie, { code });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toMatch(/ya29|1\/\/0g/);
    const { credential_id, setup_verified } = JSON.parse(text);
    expect(setup_verified).toBe(false);
    const { rows } = await t.db.query("SELECT secret, metadata FROM credentials WHERE id = $1", [credential_id]);
    expect(rows[0].metadata).toMatchObject({ mode: "individual", email: "sam@acme.example" });
    expect(rows[0].secret).toMatch(/^v1\./);
    const body = { name: "Sam's mail", credentialId: credential_id, integration_name: "gmail", source_metadata: { gmail_extraction_scope: "INDIVIDUAL", gmail_auth_mode: "individual" } };
    expect((await (await post("/sources/create", alice.cookie, body)).json()).message).toBe(SOURCE_MESSAGES.mustVerify);
    const test = await post("/externalauth/gmail/test_connection", alice.cookie, { credential_id });
    expect(await test.json()).toEqual({ status: "success", message: "Connected: Tributary can read this mailbox." });
    const created = await post("/sources/create", alice.cookie, body);
    expect(created.status).toBe(201);
    expect((await created.json()).source_metadata.gmail_extraction_scope).toBe("INDIVIDUAL");
  });

  it("a replayed code is refused with Google's reason; the service-account modes still need an admin e-mail to test", async () => {
    const code = await signInWithGoogle(alice.cookie);
    expect((await post("/externalauth/gmail/callback", alice.cookie, { code })).status).toBe(200);
    const replay = await post("/externalauth/gmail/callback", alice.cookie, { code });
    expect(replay.status).toBe(502);
    expect((await replay.json()).message).toMatch(/^Google refused to accept the authorization code/);
    const { credential_id } = await authenticate(alice.cookie, "service_account_verified");
    const missing = await post("/externalauth/gmail/test_connection", alice.cookie, { credential_id });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe(SOURCE_MESSAGES.adminEmailRequired);
    const neither = await post("/externalauth/gmail/callback", alice.cookie, {});
    expect((await neither.json()).message).toBe(SOURCE_MESSAGES.gmailAuthTypeRequired);
  });
});
