import { insertConnector, insertDestination, insertSource, insertTransform, insertUser, userIdByEmail, withDb } from "./db";
import { APP_URL } from "./env";
import { expect, expectAccessible, login, test, uniqueEmail } from "./fixtures";

/**
 * Issue 27 "Find things" and "Health at a glance", JS on and off: search, filters and sort live in the address,
 * paging keeps them, and a connector's health and next sync show in its row. Another user's records, with the
 * same names, never show. A search or filter the page could not have sent (a 400 with a sentence) is a server rule,
 * checked over HTTP in tests/http/find.spec.ts.
 */

const name = (i: number) => `Meeting sync ${String(i).padStart(2, "0")}`;

async function seed(email: string) {
  return withDb(async (db) => {
    const ownerId = await userIdByEmail(db, email);
    const sourceId = await insertSource(db, ownerId, { name: "Sales Zoom" });
    const destinationId = await insertDestination(db, ownerId, { name: "Analytics Warehouse" });
    // 55 connectors, the newest first: 01 (oldest) … 55 (newest); every fifth one ran and failed, 10 is running.
    for (let i = 1; i <= 55; i++) {
      const id = await insertConnector(db, ownerId, {
        name: name(i),
        sourceId,
        destinationIds: [destinationId],
        createdAt: new Date(Date.parse("2025-01-01T00:00:00Z") + i * 60_000).toISOString(),
        paused: i !== 10 && i % 5 !== 0,
      });
      if (i % 5 === 0) await db.query("INSERT INTO sync_runs (connector_id, owner_id, status, error) VALUES ($1, $2, $3, $4)", [id, ownerId, i === 10 ? "running" : "failed", "The provider said no."]);
    }
    await insertConnector(db, ownerId, { name: "Gmail nightly", sourceId, destinationIds: [destinationId], createdAt: "2024-12-01T00:00:00Z" });
    const connectorId = (await db.query<{ id: string }>("SELECT id FROM connectors WHERE owner_id = $1 AND name = $2", [ownerId, name(55)])).rows[0]!.id;
    await insertTransform(db, ownerId, { name: "Weekly topics", type: "topic_modeling", connectorId });
    await insertTransform(db, ownerId, { name: "Deal risks", type: "deal_risk", connectorId });
    // Another user with the same names: they would show if anything leaked.
    const otherId = await insertUser(db, "Mallory Other", uniqueEmail("mallory"));
    const otherSource = await insertSource(db, otherId, { name: "Sales Zoom" });
    const otherDestination = await insertDestination(db, otherId, { name: "Analytics Warehouse" });
    await insertConnector(db, otherId, { name: "Meeting sync 99", sourceId: otherSource, destinationIds: [otherDestination], paused: false });
  });
}

test("connectors: search, filter by health, sort, and paging that keeps them; health and next sync in each row", async ({ page, user }) => {
  await login(page, user);
  await seed(user.email);
  await page.goto("/connectors");
  const main = page.getByRole("main");
  const rows = main.locator("table tbody tr");
  const names = main.locator("table tbody tr td:first-child");
  const find = main.getByRole("search", { name: "Find connectors" });

  // Health at a glance: a failed, a running and a paused row.
  await expect(rows.filter({ hasText: name(55) }).getByRole("cell").nth(1)).toHaveText("Failed");
  await expect(rows.filter({ hasText: name(54) }).getByRole("cell").nth(1)).toHaveText("Paused");
  await expect(rows.filter({ hasText: name(54) }).getByRole("cell").nth(6)).toHaveText("Not scheduled");
  await expectAccessible(page);

  // Search by part of the name, any case: the form is a GET, so the address carries it.
  await find.getByLabel("Search by name").fill("SYNC 1");
  await find.getByRole("button", { name: "Apply" }).click();
  // The address keeps only what narrows or orders the list (not the empty selects, not the default order).
  await expect(page).toHaveURL(`${APP_URL}/connectors?q=SYNC+1`);
  await expect(names).toHaveText([19, 18, 17, 16, 15, 14, 13, 12, 11, 10].map(name));
  await expect(find.getByLabel("Search by name")).toHaveValue("SYNC 1");

  // Filter by health; the search stays.
  await find.getByLabel("Status").selectOption({ label: "Failed" });
  await find.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(names).toHaveText([name(15)]);
  await expect(rows.first().getByRole("cell").nth(1)).toHaveText("Failed");
  await find.getByLabel("Status").selectOption({ label: "Running" });
  await find.getByRole("button", { name: "Apply" }).click();
  await expect(names).toHaveText([name(10)]);

  // Nothing matches: said so, with the way back.
  await page.goto("/connectors?q=nothing+like+this");
  await expect(main.getByRole("heading", { name: "No connectors match" })).toBeVisible();
  await expect(main.getByRole("heading", { name: /Hi Grace/ })).toHaveCount(0);
  await main.getByRole("link", { name: "Show all connectors" }).click();
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  await expect(rows).toHaveCount(50);

  // Sort by name, then page 2 keeps the sort.
  await find.getByLabel("Sort by").selectOption({ label: "Name A–Z" });
  await find.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/sort=name/);
  await expect(names.first()).toHaveText("Gmail nightly");
  await expect(names.nth(1)).toHaveText(name(1));
  const next = main.getByRole("link", { name: "Next" });
  await expect(next).toHaveAttribute("href", "/connectors?sort=name&page=2");
  await next.click();
  await expect(names).toHaveText([50, 51, 52, 53, 54, 55].map(name));
  await expect(find.getByLabel("Sort by")).toHaveValue("name");
  await expect(page.getByText("Meeting sync 99")).toHaveCount(0);
  await expect(main.getByRole("link", { name: "Previous" })).toHaveAttribute("href", "/connectors?sort=name");

  // Clear goes back to the whole list, newest first.
  await main.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  await expect(names.first()).toHaveText(name(55));
});

test("sources, destinations and transforms: type and status at a glance, searched and filtered by type", async ({ page, user }) => {
  await login(page, user);
  await seed(user.email);
  const main = page.getByRole("main");
  const names = main.locator("table tbody tr td:first-child");

  await page.goto("/sources?type=zoom");
  await expect(names).toHaveText(["Sales Zoom"]);
  await expect(main.locator("table tbody tr").first().getByRole("cell").nth(1)).toHaveText("Zoom");
  await page.goto("/sources?type=gmail");
  await expect(main.getByRole("heading", { name: "No sources match" })).toBeVisible();

  await page.goto("/destinations");
  const find = main.getByRole("search", { name: "Find destinations" });
  await find.getByLabel("Type").selectOption({ label: "BigQuery" });
  await find.getByLabel("Search by name").fill("warehouse");
  await find.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/type=bigquery/);
  await expect(names).toHaveText(["Analytics Warehouse"]);
  await expect(page.getByText("No destinations match")).toHaveCount(0);

  await page.goto("/transforms");
  const transforms = main.getByRole("search", { name: "Find transforms" });
  await transforms.getByLabel("Type").selectOption({ label: "Deal Risk" });
  await transforms.getByRole("button", { name: "Apply" }).click();
  await expect(names).toHaveText(["Deal risks"]);
  await expect(main.locator("table tbody tr").first().getByRole("cell").nth(2)).toHaveText("Never run");
  await page.goto("/transforms?sort=name");
  await expect(names).toHaveText(["Deal risks", "Weekly topics"]);
  await expectAccessible(page);
});
