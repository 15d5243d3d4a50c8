import type { Browser, Page } from "@playwright/test";
import { expect, login, runHistoryRows, test, uniqueEmail, type TestUser } from "./fixtures";
import { seedConnector, userIdByEmail, withDb } from "./db";

/**
 * Issue 51, JS on and off, in two browsers: Ada invites Ben from the Members page (the link is on her page: the run's
 * Tributary has no SMTP server; the e-mail itself is checked in tests/backend/workspace-members.test.ts); Ben opens it,
 * signed in with his address, joins, sees and edits Ada's connector and runs a sync; Ada sees who did it; Ada removes
 * Ben; Ben's next page is his own workspace and the old link answers 404. The invitation's refusals (reused, expired,
 * revoked, another address, tampered) are checked below the browser, in the same backend test.
 */

/** A person's own workspace is named after their given name (their first word here): "Grace's workspace". */
const personal = (user: TestUser) => `${user.name.split(" ")[0]}'s workspace`;

const openMenu = async (page: Page) => {
  await page.locator("summary[data-profile-menu]").click();
};

async function secondBrowser(browser: Browser, jsEnabled: boolean, user: TestUser, from: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const page = await context.newPage();
  await login(page, user, { from });
  return page;
}

test("Ada invites Ben; Ben joins, edits and syncs her connector; Ada sees it; Ada removes Ben and his old link answers 404", async ({ page, browser, jsEnabled, allowConsoleErrors }) => {
  test.slow();
  // The empty invitation's refusal (400), and the removed member's 404 (that page is in Ben's own browser).
  allowConsoleErrors(/Failed to load resource: the server responded with a status of (400|404)/);
  const ada: TestUser = { name: "Ada Lovelace", email: uniqueEmail("ada") };
  const ben: TestUser = { name: "Ben Okafor", email: uniqueEmail("ben") };
  await login(page, ada, { from: "/connectors" });
  const connectorId = await withDb(async (client) => (await seedConnector(client, await userIdByEmail(client, ada.email), "Team calls", 2)).connectorId);

  // Ada: the profile menu names her workspace and leads to its members.
  await expect(page.locator("[data-current-workspace]")).toHaveText(/Ada's workspace/);
  await openMenu(page);
  await page.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
  await expect(page.getByTestId("members")).toContainText(ada.email);

  // An empty address is refused at its field, and nothing is sent.
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.locator("#invite-email-error")).toHaveText("Please enter a valid e-mail address");
  await page.getByLabel("E-mail address").fill(ben.email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status")).toContainText(`The invitation to ${ben.email} is saved, but the e-mail could not be sent.`);
  const link = await page.getByTestId("invitation-link").inputValue();
  await expect(page.getByTestId("invitations")).toContainText(ben.email);

  // Ben, in his own browser, signed in with the invited address, opens the link and joins.
  const benPage = await secondBrowser(browser, jsEnabled, ben, new URL(link).pathname);
  await expect(benPage.getByRole("heading", { name: "Join Ada's workspace" })).toBeVisible();
  await benPage.getByRole("button", { name: "Join Ada's workspace" }).click();
  await expect(benPage.getByRole("status")).toHaveText("You joined Ada's workspace.");
  await expect(benPage.locator("[data-current-workspace]")).toHaveText(/Ada's workspace/);
  await expect(benPage.getByTestId("members")).toContainText(ada.email);

  // The same link again: used.
  await benPage.goto(new URL(link).pathname);
  await expect(benPage.getByRole("alert")).toHaveText("This invitation has already been used. Ask the workspace's members for a new one if you still need to join.");

  // Ben sees Ada's connector, edits it and runs a sync.
  await benPage.goto("/connectors");
  await benPage.getByRole("link", { name: "Team calls" }).first().click();
  await expect(benPage).toHaveURL(`/connectors/details/${connectorId}`);
  await benPage.getByRole("link", { name: "Edit" }).click();
  await benPage.getByLabel("Description").fill("Edited by Ben");
  await benPage.getByRole("button", { name: "Update Connector" }).click();
  await expect(benPage).toHaveURL(`/connectors/details/${connectorId}`);
  await expect(benPage.locator("dl")).toContainText("Edited by Ben");
  await benPage.getByRole("button", { name: "Sync now" }).click();
  const benRuns = runHistoryRows(benPage);
  await expect(benRuns.first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 30_000 });

  // Ada sees the change and Ben's run.
  await page.goto(`/connectors/details/${connectorId}`);
  await expect(page.locator("dl")).toContainText("Edited by Ben");
  await expect(page.getByText("Updated by Ben Okafor")).toBeVisible();
  await page.goto("/activity");
  await expect(page.getByRole("main")).toContainText("Ben Okafor");

  // Ada removes Ben, after a confirmation.
  await page.goto("/settings/members");
  await page.getByRole("link", { name: "Remove Ben Okafor" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove member?" });
  await expect(dialog).toContainText(ben.email);
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("status")).toHaveText("Ben Okafor was removed from this workspace. Their API keys for it no longer work.");
  await expect(page.getByTestId("members")).not.toContainText(ben.email);

  // Ben's next page is his own workspace; the old link answers 404.
  await benPage.goto("/connectors");
  await expect(benPage.locator("[data-current-workspace]")).toHaveText(/Ben's workspace/);
  await expect(benPage.getByRole("link", { name: "Team calls" })).toHaveCount(0);
  const old = await benPage.goto(`/connectors/details/${connectorId}`);
  expect(old?.status()).toBe(404);
  await expect(benPage.getByText("Connector not found")).toBeVisible();
  await benPage.context().close();
});

test("a member switches workspace in the profile menu, and the choice is remembered", async ({ page, browser, jsEnabled, user }) => {
  await login(page, user, { from: "/settings/members" });
  await page.getByLabel("Name of the new workspace").fill("Analytics team");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByRole("status")).toHaveText("Workspace created: Analytics team. Invite your team from here.");
  await expect(page.locator("[data-current-workspace]")).toHaveText(/Analytics team/);

  await openMenu(page);
  await page.getByRole("button", { name: `Switch to ${personal(user)}` }).click();
  await expect(page).toHaveURL(/\/connectors$/);
  await expect(page.locator("[data-current-workspace]")).toHaveText(new RegExp(personal(user)));

  // Another browser of the same person (a new session) starts where they left off.
  const other = await secondBrowser(browser, jsEnabled, user, "/connectors");
  await expect(other.locator("[data-current-workspace]")).toHaveText(new RegExp(personal(user)));
  await openMenu(other);
  await other.getByRole("button", { name: "Switch to Analytics team" }).click();
  await expect(other.locator("[data-current-workspace]")).toHaveText(/Analytics team/);
  await page.reload();
  await expect(page.locator("[data-current-workspace]")).toHaveText(/Analytics team/);
  await other.context().close();
});
