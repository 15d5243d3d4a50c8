import { insertConnector, insertDestination, insertSource, insertTransform, insertUser, userIdByEmail, withDb } from "./db";
import { APP_URL } from "./env";
import { expect, expectAccessible, expectNotClipped, login, test, uniqueEmail } from "./fixtures";

/**
 * Spec §2 (List screens) and issue 2 point 5: the four lists, empty and with records, JS on and off. A delete link
 * for someone else's transform (the server shows it does not exist and refuses the Delete) is checked over HTTP in
 * tests/http/lists.spec.ts.
 */

test.describe("empty lists", () => {
  test("/connectors greets by first name and shows the three steps", async ({ page, user }) => {
    await login(page, user);
    await expect(page).toHaveURL(`${APP_URL}/connectors`);
    await expect(page.getByRole("heading", { level: 1, name: /Hi Grace/ })).toBeVisible();
    const main = page.getByRole("main");
    const steps = main.getByRole("listitem");
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(0).getByRole("link")).toHaveAttribute("href", "/sources/add");
    await expect(steps.nth(1).getByRole("link")).toHaveAttribute("href", "/destinations/add");
    await expect(steps.nth(2).getByRole("link")).toHaveAttribute("href", "/connectors/add");
    await expect(steps.nth(0)).toContainText(/source/i);
    await expect(steps.nth(1)).toContainText(/destination/i);
    await expect(steps.nth(2)).toContainText(/connector/i);
    await expect(main.getByRole("table")).toHaveCount(0);
    await expectAccessible(page);
  });

  for (const { path, empty, create } of [
    { path: "/sources", empty: "No Sources Found", create: "/sources/add" },
    { path: "/destinations", empty: "No Destinations Found", create: "/destinations/add" },
    { path: "/transforms", empty: "No Transforms Found", create: "/transforms/add" },
  ]) {
    test(`${path} says "${empty}" and offers to create one`, async ({ page, user }) => {
      await login(page, user, { from: path });
      await expect(page).toHaveURL(`${APP_URL}${path}`);
      const main = page.getByRole("main");
      await expect(main.getByText(empty, { exact: true })).toBeVisible();
      await expect(main.getByRole("link", { name: /create/i })).toHaveAttribute("href", create);
      await expect(main.getByRole("table")).toHaveCount(0);
      await expectAccessible(page);
    });
  }
});

/**
 * The create pages come in later issues, so the records are written straight
 * into the run's Postgres for the signed-in user (looked up by e-mail), next
 * to another user's records that must never show.
 */
test.describe("lists with records", () => {
  const SOURCE = { name: "Sales Zoom", description: "Every recorded sales call", createdAt: "2025-01-05T15:04:05Z" };
  const DESTINATION = { name: "Analytics Warehouse", description: "BigQuery dataset for analysis", createdAt: "2025-03-09T08:07:06Z" };
  const OTHER = { connector: "Someone else's connector", source: "Someone else's source", destination: "Someone else's destination", transform: "Someone else's transform" };
  const name = (i: number) => `Connector ${String(i).padStart(2, "0")}`;

  async function seed(email: string) {
    return withDb(async (db) => {
      const ownerId = await userIdByEmail(db, email);
      const sourceId = await insertSource(db, ownerId, SOURCE);
      const destinationId = await insertDestination(db, ownerId, DESTINATION);
      const connectorIds: string[] = [];
      // Connector 01 is the oldest (created 2025-01-05 15:04:05 UTC), Connector 60 the newest.
      for (let i = 1; i <= 60; i++) {
        const createdAt = new Date(Date.parse("2025-01-05T15:04:05Z") + (i - 1) * 3_600_000).toISOString();
        connectorIds.push(
          await insertConnector(db, ownerId, {
            name: name(i),
            description: `Syncs sales calls, batch ${i}`,
            sourceId,
            destinationIds: [destinationId],
            createdAt,
            lastSyncedAt: i === 1 ? "2025-01-05T15:04:05Z" : i === 60 ? "2025-06-30T23:59:59Z" : null,
          }),
        );
      }
      const transformId = await insertTransform(db, ownerId, {
        name: "Weekly topics",
        description: "Topics across the week's sales calls",
        type: "topic_modeling",
        connectorId: connectorIds[59]!,
        createdAt: "2025-02-01T09:30:00Z",
      });
      // Another user's records, newer than everything above: they would top every list if they leaked.
      const otherId = await insertUser(db, "Mallory Other", uniqueEmail("mallory"));
      const otherSource = await insertSource(db, otherId, { name: OTHER.source });
      const otherDestination = await insertDestination(db, otherId, { name: OTHER.destination });
      const otherConnector = await insertConnector(db, otherId, { name: OTHER.connector, sourceId: otherSource, destinationIds: [otherDestination] });
      await insertTransform(db, otherId, { name: OTHER.transform, type: "sentiment", connectorId: otherConnector });
      return { connectorIds, transformId };
    });
  }

  test("connectors: 50 a page, newest first, with source, destinations and last connection; never another user's", async ({ page, user }) => {
    await login(page, user);
    const { connectorIds } = await seed(user.email);
    const main = page.getByRole("main");
    const rows = main.locator("table tbody tr");
    const names = main.locator("table tbody tr td:first-child");

    // Page 1: the 50 newest.
    await page.goto("/connectors");
    await expect(main.getByRole("columnheader")).toHaveText(["Name", "Status", "Description", "Source", "Destinations", "Last Connection", "Next Sync"]);
    await expect(rows).toHaveCount(50);
    await expect(names).toHaveText(Array.from({ length: 50 }, (_, k) => name(60 - k)));
    await expect(main.getByRole("navigation", { name: "Pagination" })).toContainText("Showing 1–50 of 60 connectors");
    await expect(page.getByText(OTHER.connector)).toHaveCount(0);
    await expect(rows.first().getByRole("cell")).toHaveText([name(60), "Paused", "Syncs sales calls, batch 60", SOURCE.name, DESTINATION.name, "Jun 30,2025 11:59:59 PM", "Not scheduled"]);
    await expect(rows.nth(1).getByRole("cell").nth(5)).toHaveText("Never");
    await expect(rows.first().getByRole("link", { name: name(60) })).toHaveAttribute("href", `/connectors/details/${connectorIds[59]}`);
    await expectAccessible(page);

    // Page 2 by the plain "Next" link: the 10 oldest.
    const next = main.getByRole("link", { name: "Next" });
    await expect(next).toHaveAttribute("href", /^(\/connectors)?\?page=2$/);
    await next.click();
    await expect(page).toHaveURL(`${APP_URL}/connectors?page=2`);
    await expect(rows).toHaveCount(10);
    await expect(names).toHaveText(Array.from({ length: 10 }, (_, k) => name(10 - k)));
    await expect(main.getByRole("navigation", { name: "Pagination" })).toContainText("Showing 51–60 of 60 connectors");
    await expect(main.getByRole("link", { name: "Next" })).toHaveCount(0);
    // Page 1 is the list's own address.
    await expect(main.getByRole("link", { name: "Previous" })).toHaveAttribute("href", /^\/connectors$/);
    await expect(page.getByText(OTHER.connector)).toHaveCount(0);
    await expect(rows.last().getByRole("cell")).toHaveText([name(1), "Paused", "Syncs sales calls, batch 1", SOURCE.name, DESTINATION.name, "Jan 5,2025 3:04:05 PM", "Not scheduled"]);

    // A page past the end, or not a page number, goes to a real page instead of an empty or broken one.
    await page.goto("/connectors?page=99");
    await expect(page).toHaveURL(`${APP_URL}/connectors?page=2`);
    await page.goto("/connectors?page=abc");
    await expect(page).toHaveURL(`${APP_URL}/connectors`);
    await expect(rows).toHaveCount(50);
  });

  test("sources and destinations: their row with Created At and a Connector Count of 60; never another user's", async ({ page, user }) => {
    await login(page, user);
    await seed(user.email);
    const main = page.getByRole("main");
    const rows = main.locator("table tbody tr");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sources" }).click();
    await expect(page).toHaveURL(`${APP_URL}/sources`);
    await expect(main.getByRole("columnheader")).toHaveText(["Name", "Type", "Status", "Description", "Created At", "Connector Count"]);
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole("cell")).toHaveText([SOURCE.name, "Zoom", "Unknown", SOURCE.description, "Jan 5,2025 3:04:05 PM", "60"]);
    await expect(page.getByText(OTHER.source)).toHaveCount(0);
    await expect(main.getByRole("navigation", { name: "Pagination" })).toContainText("Showing 1–1 of 1");
    await expectAccessible(page);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Destinations" }).click();
    await expect(page).toHaveURL(`${APP_URL}/destinations`);
    await expect(main.getByRole("columnheader")).toHaveText(["Name", "Type", "Status", "Description", "Created At", "Connector Count"]);
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole("cell")).toHaveText([DESTINATION.name, "BigQuery", "Unknown", DESTINATION.description, "Mar 9,2025 8:07:06 AM", "60"]);
    await expect(page.getByText(OTHER.destination)).toHaveCount(0);
    await expectAccessible(page);
  });

  test("transforms: the row, and its Actions menu with Update and Delete; never another user's", async ({ page, user }) => {
    await login(page, user);
    const { transformId } = await seed(user.email);
    const main = page.getByRole("main");
    const rows = main.locator("table tbody tr");

    // The Actions menu is a <details>, so it opens without JS too.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transforms" }).click();
    await expect(page).toHaveURL(`${APP_URL}/transforms`);
    await expect(main.getByRole("columnheader")).toHaveText(["Name", "Type", "Last Run", "Description", "Created At", "Connectors", "Actions"]);
    await expect(rows).toHaveCount(1);
    const cells = rows.first().getByRole("cell");
    await expect(cells.nth(0)).toHaveText("Weekly topics");
    await expect(cells.nth(1)).toHaveText("Topic Modeling");
    await expect(cells.nth(2)).toHaveText("Never run");
    await expect(cells.nth(3)).toHaveText("Topics across the week's sales calls");
    await expect(cells.nth(4)).toHaveText("Feb 1,2025 9:30:00 AM");
    await expect(cells.nth(5)).toHaveText(name(60));
    await expect(page.getByText(OTHER.transform)).toHaveCount(0);
    const update = cells.nth(6).getByRole("link", { name: "Update" });
    const remove = cells.nth(6).getByRole("link", { name: "Delete" });
    await expect(update).toBeHidden();
    await cells.nth(6).locator("summary").click();
    await expect(update).toBeVisible();
    await expect(remove).toBeVisible();
    await expect(update).toHaveAttribute("href", `/transforms/edit/${transformId}`);
    await expectAccessible(page);
    // Shown for real, not cut off by the table's scroll container (toBeVisible() does not see clipping).
    await expectNotClipped(update);
    await expectNotClipped(remove);
  });

  test("transforms: Delete asks for confirmation, Cancel keeps it, Delete removes it", async ({ page, user }) => {
    await login(page, user);
    await seed(user.email);
    const main = page.getByRole("main");
    await page.goto("/transforms");
    const row = main.locator("table tbody tr").first();
    await row.locator("summary").click();
    await row.getByRole("link", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete transform?" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Weekly topics");
    await expect(dialog).toContainText("This cannot be undone.");
    await expectAccessible(page);

    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(main.locator("table tbody tr")).toHaveCount(1);

    await row.locator("summary").click();
    await row.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(`${APP_URL}/transforms`);
    await expect(main.getByText("No Transforms Found")).toBeVisible();
  });

  test.describe("in another time zone", () => {
    test.use({ timezoneId: "America/New_York" });

    test("dates follow the browser's time zone with JS on, and UTC without JS", async ({ page, user, jsEnabled }) => {
      await login(page, user);
      await seed(user.email);
      await page.goto("/sources");
      // With JS on, an inline script stores the browser's zone in the `tz` cookie; without JS the server falls back to UTC.
      const expected = jsEnabled ? "Jan 5,2025 10:04:05 AM" : "Jan 5,2025 3:04:05 PM";
      await expect(page.getByRole("main").locator("table tbody tr").first().getByRole("cell").nth(4)).toHaveText(expected);
    });
  });
});

/**
 * The web server keeps a rendered list page while the user's data version is unchanged (scripts/page-cache.ts).
 * Whatever changes what a list shows must show at once: here a write that no screen makes (straight into Postgres,
 * as a sync worker's would be), a hard reload, and another user with the same page.
 */
test("a kept list page is sent again only while nothing it shows has changed", async ({ page, user, browser }) => {
  await login(page, user);
  const sourceId = await withDb(async (db) => insertSource(db, await userIdByEmail(db, user.email), { name: "Cached Zoom" }));
  const main = page.getByRole("main");
  const first = await page.goto("/sources");
  expect(first?.headers()["x-page-cache"]).toBeUndefined();
  await expect(main.locator("table tbody tr td:first-child")).toHaveText(["Cached Zoom"]);
  // Each web server process keeps its own pages: ask until one answers from its cache.
  let hit = false;
  for (let i = 0; i < 12 && !hit; i++) hit = (await page.reload())?.headers()["x-page-cache"] === "hit";
  expect(hit).toBe(true);
  await expect(main.locator("table tbody tr td:first-child")).toHaveText(["Cached Zoom"]);

  await withDb((db) => db.query("UPDATE sources SET name = 'Renamed Zoom' WHERE id = $1", [sourceId]));
  // Rendered again, then kept in its turn: every answer, from a cache or not, shows the new name.
  for (let i = 0; i < 6; i++) {
    const again = await page.reload();
    if (i === 0) expect(again?.headers()["x-page-cache"]).toBeUndefined();
    await expect(main.locator("table tbody tr td:first-child")).toHaveText(["Renamed Zoom"]);
  }

  // A hard reload (Cache-Control: no-cache) renders the page again.
  const hard = await page.request.get("/sources", { headers: { "cache-control": "no-cache" } });
  expect(hard.status()).toBe(200);
  expect(hard.headers()["x-page-cache"]).toBeUndefined();
  expect(await hard.text()).toContain("Renamed Zoom");

  // Someone else on the same page gets their own list, never this one.
  const other = await browser.newContext({ baseURL: APP_URL });
  const otherPage = await other.newPage();
  await login(otherPage, { name: "Olive Other", email: uniqueEmail("olive") });
  for (let i = 0; i < 4; i++) {
    await otherPage.goto("/sources");
    await expect(otherPage.getByRole("main").getByText("No Sources Found", { exact: true })).toBeVisible();
  }
  await other.close();
});
