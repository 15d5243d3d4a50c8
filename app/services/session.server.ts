import { createHash } from "node:crypto";
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import type { UserInfo } from "@contract/auth";
import { env } from "./env.server";
import { backendFetch } from "./backend.server";

/**
 * The app's own signed cookie session: the user info the backend returned at
 * sign-in, the path to return to after sign-in, and one-shot messages. The
 * backend's session (the source of truth) is checked on every guarded request.
 */
interface SessionData {
  user_info: UserInfo;
  redirectTo: string;
}
interface FlashData {
  authError: string;
}

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, FlashData>> | undefined;
export function sessionStorage() {
  storage ??= createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      name: "__tributary",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env().secureCookies,
      secrets: [env().cookieSecret],
      maxAge: 60 * 60 * 24 * 14,
    },
  });
  return storage;
}

export const getSession = (request: Request) => sessionStorage().getSession(request.headers.get("cookie"));

const hasControlCharacter = (value: string) => [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/**
 * Only a path on this site: "/x" yes; "//evil.example", "/\\evil", "https://…" no.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/connectors"): string {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\") || hasControlCharacter(to)) return fallback;
  try {
    const url = new URL(to, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

function signInUrl(request: Request): string {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  return here === "/" ? "/" : `/?redirectTo=${encodeURIComponent(here)}`;
}

/**
 * Backend sessions this process saw valid in the last few seconds, by a hash of
 * the browser's Cookie header. A page's own backend calls check the session on
 * every request anyway (a 401 there signs the user out too); this only spares
 * the layout's extra round trip when pages come in quick succession. Logging
 * out here forgets the entry at once. See docs/decisions/2026-11-22-page-performance.md.
 */
const VALID_FOR_MS = 5_000;
const MAX_REMEMBERED = 10_000;
const recentlyValid = new Map<string, number>();
const cookieKey = (request: Request) => createHash("sha256").update(request.headers.get("cookie") ?? "").digest("base64url");

/** Forgets that this browser's session was valid (logout). */
export function forgetValidSession(request: Request) {
  recentlyValid.delete(cookieKey(request));
}

function rememberValid(key: string) {
  if (recentlyValid.size >= MAX_REMEMBERED) {
    // Oldest first (a Map iterates in insertion order): drop the expired, or else the oldest tenth.
    const now = Date.now();
    let dropped = 0;
    for (const [k, until] of recentlyValid) {
      if (until > now && dropped >= MAX_REMEMBERED / 10) break;
      recentlyValid.delete(k);
      dropped++;
    }
  }
  recentlyValid.delete(key);
  recentlyValid.set(key, Date.now() + VALID_FOR_MS);
}

/**
 * The signed-in user, or a redirect to sign-in that remembers where they were.
 * Authenticated means: the app holds user info AND the backend says the session is valid.
 */
export async function requireUser(request: Request): Promise<UserInfo> {
  const session = await getSession(request);
  const user = session.get("user_info");
  if (!user) throw redirect(signInUrl(request));
  const key = cookieKey(request);
  const until = recentlyValid.get(key);
  if (until !== undefined && until > Date.now()) return user;
  const response = await backendFetch(request, "/validate-session");
  if (response.status === 401) {
    recentlyValid.delete(key);
    session.unset("user_info");
    session.flash("authError", "Your session has ended. Please sign in again.");
    throw redirect(signInUrl(request), { headers: { "set-cookie": await sessionStorage().commitSession(session) } });
  }
  if (!response.ok) throw new Response("Tributary's server is not answering right now. Please try again in a moment.", { status: 503 });
  await response.body?.cancel();
  rememberValid(key);
  return user;
}

/** The user if signed in (without a backend round trip), for pages that only adapt to it. */
export async function optionalUser(request: Request): Promise<UserInfo | null> {
  return (await getSession(request)).get("user_info") ?? null;
}
