import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import { API_KEY_MESSAGES as M } from "../../contract/api-keys.js";
import { createKey, listKeys, revokeKey } from "../services/api-keys.js";
import { presentApiKey } from "../present/api-keys.js";

/**
 * The signed-in user's keys of the public API (issue 38), for the settings page: list, create (the token is in that
 * answer only), revoke. A key of another user is a 404, as every record is.
 */
export const apiKeysRoutes = new Hono<ApiEnv>();

apiKeysRoutes.get("/api-keys", requireSession, async (c) => {
  const now = new Date();
  return c.json({ keys: (await listKeys(c.var.services, c.var.actor)).map((key) => presentApiKey(key, now)) });
});

apiKeysRoutes.post("/api-keys", requireSession, async (c) => {
  const { key, token } = await createKey(c.var.services, c.var.actor, await jsonBody(c));
  c.header("Cache-Control", "no-store");
  return c.json({ key: presentApiKey(key), token, message: M.created }, 201);
});

apiKeysRoutes.post("/api-keys/:id/revoke", requireSession, async (c) => {
  await revokeKey(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ message: M.revoked });
});
