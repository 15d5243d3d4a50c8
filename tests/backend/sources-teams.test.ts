import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { APP_URL, createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { startFakeMicrosoft, type FakeMicrosoft } from "../fakes/graph.js";
import { SOURCE_MESSAGES } from "../../contract/sources.js";

let t: TestBackend;
let ms: FakeMicrosoft;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };

const post = (path: string, cookie: string | undefined, body?: unknown) =>
  fetch(`${t.url}${path}`, { method: "POST", headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });

function configure() {
  process.env.TEAMS_CLIENT_ID = ms.clientId;
  process.env.TEAMS_CLIENT_SECRET = ms.clientSecret;
  process.env.MICROSOFT_LOGIN_BASE_URL = ms.loginBaseUrl;
  process.env.MICROSOFT_GRAPH_BASE_URL = ms.graphBaseUrl;
}

/** Plays the administrator: opens the consent URL, clicks Accept, returns what Microsoft sends back. */
async function consent(cookie: string) {
  const { auth_url, state } = await (await get(t, "/externalauth/teams/auth_url", cookie)).json();
  const page = await (await fetch(auth_url)).text();
  const form = new URLSearchParams();
  for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(name!, value!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))));
  form.set("decision", "accept");
  const back = await fetch(new URL("/organizations/v2.0/adminconsent", auth_url), { method: "POST", body: form, redirect: "manual" });
  const location = new URL(back.headers.get("location")!);
  expect(location.origin + location.pathname).toBe(`${APP_URL}/sources/add/teams`);
  expect(location.searchParams.get("state")).toBe(state);
  return { tenant: location.searchParams.get("tenant")!, admin_consent: location.searchParams.get("admin_consent")! };
}

async function connect(cookie: string): Promise<string> {
  const response = await post("/externalauth/teams/callback", cookie, await consent(cookie));
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.setup_verified).toBe(false);
  return body.credential_id;
}

beforeAll(async () => {
  t = await startTestBackend();
  ms = await startFakeMicrosoft();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
});
beforeEach(() => {
  configure();
  ms.revokePolicies();
});
afterAll(async () => {
  await ms?.close();
  await t?.stop();
});

describe("Teams admin consent", () => {
  it("names the variables when Teams is not configured", async () => {
    delete process.env.TEAMS_CLIENT_SECRET;
    const response = await get(t, "/externalauth/teams/auth_url", alice.cookie);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe("Microsoft Teams is not configured on this server. Set TEAMS_CLIENT_SECRET in the backend's environment to enable it.");
  });

  it("auth_url is the admin-consent endpoint with our client, redirect URI and state", async () => {
    const { auth_url, state } = await (await get(t, "/externalauth/teams/auth_url", alice.cookie)).json();
    const url = new URL(auth_url);
    expect(url.pathname).toBe("/organizations/v2.0/adminconsent");
    expect(url.searchParams.get("client_id")).toBe(ms.clientId);
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP_URL}/sources/add/teams`);
    expect(url.searchParams.get("state")).toBe(state);
  });

  it("the callback gets an app token through msal for the consenting tenant and stores no token", async () => {
    ms.requests.length = 0;
    const credentialId = await connect(alice.cookie);
    expect(ms.requests.some((r) => r.path === `/${ms.tenantId}/oauth2/v2.0/token`)).toBe(true);
    const { rows } = await t.db.query("SELECT secret, metadata FROM credentials WHERE id = $1", [credentialId]);
    expect(rows[0].secret).toBeNull();
    expect(rows[0].metadata.tenant_id).toBe(ms.tenantId);
  });

  it("refuses a declined consent, a bad tenant and a tenant that never consented", async () => {
    const declined = await post("/externalauth/teams/callback", alice.cookie, { tenant: ms.tenantId, admin_consent: "False" });
    expect(declined.status).toBe(400);
    expect((await declined.json()).message).toMatch(/^Admin consent was not granted/);
    const badTenant = await post("/externalauth/teams/callback", alice.cookie, { tenant: "../../etc", admin_consent: "True" });
    expect(badTenant.status).toBe(400);
    const stranger = await post("/externalauth/teams/callback", alice.cookie, { tenant: "00000000-1111-4222-8333-444444444444", admin_consent: "True" });
    expect(stranger.status).toBe(502);
    expect((await stranger.json()).message).toMatch(/^Microsoft refused the app's access to this tenant: AADSTS700016/);
  });
});

describe("teams, instructions, verification and create", () => {
  it("get-teams lists teams with member counts and already_configured", async () => {
    const credentialId = await connect(alice.cookie);
    const response = await post("/externalauth/teams/get-teams", alice.cookie, { credential_id: credentialId });
    expect(response.status).toBe(200);
    expect((await response.json()).teams).toEqual([
      { team_id: ms.teams[0]!.id, team_name: "Sales Team", member_count: 2, already_configured: false },
      { team_id: ms.teams[1]!.id, team_name: "Engineering", member_count: 1, already_configured: false },
    ]);
    expect((await post("/externalauth/teams/get-teams", bob.cookie, { credential_id: credentialId })).status).toBe(404);
  });

  it("instructions name our app and the team; TEAM scope needs a team", async () => {
    const credentialId = await connect(alice.cookie);
    const org = await (await post("/externalauth/teams/get-team-setup-instructions", alice.cookie, { credential_id: credentialId, scope: "ORG" })).json();
    expect(org.introduction).toMatch(/whole organization/);
    expect(org.steps.map((s: { code_block?: string }) => s.code_block ?? "").join("\n")).toContain(`-AppIds "${ms.clientId}"`);
    const team = await (await post("/externalauth/teams/get-team-setup-instructions", alice.cookie, { credential_id: credentialId, scope: "TEAM", team_id: ms.teams[0]!.id })).json();
    expect(team.introduction).toContain("Sales Team");
    expect(JSON.stringify(team.steps)).toContain(`-Group \\"${ms.teams[0]!.id}\\"`);
    expect(team.steps.some((s: { options?: unknown[] }) => s.options?.length)).toBe(true);
    const missing = await post("/externalauth/teams/get-team-setup-instructions", alice.cookie, { credential_id: credentialId, scope: "TEAM" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe(SOURCE_MESSAGES.teamRequired);
  });

  it("verify-setup fails until the policy applies; create needs that verification; a connected team is then refused", async () => {
    const credentialId = await connect(alice.cookie);
    const teamId = ms.teams[0]!.id;
    const body = { name: "Sales calls", credentialId, integration_name: "teams", source_metadata: { teams_extraction_scope: "TEAM", team_id: teamId, team_name: "Sales Team" } };
    expect((await (await post("/sources/create", alice.cookie, body)).json()).message).toBe(SOURCE_MESSAGES.mustVerify);

    const failed = await (await post("/externalauth/teams/verify-setup", alice.cookie, { integration_name: "teams", credential_id: credentialId, scope: "TEAM", team_id: teamId })).json();
    expect(failed).toEqual({ success: false, message: "Microsoft Graph answered 403: No application access policy found for this app." });

    ms.grantPolicy(ms.teams[1]!.id); // the wrong team
    expect((await (await post("/externalauth/teams/verify-setup", alice.cookie, { credential_id: credentialId, scope: "TEAM", team_id: teamId })).json()).success).toBe(false);
    ms.grantPolicy(teamId);
    const ok = await (await post("/externalauth/teams/verify-setup", alice.cookie, { credential_id: credentialId, scope: "TEAM", team_id: teamId })).json();
    expect(ok.success).toBe(true);

    // Verified for this team only: another team (or the whole organization) is not covered.
    const other = await post("/sources/create", alice.cookie, { ...body, source_metadata: { teams_extraction_scope: "ORG" } });
    expect((await other.json()).message).toBe(SOURCE_MESSAGES.mustVerify);
    const created = await post("/sources/create", alice.cookie, body);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ status: "active", source_metadata: { teams_extraction_scope: "TEAM", team_id: teamId } });

    const teams = (await (await post("/externalauth/teams/get-teams", alice.cookie, { credential_id: credentialId })).json()).teams;
    expect(teams.find((x: { team_id: string }) => x.team_id === teamId).already_configured).toBe(true);
    const again = await post("/sources/create", alice.cookie, { ...body, name: "Twice" });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(SOURCE_MESSAGES.teamAlreadyConnected);
  });

  it("verify-setup bad bodies", async () => {
    const credentialId = await connect(alice.cookie);
    for (const [body, status] of [
      [{ credential_id: credentialId }, 400],
      [{ credential_id: credentialId, scope: "GALAXY" }, 400],
      [{ credential_id: credentialId, scope: "TEAM" }, 400],
      [{ scope: "ORG" }, 400],
      [{ credential_id: credentialId, scope: "ORG", team_id: 7 }, 400],
    ] as const) {
      const response = await post("/externalauth/teams/verify-setup", alice.cookie, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(typeof (await response.json()).message).toBe("string");
    }
  });
});
