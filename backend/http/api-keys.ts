import { Hono } from "hono";
import { ApiError, jsonBody, parse, requireSession, type ApiEnv } from "./context.js";
import { ApiKeyLimitError, createApiKey, listApiKeys, revokeApiKey } from "../db/api-keys.js";
import { API_KEY_MESSAGES as M, API_KEYS_PER_USER_MAX, createApiKeyBodySchema } from "../../contract/api-keys.js";
import { presentApiKey } from "./present/api-keys.js";

/**
 * The signed-in user's keys of the public API (issue 38), for the settings page: list, create (the token is in that
 * answer only), revoke. A key of another user is a 404, as every record is.
 */
export const apiKeysRoutes = new Hono<ApiEnv>();

apiKeysRoutes.get("/api-keys", requireSession, async (c) => {
  const now = new Date();
  const keys = await listApiKeys(c.var.services.db, c.var.user.id);
  return c.json({ keys: keys.map((key) => presentApiKey(key, now)) });
});

apiKeysRoutes.post("/api-keys", requireSession, async (c) => {
  const body = parse(createApiKeyBodySchema, await jsonBody(c));
  const made = await createApiKey(
    c.var.services.db,
    c.var.user.id,
    { name: body.name, scope: body.scope, expiresAt: body.expires_at ? new Date(body.expires_at) : null },
    { maxLive: API_KEYS_PER_USER_MAX },
  ).catch((error: unknown) => {
    if (error instanceof ApiKeyLimitError) throw new ApiError(409, M.tooMany);
    throw error;
  });
  const { key, token } = made;
  c.var.services.log.info({ userId: c.var.user.id, keyId: key.id, scope: key.scope }, "API key created");
  c.header("Cache-Control", "no-store");
  return c.json({ key: presentApiKey(key), token, message: M.created }, 201);
});

apiKeysRoutes.post("/api-keys/:id/revoke", requireSession, async (c) => {
  const revoked = await revokeApiKey(c.var.services.db, c.var.user.id, c.req.param("id"));
  if (!revoked) throw new ApiError(404, M.notFound);
  c.var.services.log.info({ userId: c.var.user.id, keyId: c.req.param("id") }, "API key revoked");
  return c.json({ message: M.revoked });
});
