import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { createApiKey, revokeApiKey } from "../../backend/db/api-keys.js";
import { pageSchema } from "../../contract/api.js";
import { datagenSourceBody, publicApi, type PublicApiCall } from "../support/public-api.js";
import { apiDestinationSchema as destinationSchema, apiSourceSchema as sourceSchema } from "../../backend/api/schemas.js";
import { connectorSchema } from "../../contract/connectors.js";

/** The public API (issue 38): bearer keys, scopes, owners, rate limits, idempotency, cursor paging, one error shape. */
let t: TestBackend;
let owner: { userId: string; cookie: string };
let other: { userId: string; cookie: string };
let write: string;
let read: string;
let call: PublicApiCall;

beforeAll(async () => {
  t = await startTestBackend({
    env: { API_RATE_LIMIT_POINTS: "60", API_RATE_LIMIT_WINDOW_SECONDS: "60", API_RATE_LIMIT_USER_POINTS: "150", API_FAILED_AUTH_LIMIT: "10", API_FAILED_AUTH_WINDOW_SECONDS: "600", NODE_ENV: "test" },
  });
  call = publicApi(t);
  owner = await createUserSession(t, "api-owner@example.com");
  other = await createUserSession(t, "api-other@example.com");
  write = (await createApiKey(t.handle.db, owner.userId, { name: "write", scope: "read_write", expiresAt: null })).token;
  read = (await createApiKey(t.handle.db, owner.userId, { name: "read", scope: "read", expiresAt: null })).token;
}, 60_000);
afterAll(() => t?.stop());

const datagen = (name: string) => datagenSourceBody(name);

describe("authentication", () => {
  it("answers 401 without a key, with a bad one, a revoked one and an expired one; never takes the session cookie", async () => {
    const none = await call(null, undefined, "GET", "/sources");
    expect(none.status).toBe(401);
    expect(none.raw).toEqual({ error: { code: "missing_api_key", message: "User not authenticated" } });
    const cookie = await fetch(`${t.url}/api/v1/sources`, { headers: { cookie: owner.cookie } });
    expect(cookie.status).toBe(401);
    expect((await call(null, "trb_nope", "GET", "/sources")).raw.error.code).toBe("invalid_api_key");
    const revoked = await createApiKey(t.handle.db, owner.userId, { name: "gone", scope: "read", expiresAt: null });
    expect((await call(null, revoked.token, "GET", "/sources")).status).toBe(200);
    await revokeApiKey(t.handle.db, owner.userId, revoked.key.id);
    expect((await call(null, revoked.token, "GET", "/sources")).status).toBe(401);
    const expired = await createApiKey(t.handle.db, owner.userId, { name: "old", scope: "read", expiresAt: new Date(Date.now() - 1000) });
    expect((await call(null, expired.token, "GET", "/sources")).raw.error.code).toBe("invalid_api_key");
  });

  it("answers 403 to a read-only key's write, and reads with it", async () => {
    const refused = await call(null, read, "POST", "/sources", datagen("Nope"));
    expect(refused.status).toBe(403);
    expect(refused.raw.error.code).toBe("read_only_key");
    expect((await call(pageSchema(sourceSchema), read, "GET", "/sources")).status).toBe(200);
  });
});

describe("records", () => {
  it("creates a data-generator source, a local destination and a connector; another user's id is a 404; the spec's messages", async () => {
    const source = await call(sourceSchema, write, "POST", "/sources", datagen("Generated"));
    expect(source.status).toBe(201);
    expect(source.body.integration).toBe("datagen");
    const destination = await call(destinationSchema, write, "POST", "/destinations", { name: "Disk", integration: "local" });
    expect(destination.status).toBe(201);
    const connector = await call(connectorSchema, write, "POST", "/connectors", {
      name: "Nightly",
      source_id: source.body.id,
      destination_ids: [destination.body.id],
      frequency: "daily",
      lookback_days: 7,
      first_sync: false,
    });
    expect(connector.status).toBe(201);
    expect((await call(connectorSchema, write, "GET", `/connectors/${connector.body.id}`)).body.name).toBe("Nightly");
    const renamed = await call(sourceSchema, write, "PATCH", `/sources/${source.body.id}`, { name: "Renamed", description: "" });
    expect(renamed.body.name).toBe("Renamed");
    const inUse = await call(null, write, "DELETE", `/sources/${source.body.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.raw.error.code).toBe("conflict");
    const blank = await call(null, write, "POST", "/connectors", { name: "", source_id: source.body.id, destination_ids: [destination.body.id], frequency: "daily", lookback_days: 7 });
    expect(blank.raw.error).toMatchObject({ code: "invalid_request", message: "Please enter a connector name" });

    const otherKey = (await createApiKey(t.handle.db, other.userId, { name: "o", scope: "read_write", expiresAt: null })).token;
    for (const path of [`/sources/${source.body.id}`, `/destinations/${destination.body.id}`, `/connectors/${connector.body.id}`, `/connectors/${connector.body.id}/runs`]) {
      const answer = await call(null, otherKey, "GET", path);
      expect(answer.status, path).toBe(404);
      expect(answer.raw.error.code).toBe("not_found");
    }
    expect((await call(null, otherKey, "DELETE", `/connectors/${connector.body.id}`)).status).toBe(404);
    expect((await call(null, write, "GET", "/nothing-here")).raw.error.code).toBe("not_found");
  });

  it("pages a list with a cursor", async () => {
    for (let i = 0; i < 4; i++) expect((await call(sourceSchema, write, "POST", "/sources", datagen(`Paged ${i}`))).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: { data: { id: string }[]; next_cursor: string | null } } = await call(pageSchema(sourceSchema), write, "GET", `/sources?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.body.data.map((s) => s.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    expect((await call(null, write, "GET", "/sources?cursor=garbage")).raw.error.code).toBe("invalid_request");
  });

  it("answers 400 with a sentence to a cursor out of range or malformed, never a 500 (issue 50 item 6)", async () => {
    const cursor = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
    const bad = [[1e9, 1], [1, 1e9], [2 ** 53, 1], [1.5, 2], [0, 2], [-1, 2], [1, 201], ["1", "2"], [1], [], {}, null, 7, "[1,", "\u0000"].map(cursor);
    for (const path of [...bad.map((c) => `/sources?cursor=${c}`), `/destinations?cursor=${cursor([1e9, 1])}`, "/sources?cursor=%E0%A4%A", "/sources?cursor=" + "A".repeat(5000)]) {
      const answer = await call(null, write, "GET", path);
      expect(answer.status, path).toBe(400);
      expect(answer.raw.error, path).toMatchObject({ code: "invalid_request", message: "The cursor is not one this API gave. Start again without it." });
    }
  });

  it("does a POST with an Idempotency-Key once and answers a retry with the first answer", async () => {
    const headers = { "idempotency-key": "create-once-1" };
    const first = await call(sourceSchema, write, "POST", "/sources", datagen("Once"), headers);
    const again = await call(sourceSchema, write, "POST", "/sources", datagen("Once"), headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const all = await call(pageSchema(sourceSchema), write, "GET", "/sources?limit=200");
    expect(all.body.data.filter((s) => s.name === "Once")).toHaveLength(1);
    const reused = await call(null, write, "POST", "/sources", datagen("Other"), headers);
    expect(reused.status).toBe(422);
    expect(reused.raw.error.code).toBe("idempotency_key_reused");
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once a key has used its requests", async () => {
    const key = (await createApiKey(t.handle.db, other.userId, { name: "busy", scope: "read", expiresAt: null })).token;
    let last: Awaited<ReturnType<PublicApiCall>> | undefined;
    for (let i = 0; i < 61; i++) last = await call(null, key, "GET", "/sources?limit=1");
    expect(last!.status).toBe(429);
    expect(last!.raw.error.code).toBe("rate_limited");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another key is counted apart.
    expect((await call(null, read, "GET", "/sources?limit=1")).status).toBe(200);
  });

  it("counts a user's keys together: past API_RATE_LIMIT_USER_POINTS, every key of the user gets 429 with Retry-After (issue 50 item 7)", async () => {
    const busy = await createUserSession(t, "api-busy@example.com");
    const tokens = await Promise.all([1, 2, 3, 4].map(async (i) => (await createApiKey(t.handle.db, busy.userId, { name: `k${i}`, scope: "read", expiresAt: null })).token));
    // 150 requests, 50 on each of three keys: within each key's 60, and the user's 150.
    for (const token of tokens.slice(0, 3)) for (let i = 0; i < 50; i++) expect((await call(null, token, "GET", "/sources?limit=1")).status).toBe(200);
    for (const token of tokens) {
      const refused = await call(null, token, "GET", "/sources?limit=1");
      expect(refused.status).toBe(429);
      expect(refused.raw.error).toEqual({ code: "rate_limited", message: expect.stringMatching(/^Too many requests for this account's API keys together\. Try again in \d+ seconds?\.$/) });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Another user is counted apart.
    expect((await call(null, read, "GET", "/sources?limit=1")).status).toBe(200);
  });

  it("answers 429 with Retry-After to an address after API_FAILED_AUTH_LIMIT unknown keys, even for a good key; other addresses go on (issue 50 item 7)", async () => {
    // The web server forwards the client's address as the last X-Forwarded-For entry (a loopback peer is trusted to).
    const from = (address: string) => ({ "x-forwarded-for": `203.0.113.99, ${address}` });
    for (let i = 0; i < 10; i++) {
      const wrong = await call(null, `trb_${"x".repeat(43)}`, "GET", "/sources", undefined, from("198.51.100.7"));
      expect(wrong.status).toBe(401);
    }
    for (const key of [`trb_${"y".repeat(43)}`, read]) {
      const blocked = await call(null, key, "GET", "/sources", undefined, from("198.51.100.7"));
      expect(blocked.status).toBe(429);
      expect(blocked.raw.error).toEqual({ code: "rate_limited", message: expect.stringMatching(/^Too many requests with an unknown, revoked or expired API key from this address\. Try again in \d+ seconds?\.$/) });
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await call(null, read, "GET", "/sources", undefined, from("198.51.100.8"))).status).toBe(200);
    expect((await call(null, read, "GET", "/sources")).status).toBe(200);
  });
});
