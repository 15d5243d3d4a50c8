import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { startFakeZoom, type FakeZoom } from "../fakes/zoom.js";

let t: TestBackend;
let zoom: FakeZoom;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };

const post = (path: string, cookie: string | undefined, body?: unknown) =>
  fetch(`${t.url}${path}`, { method: "POST", headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });

function configure() {
  process.env.ZOOM_CLIENT_ID = zoom.clientId;
  process.env.ZOOM_CLIENT_SECRET = zoom.clientSecret;
  process.env.ZOOM_OAUTH_BASE_URL = zoom.oauthBaseUrl;
  process.env.ZOOM_API_BASE_URL = zoom.apiBaseUrl;
}

/** Plays the browser: follows auth_url to the consent page, clicks Allow, returns the code Zoom sends back. */
async function authorize(cookie: string): Promise<{ code: string; state: string }> {
  const { auth_url, state } = await (await get(t, "/externalauth/zoom/auth_url", cookie)).json();
  const page = await fetch(auth_url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(name!, value!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))));
  form.set("decision", "allow");
  const back = await fetch(new URL("/oauth/authorize", auth_url), { method: "POST", body: form, redirect: "manual" });
  expect(back.status).toBe(302);
  const location = new URL(back.headers.get("location")!);
  expect(location.origin + location.pathname).toBe(`${APP_URL}/sources/add/zoom`);
  expect(location.searchParams.get("state")).toBe(state);
  return { code: location.searchParams.get("code")!, state };
}

async function connect(cookie: string): Promise<string> {
  const { code } = await authorize(cookie);
  const response = await post("/externalauth/zoom/callback", cookie, { code });
  expect(response.status).toBe(200);
  return (await response.json()).credential_id;
}

beforeAll(async () => {
  t = await startTestBackend();
  zoom = await startFakeZoom();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
});
afterEach(configure);
afterAll(async () => {
  await zoom?.close();
  await t?.stop();
});

describe("Zoom not configured", () => {
  it("auth_url answers 4xx with a sentence naming the variables", async () => {
    delete process.env.ZOOM_CLIENT_ID;
    delete process.env.ZOOM_CLIENT_SECRET;
    const response = await get(t, "/externalauth/zoom/auth_url", alice.cookie);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      "Zoom is not configured on this server. Set ZOOM_CLIENT_ID and ZOOM_CLIENT_SECRET in the backend's environment to enable it.",
    );
  });
});

describe("Zoom OAuth and groups against the fake", () => {
  it("auth_url points at Zoom's authorize endpoint with our client, redirect URI and a fresh state", async () => {
    configure();
    const first = await (await get(t, "/externalauth/zoom/auth_url", alice.cookie)).json();
    const second = await (await get(t, "/externalauth/zoom/auth_url", alice.cookie)).json();
    const url = new URL(first.auth_url);
    expect(url.origin + url.pathname).toBe(`${zoom.oauthBaseUrl}/oauth/authorize`);
    expect(url.searchParams.get("client_id")).toBe(zoom.clientId);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP_URL}/sources/add/zoom`);
    expect(first.state).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get("state")).toBe(first.state);
    expect(second.state).not.toBe(first.state);
  });

  it("callback exchanges the code, stores the tokens sealed, and never returns them", async () => {
    configure();
    const { code } = await authorize(alice.cookie);
    const response = await post("/externalauth/zoom/callback", alice.cookie, { code });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toMatch(/zat_|zrt_|access_token|refresh_token/);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ setup_verified: true, message: "Zoom authenticated." });
    const { rows } = await t.db.query("SELECT owner_id, integration_name, secret, metadata FROM credentials WHERE id = $1", [body.credential_id]);
    expect(rows[0]).toMatchObject({ owner_id: alice.userId, integration_name: "zoom", metadata: { zoom_email: "jill@example.com" } });
    expect(rows[0].secret).toMatch(/^v1\./);
    expect(rows[0].secret).not.toMatch(/zat_|zrt_/);
    expect(JSON.stringify(rows[0].metadata)).not.toMatch(/zat_|zrt_/);
    // The code is single-use at Zoom: a replay is refused with a message, not a 5xx.
    const replay = await post("/externalauth/zoom/callback", alice.cookie, { code });
    expect(replay.status).toBe(502);
    expect((await replay.json()).message).toBe("Zoom refused the authorization code: Invalid authorization code.");
  });

  it("callback refuses a bad body", async () => {
    configure();
    for (const body of [{}, { code: "" }, { code: 5 }]) {
      const response = await post("/externalauth/zoom/callback", alice.cookie, body);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toMatch(/code/);
    }
  });

  it("get-groups returns id, name, total_members and nothing secret", async () => {
    configure();
    const credentialId = await connect(alice.cookie);
    const response = await post("/externalauth/zoom/get-groups", alice.cookie, { credential_id: credentialId });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      groups: [
        { id: "grp_sales", name: "Sales", total_members: 12 },
        { id: "grp_support", name: "Customer Support", total_members: 7 },
      ],
    });
  });

  it("get-groups of another user's credential is a 404; a bad body a 400", async () => {
    configure();
    const credentialId = await connect(alice.cookie);
    const stolen = await post("/externalauth/zoom/get-groups", bob.cookie, { credential_id: credentialId });
    expect(stolen.status).toBe(404);
    expect((await stolen.json()).message).toMatch(/Credential not found/);
    const bad = await post("/externalauth/zoom/get-groups", alice.cookie, { credential_id: 12 });
    expect(bad.status).toBe(400);
  });

  it("refreshes an access token about to expire with the refresh token and re-seals it", async () => {
    configure();
    zoom.setAccessTokenTtl(30); // Zoom says 3599; within a minute of expiry the backend refreshes first.
    const credentialId = await connect(alice.cookie);
    zoom.setAccessTokenTtl(3599);
    const before = (await t.db.query("SELECT secret FROM credentials WHERE id = $1", [credentialId])).rows[0].secret;
    zoom.requests.length = 0;
    const response = await post("/externalauth/zoom/get-groups", alice.cookie, { credential_id: credentialId });
    expect(response.status).toBe(200);
    expect(zoom.requests.map((r) => r.grantType).filter(Boolean)).toEqual(["refresh_token"]);
    const after = (await t.db.query("SELECT secret FROM credentials WHERE id = $1", [credentialId])).rows[0].secret;
    expect(after).not.toBe(before);
    // The new token is stored: the next call needs no refresh.
    zoom.requests.length = 0;
    expect((await post("/externalauth/zoom/get-groups", alice.cookie, { credential_id: credentialId })).status).toBe(200);
    expect(zoom.requests.filter((r) => r.grantType)).toEqual([]);
  });

  it("a revoked authorization answers 502 with a message and marks the credential's sources 'error'", async () => {
    configure();
    const credentialId = await connect(alice.cookie);
    const created = await post("/sources/create", alice.cookie, {
      name: "Zoom",
      credentialId,
      integration_name: "zoom",
      source_metadata: { zoom_extraction_scope: "GROUP", zoom_group_id: "grp_sales", zoom_group_name: "Sales" },
    });
    expect(created.status).toBe(201);
    const source = await created.json();
    expect(source).toMatchObject({ status: "active", source_metadata: { zoom_extraction_scope: "GROUP", zoom_group_id: "grp_sales" } });
    zoom.revokeAll();
    const response = await post("/externalauth/zoom/get-groups", alice.cookie, { credential_id: credentialId });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toMatch(/^Zoom /);
    const after = await (await get(t, `/sources/list-by-id/${source.id}`, alice.cookie)).json();
    expect(after.status).toBe("error");
  });
});
