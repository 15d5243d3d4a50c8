import { createCookieSessionStorage, redirect } from "@remix-run/node";
import type { UserInfo } from "@contract/auth";
import { env } from "./env.server";
import { answerBody, backendAddress, checkAnswer } from "./backend-routes.server";
import { backendFetch, relaySetCookie } from "./http.server";

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

/** Tabs, newlines and other control characters: the URL parser drops some of them, which can turn "/\t/x" into "//x". */
const hasControlCharacter = (value: string) => [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/** Two slashes or backslashes in any mix at the start ("//host", "/\\host"): a browser reads it as another host. */
const looksLikeAnotherHost = (path: string) => /^[/\\][/\\]/.test(path);

/** APP_URL as env.server.ts reads it, without requiring the secret key that env() checks. */
const appUrlFromEnvironment = () => process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;

/**
 * A path on this site to send the browser to, or `fallback`. The target is parsed against the app's own origin
 * (APP_URL), as a browser would resolve it, and accepted only when it is a path ("/…") that stays on that origin;
 * the normalised result is checked again, since resolving dot segments can turn "/.//evil.example" or
 * "/a/..//evil.example" into "//evil.example", which a browser reads as another host.
 */
export function safeRedirect(
  to: FormDataEntryValue | string | null | undefined,
  fallback = "/connectors",
  appUrl: string = appUrlFromEnvironment(),
): string {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || looksLikeAnotherHost(to) || hasControlCharacter(to)) return fallback;
  let origin: string;
  let url: URL;
  try {
    origin = new URL(appUrl).origin;
    url = new URL(to, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  if (!path.startsWith("/") || looksLikeAnotherHost(path) || hasControlCharacter(path)) return fallback;
  return path;
}

function signInUrl(request: Request): string {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  return here === "/" ? "/" : `/?redirectTo=${encodeURIComponent(here)}`;
}

const VALIDATE_SESSION = backendAddress("GET /validate-session");

/**
 * The signed-in user, or a redirect to sign-in that remembers where they were.
 * Authenticated means: the app holds user info AND the backend says the session is valid.
 */
export async function requireUser(request: Request): Promise<UserInfo> {
  const user = await requireUserInfo(request);
  const response = await backendFetch(request, VALIDATE_SESSION.path, { method: VALIDATE_SESSION.method });
  if (response.status === 401) throw await sessionEnded(request);
  if (!response.ok || !checkAnswer("GET /validate-session", await answerBody(response)).ok) {
    throw new Response("Tributary's server is not answering right now. Please try again in a moment.", { status: 503 });
  }
  return user;
}


/**
 * The user info the app holds, or a redirect to sign-in, WITHOUT asking the
 * backend: only for a loader whose own backend call answers 401 through
 * `sessionEnded` (the list pages: see the _app layout).
 */
export async function requireUserInfo(request: Request): Promise<UserInfo> {
  const user = (await getSession(request)).get("user_info");
  if (!user) throw redirect(signInUrl(request));
  return user;
}

/** The backend said the session is over (401): forget the user and send them to sign-in, remembering where they were. */
export async function sessionEnded(request: Request): Promise<Response> {
  const session = await getSession(request);
  session.unset("user_info");
  session.flash("authError", "Your session has ended. Please sign in again.");
  return redirect(signInUrl(request), { headers: { "set-cookie": await sessionStorage().commitSession(session) } });
}

/** Whether the backend still holds the browser's session (the sign-in page sends a signed-in browser on). */
export async function backendSessionValid(request: Request): Promise<boolean> {
  const response = await backendFetch(request, VALIDATE_SESSION.path, { method: VALIDATE_SESSION.method });
  const body = await answerBody(response);
  return response.ok && checkAnswer("GET /validate-session", body).ok;
}

/** Ends the session on the backend and forgets the user: the Set-Cookie headers for the answer that follows. */
export async function endSession(request: Request): Promise<Headers> {
  const logout = backendAddress("POST /auth/logout");
  const response = await backendFetch(request, logout.path, { method: logout.method }).catch(() => null);
  const headers = response ? relaySetCookie(response) : new Headers();
  // The session ends here whatever the backend said; an answer out of shape is only logged.
  if (response?.ok) checkAnswer("POST /auth/logout", await answerBody(response));
  else await response?.body?.cancel();
  headers.append("set-cookie", await sessionStorage().destroySession(await getSession(request)));
  return headers;
}

/** The user if signed in (without a backend round trip), for pages that only adapt to it. */
export async function optionalUser(request: Request): Promise<UserInfo | null> {
  return (await getSession(request)).get("user_info") ?? null;
}
