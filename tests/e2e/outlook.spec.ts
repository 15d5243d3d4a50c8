import type { Page } from "@playwright/test";
import { seedLocalDestination, userIdByEmail, withDb, insertConnector } from "./db";
import { detailValue, expect, expectAccessible, login, syncNow, test } from "./fixtures";
import { createEmailTransform } from "../support/email-template-wizard";

/**
 * The Outlook source against the fake Microsoft identity platform and Graph mail (tests/fakes/outlook.ts, started by
 * tests/e2e/fakes.ts: OUTLOOK_LOGIN_BASE_URL, OUTLOOK_GRAPH_BASE_URL), JS on and off: the admin consent and back, a
 * group of the organization, the connection test, create; then a connector from it to a local folder, a sync, and an
 * e-mail template's transform through the whole wizard, its first run and its results. The refusals (no consent, the
 * wrong tenant, a revoked consent, Mail.Read missing) are checked below the browser (tests/backend/sources-outlook.test.ts).
 */
const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;
const banner = (page: Page) => page.getByRole("alert");
const nameField = (page: Page) => page.getByLabel("Name", { exact: true });
const EMAIL_TEMPLATES = ["E-mail response time", "E-mail sentiment over time", "Who writes to whom"];

test.beforeAll(() => expect(process.env.OUTLOOK_GRAPH_BASE_URL, "the fake Outlook is not configured (OUTLOOK_GRAPH_BASE_URL): tests/e2e/fakes.ts sets it").toBeTruthy());

test("admin consent, a group, the connection test, create; a connector's sync and an e-mail template's run on its mail", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  test.setTimeout(180_000); // the source's whole setup, a sync, and a template's wizard and run
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/sources/add/outlook" });
  await nameField(page).fill("Contoso mail");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(process.env.OUTLOOK_LOGIN_BASE_URL!) && url.pathname === "/organizations/v2.0/adminconsent");
  await page.getByRole("button", { name: "Accept" }).click();
  // The tenant and the consent were posted to the callback and removed from the address.
  await expect(page).toHaveURL((url) => url.pathname === "/sources/add/outlook" && url.search === "");
  await expect(page.getByText("Authenticated with Outlook")).toBeVisible();
  await expect(nameField(page)).toHaveValue("Contoso mail");
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled(); // not verified yet

  await page.getByLabel("A specific group").check();
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this scope" }).click();
  const group = page.getByLabel("Microsoft 365 group");
  await expect(group.locator("option")).toHaveText(["Select a group", "Engineering (engineering@contoso.example)", "Sales (sales@contoso.example)"]);
  await group.selectOption({ label: "Sales (sales@contoso.example)" });
  await expectAccessible(page);
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(page.getByText("Setup verified")).toBeVisible();
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  await page.getByRole("link", { name: "Contoso mail" }).click();
  const details = page.locator("dl");
  await expect(details).toContainText("Outlook");
  await expect(details).toContainText("A specific group");
  await expect(detailValue(page, "Microsoft 365 group")).toHaveText("Sales");
  await expect(details).toContainText("Active");

  // A connector from it to a local folder, synced from the fake Graph.
  const { connectorId } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const { rows } = await client.query<{ id: string }>("SELECT id FROM sources WHERE integration_name = 'outlook' AND name = 'Contoso mail' AND owner_id = $1", [ownerId]);
    const destinationId = await seedLocalDestination(client, ownerId, "Mail folder");
    return { connectorId: await insertConnector(client, ownerId, { name: "Contoso Outlook", sourceId: rows[0]!.id, destinationIds: [destinationId] }) };
  });
  await syncNow(page, connectorId);
  await expect(page.getByRole("main")).toContainText("email_messages");

  await createEmailTransform(page, jsEnabled, {
    connector: "Contoso Outlook",
    name: "Outlook response times",
    templateId: "email_response_time",
    templateName: "E-mail response time",
    type: "E-mail Response Time",
    inputs: ["Internal domains", "Longest reply (hours)"],
    templates: EMAIL_TEMPLATES,
  });
  await expect(page).toHaveURL(/\/transforms\/details\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Outlook response times" })).toBeVisible();
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 90_000 });
  const tables = page.locator("[data-result-table]");
  await expect(tables).toHaveCount(2);
  await expect(tables.first().locator("h3")).toHaveText("Reply times per thread");
      await expect(tables.first().locator("[data-table-name]")).toHaveText(/_thread_response_times$/);
  await expect(tables.first().locator("tbody tr").first()).toBeVisible();
  // The customer answered in each of the two mailboxes' conversations; contoso.example is the mailboxes' own domain.
  const correspondents = tables.nth(1);
  await expect(correspondents).toContainText("customer1@fabrikam.example");
  await expect(correspondents).not.toContainText("finance@contoso.example");
});

test("declining the admin consent comes back as a failed authentication", async ({ page, user }) => {
  await login(page, user, { from: "/sources/add/outlook" });
  await nameField(page).fill("Declined mail");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/sources/add/outlook" && url.search === "");
  await expect(banner(page)).toContainText("Outlook authentication failed: AADSTS65004: User declined to consent to access the app.");
  // Microsoft's description ends with its own full stop: the sentence ends once.
  await expect(banner(page)).not.toContainText("app..");
  await expect(page.getByText("Authentication failed", { exact: true })).toBeVisible();
  await expect(nameField(page)).toHaveValue("Declined mail");
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
});
