import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeAtLocalIdp, get, signIn, startTestBackend, type TestBackend } from "../support/backend.js";
import { startLocalIdp } from "../../backend/auth/local-idp.js";
import { createLogger } from "../../backend/lib/log.js";
import { SESSION_COOKIE } from "../../contract/auth.js";

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(async () => {
  await t?.stop();
});

const post = (path: string, body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) =>
  fetch(`${t.url}${path}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("POST /auth/google/callback", () => {
  it("exchanges a real code, upserts the user and sets an httpOnly session cookie", async () => {
    const back = await authorizeAtLocalIdp(t, { name: "Grace Hopper", email: "grace@example.com" });
    const response = await post("/auth/google/callback", { code: back.code, code_verifier: back.codeVerifier, state: back.state, iss: back.iss });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.user_info).toMatchObject({ name: "Grace Hopper", email: "grace@example.com", given_name: "Grace" });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i); // only when APP_URL is https
    const { rows } = await t.db.query("SELECT count(*)::int AS n FROM users WHERE email = 'grace@example.com'");
    expect(rows[0].n).toBe(1);
  });

  it("signs the same person in as the same user, with a new session each time", async () => {
    const first = await signIn(t, { name: "Alan Turing", email: "alan@example.com" });
    const second = await signIn(t, { name: "Alan M. Turing", email: "alan@example.com" });
    expect(second.user.id).toBe(first.user.id);
    expect(second.user.name).toBe("Alan M. Turing");
    expect(second.cookie).not.toBe(first.cookie);
    const { rows } = await t.db.query("SELECT count(*)::int AS n FROM sessions WHERE user_id = $1", [first.user.id]);
    expect(rows[0].n).toBe(2);
  });

  it("stores only a hash of the session token", async () => {
    const { cookie } = await signIn(t, { name: "Hash Check", email: "hash@example.com" });
    const token = cookie.split("=")[1]!;
    const { rows } = await t.db.query("SELECT token_hash FROM sessions WHERE token_hash = $1", [token]);
    expect(rows).toHaveLength(0);
  });

  it("refuses a replayed code with a 4xx and no cookie", async () => {
    const back = await authorizeAtLocalIdp(t, { name: "Replay", email: "replay@example.com" });
    const body = { code: back.code, code_verifier: back.codeVerifier, state: back.state, iss: back.iss };
    expect((await post("/auth/google/callback", body)).status).toBe(200);
    const again = await post("/auth/google/callback", body);
    expect(again.status).toBe(401);
    expect((await again.json()).message).toMatch(/^Sign-in failed/);
    expect(again.headers.getSetCookie()).toHaveLength(0);
  });

  it("refuses a code with the wrong PKCE verifier", async () => {
    const back = await authorizeAtLocalIdp(t, { name: "Pkce", email: "pkce@example.com" });
    const response = await post("/auth/google/callback", { code: back.code, code_verifier: "x".repeat(43), state: back.state, iss: back.iss });
    expect(response.status).toBe(401);
  });

  it("refuses a made-up code", async () => {
    const response = await post("/auth/google/callback", { code: "not-a-real-code" });
    expect(response.status).toBe(401);
    expect((await response.json()).message).toMatch(/^Sign-in failed/);
  });

  it.each([
    ["a body that is not JSON", "code=abc", { "content-type": "application/x-www-form-urlencoded" }, 415],
    ["broken JSON", "{", { "content-type": "application/json" }, 400],
    ["no code", {}, { "content-type": "application/json" }, 400],
    ["an empty code", { code: "" }, { "content-type": "application/json" }, 400],
    ["a code of the wrong type", { code: 42 }, { "content-type": "application/json" }, 400],
  ])("answers %s with a 4xx and a message", async (_label, body, headers, status) => {
    const response = await post("/auth/google/callback", body, headers as Record<string, string>);
    expect(response.status).toBe(status);
    expect(typeof (await response.json()).message).toBe("string");
  });
});

describe("GET /validate-session", () => {
  it("answers 'Session is valid' with the cookie, 401 without", async () => {
    const { cookie } = await signIn(t, { name: "Valid User", email: "valid@example.com" });
    const ok = await get(t, "/validate-session", cookie);
    expect(ok.status).toBe(200);
    expect((await ok.json()).message).toBe("Session is valid");
    expect((await get(t, "/validate-session")).status).toBe(401);
  });

  it("answers 401 for a tampered or unknown token", async () => {
    const { cookie } = await signIn(t, { name: "Tamper", email: "tamper@example.com" });
    expect((await get(t, "/validate-session", `${cookie}x`)).status).toBe(401);
    expect((await get(t, "/validate-session", `${SESSION_COOKIE}=${"a".repeat(500)}`)).status).toBe(401);
  });

  it("answers 401 once the session has expired", async () => {
    const { cookie, user } = await signIn(t, { name: "Expired", email: "expired@example.com" });
    await t.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [user.id]);
    expect((await get(t, "/validate-session", cookie)).status).toBe(401);
  });
});

describe("POST /auth/logout", () => {
  it("deletes the session on the server and clears the cookie", async () => {
    const { cookie } = await signIn(t, { name: "Leaving", email: "leaving@example.com" });
    const response = await fetch(`${t.url}/auth/logout`, { method: "POST", headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().join()).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    expect((await get(t, "/validate-session", cookie)).status).toBe(401);
  });
});

describe("local identity provider", () => {
  it("refuses to run with NODE_ENV=production", async () => {
    await expect(
      startLocalIdp({ port: 0, appUrl: "http://localhost:1", secretKey: "k".repeat(40), nodeEnv: "production", log: createLogger("silent") }),
    ).rejects.toThrow(/refuses to run with NODE_ENV=production/);
  });
});

describe("unknown endpoints", () => {
  it("answer 404 with a message", async () => {
    const response = await get(t, "/no/such/thing");
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(/No such endpoint/);
  });
});
