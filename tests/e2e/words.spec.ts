import { insertConnector, seedLocalDestination, seedSource, userIdByEmail, withDb } from "./db";
import { APP_URL } from "./env";
import { detailValue, expect, login, test } from "./fixtures";

/**
 * Issue 35, defects 5, 10 and 11: pages say stored values in words (never ZOOM, STORAGE, gong or a record's id),
 * every text that lists destinations names them all from the registry (PostgreSQL among them), and after a create
 * the focus lands where a screen reader picks up, not on <body>.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const EVERY_DESTINATION = ["Google Cloud Storage", "BigQuery", "Snowflake", "Local folder", "PostgreSQL"];

test("the texts that list destinations name every kind, PostgreSQL included", async ({ page, user }) => {
  await page.goto("/");
  // The sign-in panel (shown beside the form on a wide screen).
  const panel = page.getByRole("listitem").filter({ hasText: /^Into / });
  for (const kind of EVERY_DESTINATION) await expect(panel).toContainText(kind);
  await login(page, user);
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  const step = page.getByRole("main").getByRole("listitem").filter({ hasText: "Create a destination" });
  for (const kind of EVERY_DESTINATION) await expect(step).toContainText(kind);
  await page.goto("/destinations");
  await expect(page.getByText("No Destinations Found", { exact: true })).toBeVisible();
  for (const kind of EVERY_DESTINATION) await expect(page.getByRole("main")).toContainText(kind);
});

test("details pages say stored values in words, never codes or ids", async ({ page, user }) => {
  await login(page, user);
  const { sourceId, destinationId, connectorId } = await withDb(async (db) => {
    const ownerId = await userIdByEmail(db, user.email);
    const sourceId = await seedSource(db, ownerId, "Generated calls", { company: "Acme Rockets", format: "gong" });
    const destinationId = await seedLocalDestination(db, ownerId, "Team folder");
    const connectorId = await insertConnector(db, ownerId, { name: "Calls to the folder", sourceId, destinationIds: [destinationId] });
    await db.query("UPDATE connectors SET platform = 'GONG', schedule = $2 WHERE id = $1", [connectorId, JSON.stringify({ kind: "cron", expression: "0 9 * * 1-5", time_zone: "America/New_York" })]);
    return { sourceId, destinationId, connectorId };
  });

  await page.goto(`/sources/details/${sourceId}`);
  await expect(detailValue(page, "Data style")).toHaveText("Gong calls");

  await page.goto(`/destinations/details/${destinationId}`);
  await expect(detailValue(page, "Type")).toHaveText("Local folder");
  await expect(detailValue(page, "Category")).toHaveText("Storage");
  // The folder's path holds the user's and the record's ids: not shown.
  await expect(page.locator("dl")).not.toContainText(UUID);

  await page.goto(`/connectors/details/${connectorId}`);
  await expect(detailValue(page, "Platform")).toHaveText("GONG");
  await expect(page.getByTestId("schedule-words")).toHaveText("At 09:00, Monday through Friday (America/New_York)");
  // A schedule of its own replaces the frequency: no "Frequency: Daily" beside it.
  await expect(page.locator("dl dt").getByText("Frequency", { exact: true })).toHaveCount(0);
  // The platform reads in uppercase (spec §3), on its own row alone; the stored data style "gong" shows nowhere.
  await expect(page.locator("dl dd").filter({ hasText: /\bGONG\b/ })).toHaveCount(1);
  await expect(page.locator("dl")).not.toContainText(/\bgong\b/);
});

test("after a create, the focus is on the new page's heading, not on <body>", async ({ page, user, jsEnabled }) => {
  // Without JavaScript the browser loads the new page afresh, as any page; the app moves focus only with it.
  test.skip(!jsEnabled, "focus is moved by the app's script after a client-side navigation");
  await login(page, user, { from: "/sources/add/datagen" });
  await page.getByLabel("Name", { exact: true }).fill("Focus check");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await page.getByLabel("Company name").fill("Acme Rockets");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  await expect(page.getByRole("row", { name: /Focus check/ })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Sources" })).toBeFocused();
});
