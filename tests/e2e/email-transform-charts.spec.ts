import { TEAM_MAIL_THEIR_MEDIAN_MINUTES, teamMail, writeSyncedMail } from "../support/email-mailbox";
import { insertTransform, seedGmailConnector, userIdByEmail, withDb } from "./db";
import { expect, expectAccessibleAtEveryWidth, expectNoHorizontalOverflow, login, syncNow, test } from "./fixtures";

/**
 * Issue 54, JavaScript on and off: every e-mail template's results page leads with its chart, drawn on the server (an
 * SVG with its title and description, a labelled mark per point), readable at 1280 and 390 px without sideways scroll,
 * axe-clean, with "Download SVG" and "Download CSV". The mail: a Gmail connector synced from the fake Google into a
 * local folder (three mailboxes of acme.example writing with globex.example), and five weeks of a sales and support
 * team's threads with six customers at five companies written beside it as the sync writes them
 * (tests/support/email-mailbox.ts). The numbers are checked against the result tables below the browser
 * (tests/backend/template-charts.test.ts); here, a few of them in the CSVs.
 */

interface Case {
  id: string;
  type: string;
  /** Its charts' titles, as backend/transforms/catalogue-email.ts declares them. */
  charts: string[];
  /** What the CSV behind its chart holds (its lines, header first). */
  csv(lines: string[]): void;
}

const cells = (line: string) => line.split(",");

const CASES: Case[] = [
  {
    id: "email_response_time",
    type: "email_response_time",
    charts: ["Median reply time by correspondent"],
    csv(lines) {
      expect(lines[0]).toBe("Correspondent,Median reply time (minutes)");
      const drawn = Object.fromEntries(lines.slice(1).map((line) => [cells(line)[0], Number(cells(line)[1])]));
      // Each customer of the team's mail at their own pace, and the fake Google's customer0, who answered every mailbox
      // 18 hours less a minute after the message before.
      expect(drawn).toMatchObject({ ...TEAM_MAIL_THEIR_MEDIAN_MINUTES, "customer0@globex.example": 1079 });
      // The slowest first.
      expect(cells(lines[1]!)[0]).toBe("frank@stark.example");
    },
  },
  {
    id: "email_sentiment",
    type: "email_sentiment",
    charts: ["E-mail sentiment over time"],
    csv(lines) {
      expect(lines[0]).toBe("Period starting (UTC),Average sentiment score");
      // Five weeks of mail, a point per week (its Monday), in time order: warm at first, below 0 in the week of the
      // price, the outage and the contract, warm again after. (A message's score is the sum of its words' AFINN-165
      // scores: an average of +4 is a warm week, not a point off a −1 to +1 scale.)
      const points = lines.slice(1).map(cells);
      expect(points.length).toBeGreaterThanOrEqual(5);
      for (const [week] of points) expect(new Date(`${week}T00:00:00Z`).getUTCDay(), `${week} is a Monday`).toBe(1);
      expect(points.map(([week]) => week)).toEqual(points.map(([week]) => week).sort());
      const scores = points.map(([, score]) => Number(score));
      expect(Math.min(...scores)).toBeLessThan(0);
      expect(Math.max(...scores)).toBeGreaterThan(1);
    },
  },
  {
    id: "email_correspondents",
    type: "email_correspondents",
    charts: ["Top external domains"],
    csv(lines) {
      expect(lines[0]).toBe("Domain,Messages");
      // Globex: the twelve messages the sync read from the fake Google (its four of the last 7 days in each of three
      // mailboxes; the connector looks 7 days back) and the team's thirteen. acme.example, the mailboxes' own, is not
      // external. The busiest first, a tie by name.
      expect(lines.slice(1)).toEqual(["globex.example,25", "umbrella.example,7", "initech.example,6", "stark.example,6", "hooli.example,5"]);
    },
  },
];

/** Today's UTC midnight: the team's mail is dated back from it, as the fake Google's is. */
const utcMidnight = () => new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);

// A sync, three template runs and their results pages, each looked at and checked by axe at two widths.
test("every e-mail template's results page shows its chart at 1280 and 390 px, with its downloads", async ({ page, user }) => {
  test.setTimeout(300_000);
  await login(page, user, { from: "/transforms" });
  const seeded = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    return { ownerId, ...(await seedGmailConnector(client, ownerId, "Team mail")) };
  });
  await syncNow(page, seeded.connectorId);
  const transforms = await withDb(async (client) => {
    await writeSyncedMail(client, seeded, teamMail(utcMidnight()));
    const made: (Case & { transformId: string })[] = [];
    for (const c of CASES) made.push({ ...c, transformId: await insertTransform(client, seeded.ownerId, { name: `Charts ${c.id}`, type: c.type, templateId: c.id, connectorId: seeded.connectorId, fileTypes: [".txt"] }) });
    return made;
  });

  for (const transform of transforms) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/transforms/details/${transform.transformId}`);
    await page.getByRole("button", { name: "Run now" }).click();
    await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });
    await page.reload();
    await expect(page.getByRole("group", { name: "Runs of the last 30 days" }).getByRole("figure", { name: "Records read per day", exact: true })).toBeVisible();
    const results = page.getByRole("region", { name: "Results" });
    const figures = results.locator("figure[data-chart]");
    await expect(figures).toHaveCount(transform.charts.length);
    for (const title of transform.charts) {
      const figure = results.getByRole("figure", { name: title, exact: true });
      await expect(figure.getByRole("heading", { name: title, exact: true })).toBeVisible();
      const picture = figure.getByRole("img", { name: new RegExp(`^${title}\\. `) });
      await expect(picture).toBeVisible();
      await expect(picture.locator(":scope > title")).toHaveText(title);
      expect(await picture.locator("[aria-label]").count(), `${title}: labelled marks`).toBeGreaterThan(2);
      // Its plot and axes only: a point off the value scale (a sentiment of +5.75 on a −1 to +1 axis) is drawn outside
      // the plot, and the picture grows around it to 900 px and more.
      expect((await picture.boundingBox())!.height, `${title}: every point on the plot`).toBeLessThan(400);
      for (const format of ["SVG", "CSV"] as const) {
        const link = figure.getByRole("link", { name: `Download ${format} of ${title}` });
        const response = await page.request.get((await link.getAttribute("href"))!);
        expect(response.status(), `${title} ${format}`).toBe(200);
        expect(response.headers()["content-type"], `${title} ${format}`).toBe(format === "SVG" ? "image/svg+xml; charset=utf-8" : "text/csv; charset=utf-8");
        const body = await response.text();
        if (format === "SVG") expect(body.startsWith("<svg") && body.includes(`<title>${title}</title>`), `${title}: the SVG and its title`).toBe(true);
        else transform.csv(body.split("\r\n").filter(Boolean));
      }
    }
    // The chart comes before the tables.
    const [chartTop, tableTop] = await Promise.all([figures.first().boundingBox(), page.locator("[data-result-table]").first().boundingBox()]);
    expect(chartTop!.y).toBeLessThan(tableTop!.y);
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath(`${transform.id}-1280.png`), fullPage: true });
    await figures.first().screenshot({ path: test.info().outputPath(`${transform.id}-chart-1280.png`) });

    // On a phone: the compact drawing, as many labelled marks, no sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    // From the top: a full-page picture taken scrolled down draws the sticky header halfway down the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const title of transform.charts) {
      const picture = results.getByRole("figure", { name: title, exact: true }).getByRole("img");
      await expect(picture).toBeVisible();
      expect((await picture.boundingBox())!.width, `${title}: the chart scales down to the phone`).toBeLessThanOrEqual(390);
      expect(await picture.locator("[aria-label]").count(), `${title}: labelled marks at 390 px`).toBeGreaterThan(2);
    }
    await page.screenshot({ path: test.info().outputPath(`${transform.id}-390.png`), fullPage: true });
    await figures.first().screenshot({ path: test.info().outputPath(`${transform.id}-chart-390.png`) });

    // axe on every results page, its chart included, at 390 and 1280 px.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectAccessibleAtEveryWidth(page);
  }
});
