import { insertConnector, insertTransform, seedLocalDestination, seedSource, userIdByEmail, withDb } from "./db";
import { expect, expectAccessibleAtEveryWidth, expectNoHorizontalOverflow, login, test } from "./fixtures";

/**
 * Issue 54, JavaScript on and off: every transcript template's results page leads with its charts, drawn on the
 * server (an SVG with its title and description, a labelled mark per point), readable at 1280 and 390 px without
 * sideways scroll, axe-clean, each with "Download SVG" and "Download CSV". The numbers themselves are checked against
 * the result tables below the browser (tests/backend/template-charts.test.ts).
 */

const TEMPLATES = [
  { id: "topic_modeling", type: "topic_modeling", charts: ["Share of meetings per topic"] },
  { id: "sentiment_over_time", type: "sentiment_analysis", charts: ["Sentiment over time"] },
  { id: "action_items", type: "action_items", charts: ["Action items per owner", "Action items per week"] },
  { id: "speaker_metrics", type: "speaker_metrics", charts: ["Talk ratio per speaker", "Long monologues per speaker"] },
  { id: "keyword_tracker", type: "keyword_tracking", charts: ["Mentions per keyword over time", "Mentions per keyword"] },
  { id: "deal_risk", type: "deal_risk", charts: ["Accounts by deal risk"] },
];

// Six template runs over one synced connector, each results page looked at and checked by axe on two widths: a long
// test, for six whole results pages.
test("every transcript template's results page shows its charts at 1280 and 390 px, with their downloads", async ({ page, user }) => {
  test.setTimeout(300_000);
  await login(page, user, { from: "/transforms" });
  const { connectorId, transforms } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const sourceId = await seedSource(client, ownerId, "Team calls");
    const destinationId = await seedLocalDestination(client, ownerId, "Laptop folder");
    const connectorId = await insertConnector(client, ownerId, { name: "Calls to disk", sourceId, destinationIds: [destinationId] });
    const transforms: { id: string; template: string; charts: string[] }[] = [];
    for (const t of TEMPLATES) transforms.push({ id: await insertTransform(client, ownerId, { name: `Charts ${t.id}`, type: t.type, templateId: t.id, connectorId }), template: t.id, charts: t.charts });
    return { connectorId, transforms };
  });
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 40_000 });
  // The connector's run history leads with its last 30 days as pictures.
  await page.reload();
  const history = page.getByRole("group", { name: "Runs of the last 30 days" });
  for (const title of ["Records synced per day", "Run duration per day"]) await expect(history.getByRole("figure", { name: title, exact: true }).getByRole("img")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("connector-run-charts-1280.png"), fullPage: true });

  for (const transform of transforms) {
    await page.goto(`/transforms/details/${transform.id}`);
    await page.getByRole("button", { name: "Run now" }).click();
    await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 40_000 });
    await page.reload();
    await expect(page.getByRole("group", { name: "Runs of the last 30 days" }).getByRole("figure", { name: "Records read per day", exact: true })).toBeVisible();
    const figures = page.getByRole("region", { name: "Results" }).locator("figure[data-chart]");
    await expect(figures).toHaveCount(transform.charts.length);
    for (const title of transform.charts) {
      const figure = page.getByRole("figure", { name: title, exact: true });
      await expect(figure).toBeVisible();
      const picture = figure.getByRole("img", { name: new RegExp(`^${title}\\. `) });
      await expect(picture).toBeVisible();
      expect(await picture.locator("[aria-label]").count(), `${title}: labelled marks`).toBeGreaterThan(2);
      for (const format of ["SVG", "CSV"]) {
        const link = figure.getByRole("link", { name: `Download ${format} of ${title}` });
        const response = await page.request.get((await link.getAttribute("href"))!);
        expect(response.status(), `${title} ${format}`).toBe(200);
        const body = await response.text();
        if (format === "SVG") expect(body.startsWith("<svg") && body.includes(`<title>${title}</title>`)).toBe(true);
        else expect(body.split("\r\n").filter(Boolean).length, `${title}: a CSV header and rows`).toBeGreaterThan(1);
      }
    }
    // The charts come before the tables, and fit a phone.
    const [chartTop, tableTop] = await Promise.all([figures.first().boundingBox(), page.locator("[data-result-table]").first().boundingBox()]);
    // (the results' charts, not the run history's)
    expect(chartTop!.y).toBeLessThan(tableTop!.y);
    // For a person to look at: each template's charts at both widths.
    await figures.first().locator("..").screenshot({ path: test.info().outputPath(`${transform.template}-charts-1280.png`) });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await figures.first().locator("..").screenshot({ path: test.info().outputPath(`${transform.template}-charts-390.png`) });
    const box = (await figures.first().getByRole("img").boundingBox())!;
    expect(box.width, "the chart scales down to the phone").toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
    // axe on every results page, its charts included, at 390 and 1280 px.
    await expectAccessibleAtEveryWidth(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath("deal-risk-charts-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("deal-risk-charts-390.png"), fullPage: true });
});
