import { seedGmailConnector, seedLocalDestination, userIdByEmail, withDb } from "./db";
import { expect, login, runHistoryRows, syncNow, test } from "./fixtures";

/**
 * Issue 52, JS on and off: a Gmail connector (the fake Google's Workspace) synced once; a destination added to it by
 * editing the connector; the next sync gives the added destination the whole window and the first one only what is new
 * (nothing, here), as the run's page shows destination by destination, and its log says what the read skipped.
 */
test("a destination added to a synced connector gets the whole window once; the first one only what is new", async ({ page, user }) => {
  test.slow();
  await login(page, user, { from: "/connectors" });
  const { connectorId } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const seeded = await seedGmailConnector(client, ownerId, "Mailboxes");
    await seedLocalDestination(client, ownerId, "Added folder");
    return seeded;
  });
  await syncNow(page, connectorId);
  const first = (await runHistoryRows(page).first().locator("td").nth(3).textContent())?.trim() ?? "";
  expect(Number(first.replace(/,/g, ""))).toBeGreaterThan(0);

  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Update Connector" })).toBeVisible();
  await page.getByRole("checkbox", { name: /^Added folder/ }).check();
  await page.getByRole("button", { name: "Update Connector" }).click();
  await expect(page).toHaveURL(`/connectors/details/${connectorId}`);
  await expect(page.locator("dl")).toContainText("Added folder");

  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(runHistoryRows(page)).toHaveCount(2);
  await expect(runHistoryRows(page).first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });
  await runHistoryRows(page).first().getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Sync run" })).toBeVisible();
  const landed = page.getByRole("region", { name: "Destinations" }).locator("tbody tr");
  await expect(landed).toHaveCount(2);
  await expect(landed.filter({ hasText: "Added folder" }).locator("td").nth(2)).toHaveText(first);
  await expect(landed.filter({ hasText: "Mailboxes folder" }).locator("td").nth(2)).toHaveText("0");
  const log = page.getByTestId("run-log");
  await expect(log).toContainText("(since the last sync, less 24 h for late arrivals)");
  await expect(log).toContainText('for the destinations added since the last sync) for "Added folder".');
});
