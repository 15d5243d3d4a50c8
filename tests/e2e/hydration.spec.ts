import type { Page } from "@playwright/test";
import { expect, login, test } from "./fixtures";

/**
 * Clicking while a page is still loading its scripts must not break it (app/entry.client.tsx). React 18 used to throw
 * error #345 when a click landed while Remix waited for the page's loader data, before hydrating: the CI run of
 * session 16 caught it once, when a test clicked "Continue with Google" during hydration.
 *
 * The page clicks its own heading on every turn of the event loop from the moment it starts, so some clicks land in
 * each phase of loading, whatever the machine's speed.
 */
const CLICK_FOR_MS = 2_500;

declare global {
  interface Window {
    __clicksDone?: number;
  }
}

function clickWhileLoading(ms: number) {
  const channel = new MessageChannel();
  const until = Date.now() + ms;
  let clicks = 0;
  channel.port1.onmessage = () => {
    const target = document.querySelector("h1");
    if (target) {
      target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      clicks += 1;
    }
    if (Date.now() < until) channel.port2.postMessage(null);
    else window.__clicksDone = clicks;
  };
  channel.port2.postMessage(null);
}

/** React has taken over the heading (it carries React's fiber), so the page hydrated despite the clicks. */
async function expectHydratedAfterClicks(page: Page) {
  await page.waitForFunction(() => window.__clicksDone !== undefined, null, { timeout: CLICK_FOR_MS + 10_000 });
  expect(await page.evaluate(() => window.__clicksDone)).toBeGreaterThan(10);
  const hydrated = await page.locator("h1").first().evaluate((h1) => Object.keys(h1).some((key) => key.startsWith("__reactFiber")));
  expect(hydrated).toBe(true);
}

test.describe("clicks while a page hydrates", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "without JavaScript nothing hydrates");

  test("the sign-in page raises no error and hydrates", async ({ page }) => {
    await page.addInitScript(clickWhileLoading, CLICK_FOR_MS);
    await page.goto("/?redirectTo=%2Fdestinations");
    await expectHydratedAfterClicks(page);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();
  });

  test("a signed-in page raises no error and hydrates", async ({ page, user }) => {
    await login(page, user);
    await page.addInitScript(clickWhileLoading, CLICK_FOR_MS);
    await page.goto("/sources");
    await expectHydratedAfterClicks(page);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});
