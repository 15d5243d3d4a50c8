import { insertConnector, insertTransform, seedLocalDestination, seedSource, userIdByEmail, withDb } from "./db";
import { expect, login, test } from "./fixtures";
import { brokenShortWords, lineCount } from "../support/words";

/**
 * Issue 35, defect 4: no list cell breaks a word shorter than 20 characters ("Activ / e"), at 1280 px and on a
 * 390 px phone, while a long name without spaces still wraps inside its column.
 */
const LONG_NAME = "Quarterly_customer_success_calls_archive_for_the_enterprise_segment";

async function seed(email: string) {
  await withDb(async (db) => {
    const ownerId = await userIdByEmail(db, email);
    const sourceId = await seedSource(db, ownerId, "Sales calls");
    await seedSource(db, ownerId, LONG_NAME);
    const destinationId = await seedLocalDestination(db, ownerId, "Team folder");
    await seedLocalDestination(db, ownerId, LONG_NAME);
    const connectorId = await insertConnector(db, ownerId, {
      name: "Daily sales sync",
      description: "Every generated sales call, synced daily into the team folder",
      sourceId,
      destinationIds: [destinationId],
    });
    await insertConnector(db, ownerId, { name: LONG_NAME, description: "Archive", sourceId, destinationIds: [destinationId] });
    await insertTransform(db, ownerId, { name: "Weekly topics", description: "Topics across the week's calls", type: "topic_modeling", connectorId });
    await insertTransform(db, ownerId, { name: LONG_NAME, description: "Sentiment of every call", type: "sentiment_analysis", connectorId });
  });
}

for (const width of [1280, 390]) {
  test(`no list cell breaks a short word at ${width} px, and a long name wraps`, async ({ page, user }) => {
    await page.setViewportSize({ width, height: 900 });
    await login(page, user, { from: "/sources" });
    await seed(user.email);
    for (const path of ["/sources", "/destinations", "/connectors", "/transforms"]) {
      await page.goto(path);
      const table = page.getByRole("main").getByRole("table");
      await expect(table.getByRole("row")).toHaveCount(3);
      expect(await brokenShortWords(table, "td, th"), `${path} at ${width} px`).toEqual([]);
      const longName = table.getByRole("link", { name: LONG_NAME, exact: true });
      expect(await lineCount(longName), `${path}: the long name wraps at ${width} px`).toBeGreaterThan(1);
    }
  });
}
