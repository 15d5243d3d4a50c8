import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Pool } from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { ApiEnv, Services } from "../http/context.js";
import { verifyApiKey, type ApiKeyScope } from "../db/api-keys.js";
import { finishIdempotent, IDEMPOTENCY_HOURS, startIdempotent } from "./idempotency.js";
import { PublicApiError } from "./errors.js";
import { API_MESSAGES } from "../../contract/api.js";

/** The key a request of the public API came with (set by bearerAuth). */
export interface ApiKeyIdentity {
  keyId: string;
  ownerId: string;
  scope: ApiKeyScope;
}
const keys = new WeakMap<Request, ApiKeyIdentity>();
export const apiKeyOf = (request: Request): ApiKeyIdentity => keys.get(request)!;

/**
 * `Authorization: Bearer <key>`, and nothing else: a session cookie is ignored (a page of another site cannot use a
 * signed-in browser against this API). The key's owner becomes the request's user, so every shared function and
 * query is scoped by owner exactly as the app's calls are.
 */
export const bearerAuth: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new PublicApiError(401, "missing_api_key", API_MESSAGES.notAuthenticated, { "WWW-Authenticate": 'Bearer realm="tributary"' });
  const key = await verifyApiKey(c.var.services.db, match[1]!);
  if (!key)
    throw new PublicApiError(401, "invalid_api_key", API_MESSAGES.badKey, {
      "WWW-Authenticate": 'Bearer realm="tributary", error="invalid_token"',
    });
  keys.set(c.req.raw, key);
  c.set("user", {
    id: key.ownerId,
    name: "",
    email: "",
    givenName: null,
    picture: null,
  });
  await next();
};

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A read-only key reads; every write answers 403. */
export const scopeCheck: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (WRITES.has(c.req.method) && apiKeyOf(c.req.raw).scope !== "read_write") throw new PublicApiError(403, "read_only_key", API_MESSAGES.readOnly);
  await next();
};

/**
 * API_RATE_LIMIT_POINTS requests per key per API_RATE_LIMIT_WINDOW_SECONDS, counted in Postgres by rate-limiter-flexible
 * (table api_rate_limits, migration 0014), so that every backend process shares one count. Past it: 429 with
 * Retry-After. Every answer says what is left (RateLimit-* headers).
 */
export function rateLimit(services: Services): MiddlewareHandler<ApiEnv> {
  const { API_RATE_LIMIT_POINTS: points, API_RATE_LIMIT_WINDOW_SECONDS: duration } = services.config;
  // Made on the first request: the routes can be listed (tests) without a database.
  let made: RateLimiterPostgres | undefined;
  const limiter = () =>
    (made ??= new RateLimiterPostgres({
      // The pool drizzle was made with (backend/db/client.ts): the same connections as every query.
      storeClient: (services.db as unknown as { $client: Pool }).$client,
      storeType: "pool",
      tableName: "api_rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: "api",
      points,
      duration,
    }));
  return async (c, next) => {
    let state: RateLimiterRes;
    try {
      state = await limiter().consume(apiKeyOf(c.req.raw).keyId);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new PublicApiError(429, "rate_limited", API_MESSAGES.rateLimited(seconds), {
        "Retry-After": String(seconds),
        "RateLimit-Limit": String(points),
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": String(seconds),
      });
    }
    c.header("RateLimit-Limit", String(points));
    c.header("RateLimit-Remaining", String(state.remainingPoints));
    c.header("RateLimit-Reset", String(Math.ceil(state.msBeforeNext / 1000)));
    await next();
  };
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on a POST: the first answer (status and JSON body) is kept for IDEMPOTENCY_HOURS in Postgres (table
 * api_idempotency) and a retry with the same key and body gets it again, without the write being done twice. The same
 * key with another method, path or body: 422; while the first is still being answered: 409.
 */
export const idempotency: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const given = c.req.header("idempotency-key");
  if (c.req.method !== "POST" || given === undefined) return next();
  if (!IDEMPOTENCY_KEY.test(given)) throw new PublicApiError(400, "invalid_request", API_MESSAGES.idempotencyKey);
  const { db } = c.var.services;
  const keyId = apiKeyOf(c.req.raw).keyId;
  const bodyHash = createHash("sha256")
    .update(await c.req.text())
    .digest("base64url");
  const request = `${c.req.method} ${c.req.path}`;
  const first = await startIdempotent(db, {
    keyId,
    idempotencyKey: given,
    request,
    bodyHash,
  });
  if (first.kind === "mismatch") throw new PublicApiError(422, "idempotency_key_reused", API_MESSAGES.idempotencyReused);
  if (first.kind === "pending") throw new PublicApiError(409, "idempotency_key_in_use", API_MESSAGES.idempotencyInUse);
  if (first.kind === "replay") {
    c.header("Idempotent-Replayed", "true");
    return c.json(first.response as object, first.status as 200);
  }
  let stored = false;
  try {
    await next();
    const type = c.res.headers.get("content-type") ?? "";
    // An answer the client may repeat: kept. A 5xx (or a non-JSON answer) is not: the retry is done afresh.
    if (c.res.status < 500 && type.includes("application/json")) {
      await finishIdempotent(db, keyId, given, c.res.status, await c.res.clone().json());
      stored = true;
    }
  } finally {
    if (!stored) await finishIdempotent(db, keyId, given, null, null);
  }
};

export { IDEMPOTENCY_HOURS };
