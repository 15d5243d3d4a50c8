import { expect, expectAccessible, test, waitForHydration } from "./fixtures";

/**
 * The accessibility check itself (expectAccessible, tests/e2e/fixtures.ts) finds a violation that only the app's
 * stylesheet makes, with JavaScript on and off: without JavaScript the check runs on a copy of the page, and a copy
 * written after another one must still have the stylesheet applied.
 */
test("the accessibility check finds low-contrast text that the app's stylesheet makes, on a first page and the next", async ({ page, jsEnabled }) => {
  await page.goto("/terms");
  await expectAccessible(page);
  await page.goto("/privacy");
  // With JavaScript, once React has taken the page over: hydrating would remove a paragraph added before.
  if (jsEnabled) await waitForHydration(page);
  await page.evaluate(() => {
    const p = document.createElement("p");
    // slate-400 on the page's white: a contrast of 2.6, under the 4.5 that text needs.
    p.className = "text-slate-400";
    p.textContent = "Hard to read";
    document.querySelector("main")!.prepend(p);
  });
  await expect(expectAccessible(page)).rejects.toThrow(/serious: color-contrast/);
});
