import type { Page } from "@playwright/test";
import { insertConnector, insertDestination, insertSource, insertTransform, userIdByEmail, withDb } from "./db";
import { expect, expectNoHorizontalOverflow, login, test } from "./fixtures";

/**
 * Issue 26's rough edges of the page frame, JS on and off: a skip link to the content, an error banner that lands
 * below the sticky top bar (and takes focus with JS), and long names without spaces that wrap inside the lists.
 */

const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;

/** The top of `selector`'s box and the bottom of the top bar, in the viewport. */
const boxes = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const header = document.querySelector("header")!.getBoundingClientRect();
    const target = document.querySelector(sel)!.getBoundingClientRect();
    return { headerBottom: header.bottom, top: target.top, viewport: window.innerHeight };
  }, selector);

test("the first Tab reaches 'Skip to content', which moves the keyboard past the top bar and the sidebar", async ({ page, user }) => {
  await login(page, user, { from: "/destinations" });
  await expect(page.getByRole("heading", { name: "No Destinations Found" })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  // The next Tab goes to the first control of the page's content, not to the logo or the sidebar.
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => ({ inMain: !!document.activeElement?.closest("main"), text: document.activeElement?.textContent?.trim() }));
  expect(focused.inMain, `focus went to "${focused.text ?? ""}"`).toBe(true);
});

test.describe("a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a failed submit shows its banner below the sticky top bar, not under it", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/destinations/add" });
    const create = page.getByRole("button", { name: "Create Destination" });
    await create.scrollIntoViewIfNeeded();
    await create.click();
    const banner = page.getByRole("alert");
    await expect(banner).toContainText("Please enter a destination name");
    await expect(banner).toBeInViewport();
    if (jsEnabled) await expect(banner).toBeFocused();
    // With JS the banner scrolls into view smoothly: wait until it has come to rest below the bar.
    await expect
      .poll(async () => {
        const b = await boxes(page, '[role="alert"]');
        return b.top >= b.headerBottom && b.top < b.viewport;
      })
      .toBe(true);
  });
});

test("a 200-character name without spaces wraps inside each list instead of widening it", async ({ page, user }) => {
  const long = `Quarterly${"x".repeat(183)}Pipeline`;
  expect(long).toHaveLength(200);
  await login(page, user);
  await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const sourceId = await insertSource(client, ownerId, { name: long });
    const destinationId = await insertDestination(client, ownerId, { name: long });
    const connectorId = await insertConnector(client, ownerId, { name: long, sourceId, destinationIds: [destinationId] });
    await insertTransform(client, ownerId, { name: long, type: "topic_modeling", connectorId });
  });
  for (const path of ["/connectors", "/sources", "/destinations", "/transforms"]) {
    await page.goto(path);
    await expect(page.getByRole("link", { name: long }).first()).toBeVisible();
    await expectNoHorizontalOverflow(page);
    // The table fits its card: no sideways scrolling to reach the other columns.
    const table = await page.locator("table").first().evaluate((t) => ({ table: t.scrollWidth, box: t.parentElement!.clientWidth }));
    expect(table.table, `${path}: the table is ${table.table}px wide in a ${table.box}px card`).toBeLessThanOrEqual(table.box);
  }
});
