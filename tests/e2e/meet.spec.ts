import type { Page } from "@playwright/test";
import { detailValue, expect, expectAccessible, login, runHistoryRows, test } from "./fixtures";
import { seedLocalDestination, userIdByEmail, withDb } from "./db";

/**
 * Google Meet, JS on and off, against the fakes (tests/e2e/fakes.ts: the fake Google's service account and Directory,
 * the fake Meet's REST API and token endpoint): the source created through its form (the service account's
 * delegation steps, an admin of another domain refused in a sentence, the test connection, create), a connector from
 * it to a local folder through the connector form (its first sync reads the fake's three conferences of the last
 * week), and the Speaker metrics transcript template through the whole wizard, its first run and its results.
 */
const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;
const banner = (page: Page) => page.getByRole("alert");

async function createMeetSource(page: Page, name: string) {
  await page.goto("/sources/add/meet");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Authenticate" }).click();
  // No redirect: the service account is Tributary's; the Workspace admin's delegation steps come back.
  const instructions = page.getByRole("region", { name: "Setup instructions" });
  await expect(page.getByRole("heading", { name: "Setup instructions" })).toBeVisible();
  await expect(instructions).toContainText("https://www.googleapis.com/auth/meetings.space.readonly");
  await expect(instructions).toContainText("Turn on Meet transcripts");
  await expect(page.getByText("Not verified yet")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
  await expectAccessible(page);

  // An admin of another domain: the test connection fails in a sentence.
  await page.getByLabel("Workspace admin e-mail").fill("admin@globex.example");
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(banner(page)).toHaveText(
    "Verification failed. Please fix the setup and try again. Google does not know admin@globex.example as a user of the Workspace that granted Tributary domain-wide delegation: enter the e-mail of an administrator in the Workspace's own domain.",
  );
  await page.getByLabel("Workspace admin e-mail").fill("admin@acme.example");
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(page.getByText("Setup verified")).toBeVisible();
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  await page.getByRole("link", { name }).click();
  const details = page.locator("dl");
  await expect(details).toContainText("Google Meet");
  await expect(details).toContainText("Entire organization");
  await expect(details).toContainText("admin@acme.example");
  await expect(details).toContainText("Active");
}

async function createConnector(page: Page, jsEnabled: boolean, source: string, name: string, folder: string) {
  await page.goto("/connectors/add");
  await page.getByLabel("Connector name").fill(name);
  const option = page.getByLabel("Source", { exact: true }).locator("option").filter({ hasText: source }).first();
  await page.getByLabel("Source", { exact: true }).selectOption((await option.getAttribute("value"))!);
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this source" }).click();
  await expect(page.getByLabel("Platform", { exact: true }).locator("option")).toHaveText(["Select a platform", "MEET"]);
  await page.getByLabel("Platform", { exact: true }).selectOption({ label: "MEET" });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this platform" }).click();
  await expect(page).toHaveURL(/[?&]platform=meet/);
  await page.getByLabel(new RegExp(folder)).check();
  await page.getByLabel("Frequency").selectOption({ label: "Daily" });
  await page.getByLabel("Lookback days").selectOption({ label: "7 days" });
  await page.getByRole("button", { name: "Create Connector" }).click();
  await expect(page).toHaveURL(/\/connectors$/);
  await page.getByRole("link", { name }).first().click();
  await expect(detailValue(page, "Platform")).toHaveText("MEET");
  // The first sync starts by itself: the fake's renewal call, pricing call and stand-up of the last week.
  const run = runHistoryRows(page).first();
  await expect(run).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });
  await expect(run.locator("td").nth(3)).toHaveText("3");
}

test("a Google Meet source, a connector to a local folder, and the Speaker metrics template on its transcripts", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  test.setTimeout(180_000); // the source's form, the connector's, its sync, then the whole template wizard and its run
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/sources/add/meet" });
  await withDb(async (client) => seedLocalDestination(client, await userIdByEmail(client, user.email), "Meet folder"));
  await createMeetSource(page, "Workspace calls");
  await createConnector(page, jsEnabled, "Workspace calls", "Meet to folder", "Meet folder");

  // The wizard: details → template → permissions → configure → preview → create.
  await page.goto("/transforms/add");
  await page.getByLabel("Transform name").fill("Meet coaching");
  await page.getByLabel("Connector", { exact: true }).selectOption({ label: "Meet to folder" });
  await expect(page.getByLabel("File type")).toHaveValue(".vtt");
  await page.getByLabel("Use Templates").check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  await page.getByLabel("Category", { exact: true }).selectOption({ label: "Coaching" });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this category" }).click();
  await expect(page).toHaveURL(/category=coaching/);
  await page.getByLabel("Template", { exact: true }).selectOption("speaker_metrics");
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this template" }).click();
  await expect(page.getByRole("heading", { name: "Speaker metrics", exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Requirements" })).toContainText("Read access to the transcript_utterances table");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/permissions$/);
  // The local warehouse needs no grants: where the data is, then the review.
  await expect(page.getByText("Step 1 of 2")).toBeVisible();
  await expect(page.getByRole("region", { name: "Configure Data Sources" })).toContainText("the meetings and transcript_utterances tables");
  await page.getByRole("button", { name: "Next step" }).click();
  await expect(page.getByText("Step 2 of 2")).toBeVisible();
  await page.getByRole("button", { name: "Continue to configuration" }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/config\/speaker_metrics$/);
  await expect(page.getByLabel("Long monologue (seconds)")).toHaveValue("60");
  await page.getByLabel("Long monologue (seconds)").fill("10");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("transform-preview")).toContainText("Speaker");
  expect(Number((await page.getByTestId("record-count").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Create Transform" }).click();

  // Its first run reads the Meet transcripts: one row per meeting and speaker (the renewal's three, the pricing call's two).
  await expect(page).toHaveURL(/\/transforms\/details\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Meet coaching" })).toBeVisible();
  const run = page.locator("tbody tr[data-run-status]").first();
  await expect(run).toHaveAttribute("data-run-status", "succeeded", { timeout: 90_000 });
  const table = page.locator("[data-result-table]");
  await expect(table).toHaveCount(1);
  await expect(table).toContainText("of 5 rows");
  for (const speaker of ["Sam Seller", "Dana Buyer", "Alex Admin", "Lee Engineer", "Anonymous Jaguar"]) await expect(table).toContainText(speaker);
  const cells = await table.locator("tbody td").allTextContents();
  expect(cells.filter((text) => text.trim().startsWith("[") || /\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(text))).toEqual([]);
});
