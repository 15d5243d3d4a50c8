import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import { api, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { sha256 } from "../../backend/lib/crypto.js";
import { createApiKey, listApiKeys, verifyApiKey } from "../../backend/db/api-keys.js";
import { API_KEY_MESSAGES as M, apiKeyFormSchema, endOfDayIn, type ApiKey } from "../../contract/api-keys.js";

/** API keys (issue 38): made, listed and revoked over the real API on a real Postgres; verified by the function /api/v1 uses. */
let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };
const TOKEN = /^trb_[0-9A-Za-z]{43}$/;
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();

beforeAll(async () => {
  t = await startTestBackend();
  alice = await createUserSession(t, "alice-keys@example.com", "Alice Keys");
  bob = await createUserSession(t, "bob-keys@example.com", "Bob Keys");
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

async function create(cookie: string, body: unknown) {
  return api(t, cookie, "POST", "/api-keys", body);
}

async function listOf(cookie: string): Promise<ApiKey[]> {
  const answer = await api(t, cookie, "GET", "/api-keys");
  expect(answer.status).toBe(200);
  return answer.body.keys as ApiKey[];
}

describe("creating a key", () => {
  it("answers the token once and stores only its hash", async () => {
    const expires = inOneDay();
    const made = await create(alice.cookie, { name: "  Reporting  ", scope: "read", expires_at: expires });
    expect(made.status).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    const { key, token, message } = made.body as { key: ApiKey; token: string; message: string };
    expect(message).toBe(M.created);
    expect(token).toMatch(TOKEN);
    expect(key).toMatchObject({ name: "Reporting", scope: "read", status: "active", prefix: token.slice(0, 12), last_used_at: null, revoked_at: null });
    expect(new Date(key.expires_at!).toISOString()).toBe(expires);

    // The list never carries the token again.
    const listed = await listOf(alice.cookie);
    expect(listed.map((k) => k.id)).toContain(key.id);
    expect(JSON.stringify(listed)).not.toContain(token.slice(12));

    // At rest: the SHA-256 of the token, and nothing of its secret part.
    const { rows } = await t.db.query("SELECT * FROM api_keys WHERE id = $1", [key.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].hash).toBe(sha256(token));
    expect(JSON.stringify(rows[0])).not.toContain(token.slice(12));
    expect(JSON.stringify(rows[0])).not.toContain(token.slice(12, 24));
  });

  it("makes a different token every time, with no expiry when none is given", async () => {
    const one = await create(alice.cookie, { name: "One", scope: "read_write" });
    const two = await create(alice.cookie, { name: "One", scope: "read_write", expires_at: null });
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(one.body.token).not.toBe(two.body.token);
    expect(one.body.key.expires_at).toBeNull();
    expect(two.body.key.expires_at).toBeNull();
  });

  it.each([
    [{}, M.nameRequired],
    [{ name: "", scope: "read" }, M.nameRequired],
    [{ name: "   ", scope: "read" }, M.nameRequired],
    [{ name: 42, scope: "read" }, M.nameRequired],
    [{ name: "x".repeat(101), scope: "read" }, M.nameTooLong],
    [{ name: "Bad\u0000name", scope: "read" }, "The name must not contain control characters."],
    [{ name: "Report\u202Egpj.exe", scope: "read" }, "The name must not contain text-direction marks (such as a right-to-left override)."],
    [{ name: "Left\u2066right", scope: "read" }, "The name must not contain text-direction marks (such as a right-to-left override)."],
    [{ name: "Mark\u200Fed", scope: "read" }, "The name must not contain text-direction marks (such as a right-to-left override)."],
    [{ name: "Next\u0085line", scope: "read" }, "The name must not contain control characters."],
    [{ name: "Tab\tbed", scope: "read" }, "The name must not contain control characters."],
    [{ name: "No scope" }, M.scopeRequired],
    [{ name: "Admin", scope: "admin" }, M.scopeRequired],
    [{ name: "Soon", scope: "read", expires_at: "tomorrow" }, M.expiryInvalid],
    [{ name: "Soon", scope: "read", expires_at: 12 }, M.expiryInvalid],
    [{ name: "Past", scope: "read", expires_at: "2020-01-01T00:00:00Z" }, M.expiryPast],
  ])("refuses %j with a sentence", async (body, message) => {
    const answer = await create(alice.cookie, body);
    expect(answer).toEqual({ status: 400, body: { message } });
  });

  it("refuses a body that is not JSON, and a caller with no session", async () => {
    expect((await create(alice.cookie, "name=x")).status).toBe(400);
    expect((await api(t, undefined, "GET", "/api-keys")).status).toBe(401);
    expect((await api(t, undefined, "POST", "/api-keys", { name: "x", scope: "read" })).status).toBe(401);
  });
});

describe("live keys per user (issue 50 item 7)", () => {
  it("holds at most 25 live keys: the 26th is refused with a sentence until one is revoked; revoked and expired keys do not count", async () => {
    const carol = await createUserSession(t, "carol-keys@example.com", "Carol Keys");
    const gone = await createApiKey(t.handle.db, carol.userId, { name: "Revoked", scope: "read", expiresAt: null });
    await api(t, carol.cookie, "POST", `/api-keys/${gone.key.id}/revoke`);
    await createApiKey(t.handle.db, carol.userId, { name: "Expired", scope: "read", expiresAt: new Date(Date.now() - 1000) });
    for (let i = 0; i < 24; i++) await createApiKey(t.handle.db, carol.userId, { name: `Key ${i}`, scope: "read", expiresAt: null });
    expect((await create(carol.cookie, { name: "The 25th", scope: "read" })).status).toBe(201);
    expect(await create(carol.cookie, { name: "The 26th", scope: "read" })).toEqual({ status: 409, body: { message: M.tooMany } });
    expect(M.tooMany).toBe("You have 25 active API keys, the most one account may hold. Revoke one you no longer use, then make the new one.");
    expect((await listOf(carol.cookie)).filter((k) => k.status === "active")).toHaveLength(25);
    // Made at once, the 26th and 27th are refused just the same: the count and the insert are one step per owner.
    const racing = await Promise.all([create(carol.cookie, { name: "A", scope: "read" }), create(carol.cookie, { name: "B", scope: "read" })]);
    expect(racing.map((answer) => answer.status)).toEqual([409, 409]);
    const one = (await listOf(carol.cookie)).find((k) => k.status === "active")!;
    await api(t, carol.cookie, "POST", `/api-keys/${one.id}/revoke`);
    const [again, over] = await Promise.all([create(carol.cookie, { name: "After revoking", scope: "read" }), create(carol.cookie, { name: "After revoking too", scope: "read" })]);
    expect([again.status, over.status].sort()).toEqual([201, 409]);
  });
});

describe("verifying a token", () => {
  it("answers the key, its name, its owner, its maker and scope for a live key, and records its last use", async () => {
    const made = await create(alice.cookie, { name: "Live", scope: "read" });
    const { key, token } = made.body as { key: ApiKey; token: string };
    const at = new Date(Date.now() + 1000);
    expect(await verifyApiKey(t.handle.db, token, at)).toEqual({ keyId: key.id, name: "Live", ownerId: alice.userId, createdBy: alice.userId, scope: "read" });
    const listed = (await listOf(alice.cookie)).find((k) => k.id === key.id)!;
    expect(listed.last_used_at).toBe(at.toISOString());
    // The settings page says who made it.
    expect([key.created_by, listed.created_by]).toEqual(["Alice Keys", "Alice Keys"]);
    const write = await create(alice.cookie, { name: "Writer", scope: "read_write" });
    expect((await verifyApiKey(t.handle.db, write.body.token))?.scope).toBe("read_write");
  });

  it("answers null for anything that is not a live key's token", async () => {
    const { token } = (await create(alice.cookie, { name: "Probe", scope: "read" })).body as { token: string };
    const last = token.at(-1) === "a" ? "b" : "a";
    for (const wrong of [token.slice(0, -1) + last, token.slice(0, -1), `${token}x`, "", "Bearer " + token, token.replace("trb_", "trx_"), sha256(token)]) {
      expect(await verifyApiKey(t.handle.db, wrong)).toBeNull();
    }
  });

  it("answers null for a revoked key, and revoking twice keeps the first time", async () => {
    const { key, token } = (await create(alice.cookie, { name: "To revoke", scope: "read_write" })).body as { key: ApiKey; token: string };
    const revoked = await api(t, alice.cookie, "POST", `/api-keys/${key.id}/revoke`);
    expect(revoked).toEqual({ status: 200, body: { message: M.revoked } });
    expect(await verifyApiKey(t.handle.db, token)).toBeNull();
    const first = (await listOf(alice.cookie)).find((k) => k.id === key.id)!;
    expect(first.status).toBe("revoked");
    expect(first.revoked_at).not.toBeNull();
    expect((await api(t, alice.cookie, "POST", `/api-keys/${key.id}/revoke`)).status).toBe(200);
    expect((await listOf(alice.cookie)).find((k) => k.id === key.id)!.revoked_at).toBe(first.revoked_at);
  });

  it("answers null once a key has expired, and the list says it expired", async () => {
    const soon = new Date(Date.now() + 3_600_000);
    const { key, token } = await createApiKey(t.handle.db, alice.userId, { name: "Hour", scope: "read", expiresAt: soon });
    expect(await verifyApiKey(t.handle.db, token, new Date(soon.getTime() - 1000))).not.toBeNull();
    expect(await verifyApiKey(t.handle.db, token, soon)).toBeNull();
    expect(await verifyApiKey(t.handle.db, token, new Date(soon.getTime() + 1000))).toBeNull();

    const old = await createApiKey(t.handle.db, alice.userId, { name: "Gone", scope: "read", expiresAt: new Date(Date.now() - 1000) });
    expect(await verifyApiKey(t.handle.db, old.token)).toBeNull();
    const listed = (await listOf(alice.cookie)).find((k) => k.id === old.key.id)!;
    expect(listed.status).toBe("expired");
    expect(listed.last_used_at).toBeNull();
    expect((await listOf(alice.cookie)).find((k) => k.id === key.id)!.status).toBe("active");
  });
});

describe("another user's keys", () => {
  it("are neither listed nor revoked: a 404", async () => {
    const { key, token } = (await create(alice.cookie, { name: "Alice's", scope: "read" })).body as { key: ApiKey; token: string };
    expect((await listOf(bob.cookie)).map((k) => k.id)).not.toContain(key.id);
    expect(await api(t, bob.cookie, "POST", `/api-keys/${key.id}/revoke`)).toEqual({ status: 404, body: { message: M.notFound } });
    expect(await api(t, bob.cookie, "POST", "/api-keys/not-a-uuid/revoke")).toEqual({ status: 404, body: { message: M.notFound } });
    expect(await api(t, bob.cookie, "POST", "/api-keys/00000000-0000-4000-8000-000000000000/revoke")).toEqual({ status: 404, body: { message: M.notFound } });
    expect(await verifyApiKey(t.handle.db, token)).toMatchObject({ keyId: key.id, ownerId: alice.userId });
    expect((await listApiKeys(t.handle.db, bob.userId)).length).toBe(0);
  });
});

describe("the create form", () => {
  const form = (entries: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(entries)) data.append(k, v);
    return parseWithZod(data, { schema: apiKeyFormSchema });
  };
  const errorsOf = (entries: Record<string, string>) => {
    const submission = form(entries);
    return submission.status === "error" ? submission.error : null;
  };

  it("says what is missing in an empty or partial form", () => {
    expect(errorsOf({ intent: "create", name: "", scope: "", expires_on: "" })).toEqual({ name: [M.nameRequired], scope: [M.scopeRequired] });
    expect(errorsOf({})).toEqual({ name: [M.nameRequired], scope: [M.scopeRequired] });
    expect(errorsOf({ intent: "create", name: "CI" })).toEqual({ scope: [M.scopeRequired] });
    expect(errorsOf({ scope: "read" })).toEqual({ name: [M.nameRequired] });
    expect(errorsOf({ name: "CI", scope: "read", expires_on: "2030-02-30" })).toEqual({ expires_on: [M.expiryInvalid] });
    expect(errorsOf({ name: "CI", scope: "read", expires_on: "next week" })).toEqual({ expires_on: [M.expiryInvalid] });
    const ok = form({ name: "CI", scope: "read_write", expires_on: "" });
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.value).toEqual({ name: "CI", scope: "read_write" });
  });

  it("makes a day's expiry the last moment of that day where the user is", () => {
    expect(endOfDayIn("2030-01-01", "UTC").toISOString()).toBe("2030-01-01T23:59:59.999Z");
    expect(endOfDayIn("2030-07-01", "America/New_York").toISOString()).toBe("2030-07-02T03:59:59.999Z");
    expect(endOfDayIn("2030-01-01", "America/New_York").toISOString()).toBe("2030-01-02T04:59:59.999Z");
    expect(endOfDayIn("2030-01-01", "Asia/Kolkata").toISOString()).toBe("2030-01-01T18:29:59.999Z");
    expect(endOfDayIn("2030-12-31", "Pacific/Auckland").toISOString()).toBe("2030-12-31T10:59:59.999Z");
  });
});
