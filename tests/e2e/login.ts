import type { Page } from "@playwright/test";
import { loadConfig } from "../../backend/config";
import { connectDatabase } from "../../backend/db/client";
import { createSession, toUserInfo, upsertUser } from "../../backend/auth/sessions";
import { localSubject } from "../../backend/auth/local-identity";
import { SESSION_COOKIE } from "../../contract/auth";
import { sessionStorage } from "../../app/services/session.server";
import { APP_SESSION_COOKIE, APP_URL, databaseUrl, IDP_ORIGIN, secretKey } from "./env";
import { startedTributary } from "./server";

/** Who signs in: the name and e-mail typed into the (local) provider's form. */
export interface TestUser {
  name: string;
  email: string;
}

/**
 * The rows and cookies a real sign-in leaves behind (Epic Stack's login fixture), made directly instead of through
 * the provider's pages: the user row as the code exchange writes it for the local provider (its issuer, the subject
 * it derives from the e-mail, the name's first word as given name), a backend session by the backend's own
 * functions (the browser gets the opaque token as `tributary_session`), and the app's signed `__tributary` cookie
 * session holding the user info, signed by the app's own session storage with the run's key. The real redirect and
 * code exchange are tested in sign-in.spec.ts (signIn in fixtures.ts).
 */
async function createLogin(app: string, user: TestUser): Promise<{ token: string; expiresAt: Date; appCookie: { value: string; maxAge: number } }> {
  const target = app === APP_URL ? { databaseUrl: databaseUrl(), issuer: IDP_ORIGIN } : startedTributary(app);
  // The app's session storage reads the key from the environment (app/services/env.server.ts), as the web server does.
  process.env.TRIBUTARY_SECRET_KEY = secretKey();
  const config = loadConfig({ NODE_ENV: "development", DATABASE_URL: target.databaseUrl, TRIBUTARY_SECRET_KEY: secretKey(), APP_URL: app });
  const email = user.email.trim().toLowerCase();
  const name = user.name.trim();
  const handle = connectDatabase(target.databaseUrl, 1);
  try {
    const row = await upsertUser(handle.db, {
      issuer: target.issuer,
      subject: localSubject(email),
      email,
      name,
      givenName: name.split(/\s+/)[0] ?? null,
      picture: null,
    });
    const { token, expiresAt } = await createSession(handle.db, row.id, config.SESSION_TTL_HOURS);
    const storage = sessionStorage();
    const session = await storage.getSession();
    session.set("user_info", toUserInfo(row));
    const setCookie = await storage.commitSession(session);
    // "__tributary=<value>; Max-Age=<seconds>; …", as the callback route sends it.
    const value = setCookie.slice(`${APP_SESSION_COOKIE}=`.length, setCookie.indexOf(";"));
    const maxAge = Number(/;\s*Max-Age=(\d+)/i.exec(setCookie)?.[1]);
    if (!setCookie.startsWith(`${APP_SESSION_COOKIE}=`) || !maxAge) throw new Error(`Unexpected app session cookie: ${setCookie.split(";")[0]?.split("=")[0]}`);
    return { token, expiresAt, appCookie: { value, maxAge } };
  } finally {
    await handle.close();
  }
}

/**
 * Signs `user` in without the provider's pages (see createLogin), then opens `from` (default: where signing in from
 * the current page would land: the sign-in page's redirectTo, or /connectors). `app` names another Tributary started
 * by the spec (startTributary in server.ts), which shares the run's key.
 */
export async function login(page: Page, user: TestUser, options: { from?: string; app?: string } = {}): Promise<void> {
  const app = options.app ?? APP_URL;
  const { token, expiresAt, appCookie } = await createLogin(app, user);
  const cookie = { url: app, httpOnly: true, sameSite: "Lax" as const };
  await page.context().addCookies([
    { ...cookie, name: SESSION_COOKIE, value: token, expires: Math.floor(expiresAt.getTime() / 1000) },
    { ...cookie, name: APP_SESSION_COOKIE, value: appCookie.value, expires: Math.floor(Date.now() / 1000) + appCookie.maxAge },
  ]);
  const here = page.url().startsWith(app) ? new URL(page.url()) : null;
  // On the sign-in page the product sends a signed-in visitor on to its redirectTo (or /connectors), as after a sign-in.
  const to = options.from ?? (here?.pathname === "/" ? here.pathname + here.search : "/");
  await page.goto(new URL(to, app).href);
}

/**
 * The Cookie header of a browser that signed `user` in (both session cookies, see createLogin), for raw HTTP
 * requests that no browser sends.
 */
export async function loginCookieHeader(user: TestUser, app: string = APP_URL): Promise<string> {
  const { token, appCookie } = await createLogin(app, user);
  return `${SESSION_COOKIE}=${token}; ${APP_SESSION_COOKIE}=${appCookie.value}`;
}
