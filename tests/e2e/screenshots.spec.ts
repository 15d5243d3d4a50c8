import path from "node:path";
import { fileURLToPath } from "node:url";
import { APP_URL, RESULTS_DIR } from "./env";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

/**
 * Issue 2 point 6: screenshots of sign-in, the shell and each empty list under
 * docs/screenshots/ when UPDATE_SCREENSHOTS=1 (else test-results/screenshots/). JavaScript on only: they show
 * the page as most people see it, and one set is enough.
 */
// The committed pictures change only when asked (UPDATE_SCREENSHOTS=1); other runs write beside the reports.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const folder = process.env.UPDATE_SCREENSHOTS ? path.join(root, "docs/screenshots") : path.join(root, RESULTS_DIR, "screenshots");

/** A still picture: web fonts loaded, no hover state, CSS transitions finished. */
async function capture(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.evaluate(() => document.fonts.ready);
  await page.mouse.move(1, 799);
  await page.screenshot({ path: path.join(folder, name), animations: "disabled", fullPage: options.fullPage ?? false });
}

test("screenshots of sign-in, the shell, the empty lists and a phone", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "One set of screenshots, with JavaScript on, is enough.");
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible();
  await capture(page, "sign-in.png");

  // A fixed, readable identity for the pictures (the run's database is fresh, so this user has no records).
  await signIn(page, { name: "Grace Hopper", email: "grace.hopper@example.com" });
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  await expect(page.getByRole("heading", { name: /Hi Grace/ })).toBeVisible();
  await capture(page, "connectors-empty.png");

  for (const [list, empty] of [
    ["sources", "No Sources Found"],
    ["destinations", "No Destinations Found"],
    ["transforms", "No Transforms Found"],
  ] as const) {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: list, exact: false }).click();
    await expect(page).toHaveURL(`${APP_URL}/${list}`);
    await expect(page.getByText(empty)).toBeVisible();
    await capture(page, `${list}-empty.png`);
  }

  await page.goto("/connectors");
  await page.locator('summary[aria-label^="Profile menu for"]').click();
  await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
  await capture(page, "profile-menu.png");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/connectors");
  await expect(page.getByRole("heading", { name: /Hi Grace/ })).toBeVisible();
  await capture(page, "connectors-phone.png", { fullPage: true });
});
