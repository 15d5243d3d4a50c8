import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { findSessionUser, type SessionUser } from "../auth/sessions.js";
import { DATA_VERSION_HEADER, SESSION_COOKIE } from "../../contract/auth.js";
import type { Services } from "../services/deps.js";
import { memberActor, type Actor } from "../services/actor.js";

/** The session backend's request variables: the signed-in user, the actor the use cases are called with, the deps. */
export type ApiEnv = { Variables: { user: SessionUser; actor: Actor; services: Services } };

/**
 * Every resource route runs as the session's user; no session, no data. A GET answer carries the user's data
 * version, read before the route reads anything (DATA_VERSION_HEADER): what it answers is never older than that.
 */
export const requireSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  const user = token ? await findSessionUser(c.var.services.db, token) : null;
  if (!user) return c.json({ message: "User not authenticated" }, 401);
  c.set("user", user);
  const actor = memberActor(user.id, user.workspaceId, user.name);
  c.set("actor", actor);
  if (c.req.method === "GET") c.header(DATA_VERSION_HEADER, c.var.services.changes.version(actor.ownerId));
  await next();
};
