import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { requireSession, type ApiEnv } from "./context.js";
import { ApiError, jsonBody } from "../lib/requests.js";
import { parse } from "../services/errors.js";
import { DATA_VERSION_HEADER, googleCallbackBodySchema, SESSION_COOKIE, SESSION_VALID_MESSAGE } from "../../contract/auth.js";
import { ProviderUnavailable, SignInRejected } from "../auth/identity.js";
import { createSession, deleteSession, toUserInfo, upsertUser } from "../auth/sessions.js";

export const authRoutes = new Hono<ApiEnv>();

authRoutes.post("/auth/google/callback", async (c) => {
  const { db, identity, config, log } = c.var.services;
  const body = parse(googleCallbackBodySchema, await jsonBody(c));
  let verified;
  try {
    verified = await identity.exchange({ code: body.code, codeVerifier: body.code_verifier, state: body.state, iss: body.iss });
  } catch (error) {
    if (error instanceof SignInRejected) {
      log.info({ reason: error.message }, "sign-in rejected by the identity provider");
      throw new ApiError(401, `Sign-in failed: ${error.message}`);
    }
    if (error instanceof ProviderUnavailable) {
      log.error({ reason: error.message }, "identity provider unavailable");
      throw new ApiError(502, "Sign-in is unavailable right now: the identity provider could not be reached.");
    }
    throw error;
  }
  const user = await upsertUser(db, verified);
  const session = await createSession(db, user.id, config.SESSION_TTL_HOURS);
  setCookie(c, SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(config.APP_URL).protocol === "https:",
    path: "/",
    expires: session.expiresAt,
  });
  log.info({ userId: user.id }, "signed in");
  return c.json({ user_info: toUserInfo(user) });
});

// The page cache asks this before it sends a kept page again: its version counts every change committed before now
// (a write the browser just made included), whichever process made it.
authRoutes.get("/validate-session", requireSession, async (c) => {
  c.header(DATA_VERSION_HEADER, await c.var.services.changes.freshVersion(c.var.actor.ownerId));
  return c.json({ message: SESSION_VALID_MESSAGE, user_info: toUserInfo(c.var.user) });
});

authRoutes.post("/auth/logout", async (c) => {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) await deleteSession(c.var.services.db, token);
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.json({ message: "Logged out" });
});
