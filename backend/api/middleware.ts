import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Pool } from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { PublicApiEnv } from "./env.js";
import type { Services } from "../services/deps.js";
import { verifyApiKey } from "../db/api-keys.js";
import { keyActor, type Actor } from "../services/actor.js";
import { finishIdempotent, IDEMPOTENCY_HOURS, startIdempotent } from "./idempotency.js";
import { PublicApiError } from "./errors.js";
import { clientAddress } from "./client-address.js";
import { API_MESSAGES } from "../../contract/api.js";

/** The key a request of the public API came with (bearerAuth made its actor). */
function keyOf(actor: Actor): Extract<Actor, { via: "key" }> {
  if (actor.via !== "key") throw new Error("The public API acts only for an API key.");
  return actor;
}

type Limiter = () => RateLimiterPostgres;

/**
 * A count kept in Postgres by rate-limiter-flexible (table api_rate_limits, migration 0014), so that every backend
 * process shares it. Made on the first request: the routes can be listed (tests) without a database.
 */
function postgresLimiter(services: Services, keyPrefix: string, points: () => number, duration: () => number): Limiter {
  let made: RateLimiterPostgres | undefined;
  return () =>
    (made ??= new RateLimiterPostgres({
      // The pool drizzle was made with (backend/db/client.ts): the same connections as every query.
      storeClient: (services.db as unknown as { $client: Pool }).$client,
      storeType: "pool",
      tableName: "api_rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix,
      points: points(),
      duration: duration(),
    }));
}

const retrySeconds = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 1000));

function tooMany(message: string, seconds: number, limit: number): PublicApiError {
  return new PublicApiError(429, "rate_limited", message, {
    "Retry-After": String(seconds),
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": "0",
    "RateLimit-Reset": String(seconds),
  });
}

/**
 * `Authorization: Bearer <key>`, and nothing else: a session cookie is ignored (a page of another site cannot use a
 * signed-in browser against this API). The key becomes the request's actor: every use case it calls acts for the
 * records of the key's maker, exactly as the app's calls act for the signed-in user's. A client address that sent API_FAILED_AUTH_LIMIT unknown,
 * revoked or expired keys within API_FAILED_AUTH_WINDOW_SECONDS gets 429 with Retry-After, whatever key it sends, until
 * the window ends: keys cannot be guessed at speed.
 */
export function bearerAuth(services: Services): MiddlewareHandler<PublicApiEnv> {
  const limit = () => services.config.API_FAILED_AUTH_LIMIT;
  const failures = postgresLimiter(services, "api-failed-auth", limit, () => services.config.API_FAILED_AUTH_WINDOW_SECONDS);
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new PublicApiError(401, "missing_api_key", API_MESSAGES.notAuthenticated, { "WWW-Authenticate": 'Bearer realm="tributary"' });
    const address = clientAddress(getConnInfo(c).remote.address, c.req.header("x-forwarded-for"));
    const seen = await failures().get(address);
    if (seen && seen.consumedPoints >= limit()) throw tooMany(API_MESSAGES.failedAuthLimited(retrySeconds(seen.msBeforeNext)), retrySeconds(seen.msBeforeNext), limit());
    const key = await verifyApiKey(services.db, match[1]!);
    if (!key) {
      await failures()
        .consume(address)
        .catch((error: unknown) => {
          if (!(error instanceof RateLimiterRes)) throw error;
        });
      throw new PublicApiError(401, "invalid_api_key", API_MESSAGES.badKey, {
        "WWW-Authenticate": 'Bearer realm="tributary", error="invalid_token"',
      });
    }
    c.set("actor", keyActor(key));
    await next();
  };
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A read-only key reads; every write answers 403. */
export const scopeCheck: MiddlewareHandler<PublicApiEnv> = async (c, next) => {
  if (WRITES.has(c.req.method) && keyOf(c.var.actor).scope !== "read_write") throw new PublicApiError(403, "read_only_key", API_MESSAGES.readOnly);
  await next();
};

/**
 * API_RATE_LIMIT_POINTS requests per key per API_RATE_LIMIT_WINDOW_SECONDS, and API_RATE_LIMIT_USER_POINTS (five keys'
 * worth unless set) for all of one user's keys together, so that making more keys makes no more requests. Past either:
 * 429 with Retry-After. Every answer says what the key has left (RateLimit-* headers).
 */
export function rateLimit(services: Services): MiddlewareHandler<PublicApiEnv> {
  const duration = () => services.config.API_RATE_LIMIT_WINDOW_SECONDS;
  const points = () => services.config.API_RATE_LIMIT_POINTS;
  const userPoints = () => services.config.API_RATE_LIMIT_USER_POINTS ?? 5 * points();
  const perKey = postgresLimiter(services, "api", points, duration);
  const perUser = postgresLimiter(services, "api-user", userPoints, duration);
  const take = async (limiter: Limiter, key: string, limit: number, message: (seconds: number) => string): Promise<RateLimiterRes> => {
    try {
      return await limiter().consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw tooMany(message(retrySeconds(error.msBeforeNext)), retrySeconds(error.msBeforeNext), limit);
    }
  };
  return async (c, next) => {
    const { keyId, ownerId } = keyOf(c.var.actor);
    const state = await take(perKey, keyId, points(), API_MESSAGES.rateLimited);
    await take(perUser, ownerId, userPoints(), API_MESSAGES.userRateLimited);
    c.header("RateLimit-Limit", String(points()));
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
export const idempotency: MiddlewareHandler<PublicApiEnv> = async (c, next) => {
  const given = c.req.header("idempotency-key");
  if (c.req.method !== "POST" || given === undefined) return next();
  if (!IDEMPOTENCY_KEY.test(given)) throw new PublicApiError(400, "invalid_request", API_MESSAGES.idempotencyKey);
  const { db } = c.var.services;
  const keyId = keyOf(c.var.actor).keyId;
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
