import { withDb, userIdByEmail } from "./db";
import { APP_SESSION_COOKIE, APP_URL, BACKEND_SESSION_COOKIE, IDP_ORIGIN } from "./env";
import { expect, login, signIn, signOut, test } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Issue 2 "Bad input": a forged or replayed state, a code the provider rejects,
 * a tampered or expired session cookie — each ends on the sign-in page with a
 * clear message, never a 500 and never a signed-in state.
 */

async function expectSignedOut(page: Page) {
  const response = await page.goto("/connectors");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL((url) => url.pathname === "/" && url.searchParams.get("redirectTo") === "/connectors");
  await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
}

async function sessionCount(email: string): Promise<number> {
  return withDb(async (db) => {
    const userId = await userIdByEmail(db, email);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND expires_at > now()", [userId]);
    return rows[0]!.n;
  });
}

/** Replaces a cookie of the app's host with garbage (host-only, like the ones the app sets). */
async function tamperCookie(page: Page, name: string, value: string) {
  const context = page.context();
  const before = (await context.cookies(APP_URL)).filter((c) => c.name === name);
  expect(before, `the ${name} cookie is set after sign-in`).toHaveLength(1);
  await context.addCookies([{ ...before[0]!, value }]);
  const after = (await context.cookies(APP_URL)).filter((c) => c.name === name);
  expect(after.map((c) => c.value)).toEqual([value]);
}

test("a forged state on the callback ends on sign-in with a message, not signed in", async ({ page }) => {
  const response = await page.goto("/auth/google/callback?code=abc&state=forged");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByRole("alert")).toContainText(/try again/i);
  // The message is shown once (a flash), not forever.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expectSignedOut(page);
});

test("a cancelled sign-in at the provider (error=access_denied) says so on the sign-in page", async ({ page }) => {
  await page.goto("/auth/google/callback?error=access_denied&state=whatever");
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(page.getByRole("alert")).toHaveText("Sign-in was cancelled.");
  await expectSignedOut(page);
});

test("a code the provider rejects (right state, bogus code) ends on sign-in with a message", async ({ page }) => {
  await page.goto("/");
  const authorize = page.waitForRequest((request) => {
    const url = new URL(request.url());
    return url.origin === IDP_ORIGIN && url.searchParams.has("state");
  });
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const state = new URL((await authorize).url()).searchParams.get("state")!;
  await page.waitForURL((url) => url.origin === IDP_ORIGIN && url.pathname.startsWith("/interaction/"));
  // Instead of signing in, come back with this attempt's state but a code the provider never issued.
  const response = await page.goto(`/auth/google/callback?code=not-a-real-code&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(IDP_ORIGIN)}`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(page.getByRole("alert")).toContainText(/sign-in failed/i);
  await expectSignedOut(page);
});

test("replaying a real callback URL after signing out ends on sign-in with a message, not signed in", async ({ page, user }) => {
  let callbackUrl: string | undefined;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === APP_URL && url.pathname === "/auth/google/callback" && url.searchParams.has("code")) callbackUrl = request.url();
  });
  await signIn(page, user);
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  expect(callbackUrl, "the sign-in went through /auth/google/callback?code=…").toBeTruthy();
  await signOut(page);
  expect(await sessionCount(user.email), "log out deletes the session on the backend").toBe(0);
  const response = await page.goto(callbackUrl!);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(page.getByRole("alert")).toBeVisible();
  await expectSignedOut(page);
  expect(await sessionCount(user.email)).toBe(0);
});

test("replaying a real callback URL while still signed in creates no new session and does not sign the user out", async ({ page, user }) => {
  let callbackUrl: string | undefined;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === APP_URL && url.pathname === "/auth/google/callback" && url.searchParams.has("code")) callbackUrl = request.url();
  });
  await signIn(page, user);
  expect(callbackUrl).toBeTruthy();
  const sessionsBefore = await sessionCount(user.email);
  expect(sessionsBefore).toBe(1);
  const response = await page.goto(callbackUrl!);
  expect(response?.status()).toBe(200);
  // A stale (or planted) callback link must not log a signed-in user out: they stay in the app.
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  expect(await sessionCount(user.email)).toBe(sessionsBefore);
});

test("a tampered backend session cookie ends on sign-in with 'Your session has ended', not a 500", async ({ page, user }) => {
  await login(page, user);
  await tamperCookie(page, BACKEND_SESSION_COOKIE, "garbage-not-a-session");
  const response = await page.goto("/connectors");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL((url) => url.pathname === "/" && url.searchParams.get("redirectTo") === "/connectors");
  await expect(page.getByRole("alert")).toHaveText("Your session has ended. Please sign in again.");
  await expectSignedOut(page);
});

test("a tampered app cookie (__tributary) ends on sign-in, not a 500", async ({ page, user }) => {
  await login(page, user);
  await tamperCookie(page, APP_SESSION_COOKIE, "eyJ1c2VyX2luZm8iOnsiaWQiOiJ4In19.forged-signature");
  const response = await page.goto("/connectors");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL((url) => url.pathname === "/" && url.searchParams.get("redirectTo") === "/connectors");
  await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
  await expectSignedOut(page);
});

test("an expired session ends on sign-in with 'Your session has ended'", async ({ page, user }) => {
  await login(page, user);
  await withDb(async (db) => {
    const userId = await userIdByEmail(db, user.email);
    await db.query("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id = $1", [userId]);
  });
  await page.goto("/sources");
  await expect(page).toHaveURL((url) => url.pathname === "/" && url.searchParams.get("redirectTo") === "/sources");
  await expect(page.getByRole("alert")).toHaveText("Your session has ended. Please sign in again.");
  await expectSignedOut(page);
});
