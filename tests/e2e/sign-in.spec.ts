import { APP_URL } from "./env";
import { expect, expectAccessible, signIn, test } from "./fixtures";

/**
 * Spec §2 (Sign-in, route table) and issue 2: the sign-in flow through the provider's pages, JS on and off. The
 * server's rules around it (guarded routes remembering the path, no open redirect) are checked over HTTP in
 * tests/http/sign-in.spec.ts.
 */

test.describe("sign-in page", () => {
  test("/ shows Welcome, Continue with Google, Terms and Privacy links and the local sign-in notice", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Sign in/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Terms of Use" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Privacy Policy" })).toBeVisible();
    await expect(page.getByText("Local sign-in is active")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expectAccessible(page);
  });

  test("the Terms of Use and Privacy Policy links open public pages", async ({ page }) => {
    for (const [link, path] of [
      ["Terms of Use", "/terms"],
      ["Privacy Policy", "/privacy"],
    ] as const) {
      await page.goto("/");
      await page.getByRole("link", { name: link }).click();
      await expect(page).toHaveURL(`${APP_URL}${path}`);
      await expect(page.getByRole("heading", { level: 1, name: link })).toBeVisible();
    }
  });

  test("/signup exists and offers Continue with Google", async ({ page }) => {
    const response = await page.goto("/signup");
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/signup");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
    await expectAccessible(page);
  });

  test("signing up from /signup goes through the provider and lands on /connectors", async ({ page, user }) => {
    await page.goto("/signup");
    await signIn(page, user, { from: "/signup" });
    await expect(page).toHaveURL(`${APP_URL}/connectors`);
    await expect(page.getByRole("heading", { name: /Hi Grace/ })).toBeVisible();
  });

  test("signing in from plain / lands on /connectors", async ({ page, user }) => {
    await page.goto("/");
    await signIn(page, user);
    await expect(page).toHaveURL(`${APP_URL}/connectors`);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  });

  test("a signed-in visitor of / goes straight to /connectors", async ({ page, user }) => {
    await signIn(page, user);
    await page.goto("/");
    await expect(page).toHaveURL(`${APP_URL}/connectors`);
  });
});
