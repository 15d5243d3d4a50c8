import { insertConnector, insertTransform, seedLocalDestination, seedSource, userIdByEmail, withDb } from "./db";
import { expect, expectAccessibleAtEveryWidth, expectNoHorizontalOverflow, login, test } from "./fixtures";

/**
 * Issue 54, "paging through every row", JavaScript on and off: an action_items transform's result table (thousands of
 * rows at the generator's default volume) reached from the details page's "See all N rows", 50 rows a page in words,
 * Next and Previous as plain links that bring back the same rows, a page past the end that says so and links to the
 * last page, the CSV download and the way back; axe-clean and without sideways scroll at 1280 and 390 px. That pages
 * hold every row once, in the key's order, on every warehouse: tests/backend/results-paging.test.ts; the page's 404s
 * and its ?page= addresses: tests/http/transform-results-page.spec.ts.
 */

const number = new Intl.NumberFormat("en-US");

test("a result table's own pages: See all, Next, Previous, past the end, the CSV and the way back", async ({ page, user }) => {
  // One sync and one transform run, then a handful of pages, each looked at by axe at two widths.
  test.setTimeout(180_000);
  await login(page, user, { from: "/transforms" });
  const { connectorId, transformId } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const sourceId = await seedSource(client, ownerId, "Team calls");
    const destinationId = await seedLocalDestination(client, ownerId, "Laptop folder");
    // Paused (insertConnector's default): nothing runs on a schedule during the test.
    const connectorId = await insertConnector(client, ownerId, { name: "Calls to disk", sourceId, destinationIds: [destinationId] });
    const transformId = await insertTransform(client, ownerId, { name: "Follow-ups", type: "action_items", templateId: "action_items", connectorId });
    return { connectorId, transformId };
  });
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 40_000 });
  await page.goto(`/transforms/details/${transformId}`);
  await page.getByRole("button", { name: "Run now" }).click();
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 40_000 });
  await page.reload();

  // The details page's table links to its own pages, saying how many rows there are.
  const card = page.locator("[data-result-table]");
  await expect(card).toHaveCount(1);
  const table = (await card.getAttribute("data-result-table"))!;
  const seeAll = card.getByRole("link", { name: /^See all [\d,]+ rows of Action items$/ });
  const total = Number((await seeAll.textContent())!.replace(/[^\d]/g, ""));
  expect(total, "more rows than two pages").toBeGreaterThan(100);
  await card.screenshot({ path: test.info().outputPath("details-results-card-1280.png") });
  await seeAll.click();

  const address = `/transforms/details/${transformId}/results/${table}`;
  await expect(page).toHaveURL(new RegExp(`${address}$`));
  await expect(page).toHaveTitle("Action items · Follow-ups · Tributary");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Action items");
  await expect(page.getByText(`${number.format(total)} rows from the latest successful run of Follow-ups, 50 a page.`)).toBeVisible();
  const region = page.getByRole("region", { name: "Rows of Action items" });
  const rows = region.locator("tbody tr");
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(rows).toHaveCount(50);
  await expect(pagination).toContainText(`Showing 1–50 of ${number.format(total)} rows`);
  await expect(pagination).toContainText(`Page 1 of ${number.format(Math.ceil(total / 50))}`);
  // The details page's words: headings in words, the technical columns left to the CSV.
  const headings = (await region.locator("thead th").allTextContents()).map((text) => text.trim());
  expect(headings).toEqual(expect.arrayContaining(["Meeting", "Line id", "Owner", "Cue", "Due"]));
  expect(headings.filter((h) => /run|computed/i.test(h))).toEqual([]);
  // On the first page, Previous is no link; the rows are numbered from 1.
  await expect(pagination.getByRole("link", { name: "Previous" })).toHaveCount(0);
  await expect(rows.first().locator("td").first()).toHaveText("1");
  // Each row by its line id (the table's key).
  const lineIds = region.locator(`tbody tr > td:nth-child(${headings.indexOf("Line id") + 1})`);
  const first = await lineIds.allTextContents();
  expect(new Set(first).size).toBe(50);

  await pagination.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(new RegExp(`${address}\\?page=2$`));
  await expect(page).toHaveTitle("Action items (page 2) · Follow-ups · Tributary");
  await expect(pagination).toContainText(`Showing 51–100 of ${number.format(total)} rows`);
  await expect(rows).toHaveCount(50);
  await expect(rows.first().locator("td").first()).toHaveText("51");
  // Fifty other rows: none of the first page's again.
  const second = await lineIds.allTextContents();
  expect(new Set(second).size).toBe(50);
  expect(second.filter((id) => first.includes(id))).toEqual([]);

  // For a person to look at, and for axe: the second page at both widths (its top, and its end with the paging
  // links), never wider than the screen.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expectNoHorizontalOverflow(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: test.info().outputPath(`result-table-page-2-${width}.png`) });
    await pagination.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`result-table-page-2-${width}-end.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectAccessibleAtEveryWidth(page);

  // Previous brings back the first page's rows, in the same order.
  await pagination.getByRole("link", { name: "Previous" }).click();
  await expect(page).toHaveURL(new RegExp(`${address}\\?page=1$`));
  await expect(pagination).toContainText(`Showing 1–50 of ${number.format(total)} rows`);
  await expect(lineIds).toHaveText(first);

  // The CSV holds every row (and a heading line).
  const download = page.getByRole("link", { name: "Download CSV of Action items" });
  const csv = await page.request.get((await download.getAttribute("href"))!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect((await csv.text()).split("\r\n").filter(Boolean).length).toBeGreaterThanOrEqual(total + 1);

  // A page past the end says so, and links to the last page.
  const pages = Math.ceil(total / 50);
  await page.goto(`${address}?page=${pages + 7}`);
  await expect(page.getByText(`There is no page ${number.format(pages + 7)}: Action items has ${number.format(total)} rows, on ${number.format(pages)} pages.`)).toBeVisible();
  await expect(rows).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("result-table-past-the-end-1280.png"), fullPage: true });
  await expectAccessibleAtEveryWidth(page);
  await page.getByRole("link", { name: "Go to the last page" }).click();
  await expect(page).toHaveURL(new RegExp(`${address}\\?page=${pages}$`));
  const lastCount = total - (pages - 1) * 50;
  await expect(pagination).toContainText(`Showing ${number.format(total - lastCount + 1)}–${number.format(total)} of ${number.format(total)} rows`);
  await expect(rows).toHaveCount(lastCount);
  await expect(pagination.getByRole("link", { name: "Next" })).toHaveCount(0);

  // And back to the transform.
  await page.getByRole("link", { name: "Follow-ups" }).click();
  await expect(page).toHaveURL(new RegExp(`/transforms/details/${transformId}$`));
  await expect(page.locator("[data-result-table]")).toHaveCount(1);
});
