import type { Locator, Page } from "@playwright/test";
import { insertConnector, insertTransform, seedLocalDestination, seedSource, userIdByEmail, withDb } from "./db";
import { expect, expectNoHorizontalOverflow, expectNotClipped, login, test } from "./fixtures";

/**
 * Issue 35, defect 7, JS on and off, on a desktop and a phone: a deal-risk transform's result table (the widest one)
 * sits in a named, keyboard-focusable region that scrolls sideways, so every column, the last ones included (risk
 * score, level and reasons were past the edge at 1280 px), can be brought into view while the page itself never
 * overflows; its numbers read rounded and its times as the spec's dates, never as ISO text.
 */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** The spec's date display ("Jan 5,2025 3:04:05 PM"), in whatever zone: the test never says which time it is. */
const SPEC_DATE = /^[A-Z][a-z]{2} \d{1,2},\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)$/;
/** A warehouse's timestamp text: "2025-01-05T15:04:05Z", "2025-01-05 15:04:05.123", "…T15:04:05.000Z". */
const ISO_TIME = /\d{4}-\d\d-\d\d[T ]\d\d:\d\d|T\d\d:\d\d:\d\d|\d\d:\d\d:\d\d(\.\d+)?Z/;
/** A number with more than three decimals ("0.3333333", "33.3333"). */
const LONG_DECIMALS = /\d\.\d{4,}/;

/** The element lies wholly inside the viewport and no scrolling ancestor cuts any of it off. */
async function expectInView(page: Page, element: Locator, what: string) {
  await expect(element, what).toBeVisible();
  const box = (await element.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect({ what, left: box.x >= -0.5, right: box.x + box.width <= width + 0.5 }, `${what} at x ${box.x}…${box.x + box.width} of ${width}`).toEqual({ what, left: true, right: true });
  expect({ what, top: box.y >= -0.5, bottom: box.y + box.height <= height + 0.5 }, `${what} at y ${box.y}…${box.y + box.height} of ${height}`).toEqual({ what, top: true, bottom: true });
  await expectNotClipped(element);
}

/** The region's sideways scroll stays put for a tenth of a second (a smooth scroll has ended). */
async function scrollSettled(page: Page, region: Locator): Promise<boolean> {
  const before = await region.evaluate((el) => el.scrollLeft);
  // From the test's side: a page without JavaScript runs no timers of its own.
  await page.waitForTimeout(100);
  return (await region.evaluate((el) => el.scrollLeft)) === before;
}

test("a deal-risk result table at 1280 and 390 px: every column can be scrolled into view, numbers rounded, times as dates", async ({ page, user }) => {
  await login(page, user, { from: "/transforms" });
  const { connectorId, transformId } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const sourceId = await seedSource(client, ownerId, "Account calls");
    const destinationId = await seedLocalDestination(client, ownerId, "Laptop folder");
    // Paused (insertConnector's default): neither the connector nor its transform runs on a schedule during the test.
    const connectorId = await insertConnector(client, ownerId, { name: "Calls to disk", sourceId, destinationIds: [destinationId] });
    const transformId = await insertTransform(client, ownerId, { name: "Account risk", type: "deal_risk", templateId: "deal_risk", connectorId });
    return { connectorId, transformId };
  });
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 40_000 });
  await page.goto(`/transforms/details/${transformId}`);
  await page.getByRole("button", { name: "Run now" }).click();
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 40_000 });

  // One sync and one run; the page is then loaded afresh at each width.
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.reload();
    const card = page.locator("[data-result-table]");
    await expect(card).toHaveCount(1);
    const table = (await card.getAttribute("data-result-table"))!;
    expect(table).toMatch(/_deal_risk$/);
    // The rows sit in a region of their own, named, that the keyboard reaches (tabindex 0) and scrolls sideways.
    await expect(card.locator("h3")).toHaveText("Deal risk per account");
    const region = card.getByRole("region", { name: "Rows of Deal risk per account" });
    await expect(region).toHaveAttribute("tabindex", "0");
    await expect(region.locator("tbody tr").first()).toBeVisible();
    await expectNoHorizontalOverflow(page);

    const headers = region.locator("thead th");
    const columns = (await headers.allTextContents()).map((text) => text.trim());
    // Headings in words; the technical columns (run id, computed at) stay in the CSV only.
    expect(columns).toEqual(expect.arrayContaining(["Account", "Last meeting", "Average sentiment", "Risk score", "Risk level", "Reasons"]));
    expect(columns.filter((c) => /run|computed/i.test(c))).toEqual([]);
    expect(columns.indexOf("Risk score")).toBeGreaterThan(columns.length / 2);
    const cellsOf = (column: string) => region.locator(`tbody tr > td:nth-child(${columns.indexOf(column) + 1})`);

    // The table is wider than its region here, so the last columns need the scrolling this test is about.
    const widths = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(widths.scroll, `the table is ${widths.scroll}px wide in a ${widths.client}px region`).toBeGreaterThan(widths.client);

    // The keyboard scrolls it: focused, the right arrow moves it sideways (no script of the app's involved).
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft), { message: "the right arrow scrolls the focused region" }).toBeGreaterThan(0);
    // Its scroll is animated: let it end, or it would move the region again after the scrolling below.
    await expect.poll(() => scrollSettled(page, region), { message: "the right arrow's scroll ends" }).toBe(true);

    // Every column's header can be brought into view, and the page never gets wider than the screen.
    for (const [i, column] of columns.entries()) {
      const header = headers.nth(i);
      await header.evaluate((el) => el.scrollIntoView({ block: "nearest", inline: "nearest" }));
      await expectInView(page, header, `the header of ${column}`);
      await expectNoHorizontalOverflow(page);
    }

    // Scrolled to its end, the last column (its header and first cell) is in view, and so are score, level and reasons.
    await region.evaluate((el) => el.scrollIntoView({ block: "start", inline: "nearest" }));
    await region.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    const last = columns[columns.length - 1]!;
    await expectInView(page, headers.last(), `the header of the last column (${last})`);
    await expectInView(page, cellsOf(last).first(), `the first cell of the last column (${last})`);
    for (const column of ["Risk score", "Risk level", "Reasons"]) {
      await headers.nth(columns.indexOf(column)).evaluate((el) => el.scrollIntoView({ block: "nearest", inline: "nearest" }));
      await expectInView(page, headers.nth(columns.indexOf(column)), `the header of ${column}`);
      await expectInView(page, cellsOf(column).first(), `the first cell of ${column}`);
    }
    await expectNoHorizontalOverflow(page);

    // Numbers read rounded (at most three decimals), times as the spec's dates, never as the warehouse's ISO text.
    const cells = (await region.locator("td").allTextContents()).map((text) => text.trim());
    expect(cells.filter((text) => LONG_DECIMALS.test(text))).toEqual([]);
    expect(cells.filter((text) => ISO_TIME.test(text))).toEqual([]);
    for (const score of await cellsOf("Risk score").allTextContents()) {
      expect(score.trim()).toMatch(/^\d{1,3}(\.\d{1,3})?$/);
      expect(Number(score)).toBeLessThanOrEqual(100);
    }
    for (const level of await cellsOf("Risk level").allTextContents()) expect(["Low", "Medium", "High"]).toContain(level.trim());
    for (const when of await cellsOf("Last meeting").allTextContents()) expect(when.trim()).toMatch(SPEC_DATE);
    // Sentiment signed with two decimals.
    for (const sentiment of await cellsOf("Average sentiment").allTextContents()) expect(sentiment.trim()).toMatch(/^([+-]\d+\.\d\d|0\.00)$/);
  }
});
