import { z } from "zod";

/** The user as the backend reports it after sign-in (spec §3 "User info"). */
export const userInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  given_name: z.string().nullable().optional(),
  picture: z.string().nullable().optional(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/**
 * POST /auth/google/callback. `code` is what the spec names; the rest are what
 * an OpenID Connect code exchange with PKCE needs from the browser's return:
 * the verifier the app generated, and the `state` / `iss` the provider sent back
 * (already checked by the app against the browser-bound cookie).
 */
export const googleCallbackBodySchema = z.object({
  code: z.string().min(1, "code is required").max(4096),
  code_verifier: z.string().min(43).max(128).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
});
export type GoogleCallbackBody = z.infer<typeof googleCallbackBodySchema>;

export const googleCallbackResponseSchema = z.object({ user_info: userInfoSchema });
/** GET /validate-session (its data version in DATA_VERSION_HEADER). */
export const validSessionResponseSchema = z.object({ message: z.string(), user_info: userInfoSchema });

export const SESSION_VALID_MESSAGE = "Session is valid";
export const SESSION_COOKIE = "tributary_session";
/**
 * On every authenticated GET answer: the user's data version, read before anything else. It changes with every write
 * to what the list pages show (and differs between backend processes and starts: backend/db/changes.ts), so a page
 * rendered from data read after it is still current while it is unchanged (the web server's page cache,
 * scripts/page-cache.ts).
 */
export const DATA_VERSION_HEADER = "X-Data-Version";

/**
 * The client the local OpenID provider registers when GOOGLE_CLIENT_ID is unset.
 * It exists only on a developer's machine (the provider refuses production), so
 * its secret is not a secret.
 */
export const LOCAL_IDP_CLIENT = { id: "tributary-local", secret: "tributary-local-development-only" } as const;
