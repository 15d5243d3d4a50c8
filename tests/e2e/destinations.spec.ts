import type { Page } from "@playwright/test";
import { insertConnector, insertSource, userIdByEmail, withDb } from "./db";
import { APP_URL } from "./env";
import { detailValue, expect, expectAccessible, expectNoHorizontalOverflow, login, test, waitForHydration } from "./fixtures";

/**
 * Issue 4, JS on and off: the local destination end to end (create, details,
 * edit, delete with confirmation) and the create form's validation messages
 * (spec §5), each asserted once. Cloud and Snowflake flows against the fakes
 * are in destinations-cloud.spec.ts.
 */

// A 400 answer to a form post (a validation error from the server) is logged by Chromium.
const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;

const banner = (page: Page) => page.getByRole("alert");

/** Chooses the integration type: with JS the sub-form switches in place; without, "Continue" reloads with ?type=. */
async function chooseType(page: Page, label: string, jsEnabled: boolean) {
  await page.getByLabel("Integration type", { exact: true }).selectOption({ label });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this integration type" }).click();
  else await expect(page.getByRole("button", { name: "Continue with this integration type" })).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]type=/);
}

test("local destination: create, read, update and delete", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/destinations/add" });
  await expect(page).toHaveURL(/\/destinations\/add$/);
  await expect(page.getByRole("heading", { name: "Create Destination" })).toBeVisible();
  await page.getByLabel("Name").fill("Laptop folder");
  await page.getByLabel("Description").fill("Files and a DuckDB warehouse");
  await chooseType(page, "Local folder", jsEnabled);
  await expect(page.getByRole("heading", { name: "Local folder" })).toBeVisible();
  await expectAccessible(page);
  // What was typed before choosing the type is still there.
  await expect(page.getByLabel("Name")).toHaveValue("Laptop folder");
  await page.getByRole("button", { name: "Create Destination" }).click();

  await expect(page).toHaveURL(/\/destinations$/);
  const row = page.getByRole("row", { name: /Laptop folder/ });
  await expect(row).toContainText("Files and a DuckDB warehouse");
  await expect(row).toContainText("0");
  await row.getByRole("link", { name: "Laptop folder" }).click();

  await expect(page).toHaveURL(/\/destinations\/details\/[0-9a-f-]{36}$/);
  const details = page.locator("dl");
  await expect(details).toContainText("Local folder");
  // Words, not the stored values (STORAGE, ACTIVE).
  await expect(detailValue(page, "Category")).toHaveText("Storage");
  await expect(detailValue(page, "Status")).toHaveText("Active");
  await expect(details.getByText("Unknown")).toBeVisible(); // never updated
  await expect(details.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2},\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)$/);
  await expectAccessible(page);

  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Update Destination" })).toBeVisible();
  await expect(page.getByLabel("Integration type", { exact: true })).toHaveValue("Local folder");
  await expect(page.getByLabel("Integration type", { exact: true })).not.toBeEditable();
  await page.getByLabel("Name").fill("");
  await page.getByRole("button", { name: "Update Destination" }).click();
  await expect(banner(page)).toHaveText("Please enter a destination name");
  await page.getByLabel("Name").fill("Renamed folder");
  await page.getByRole("button", { name: "Update Destination" }).click();
  await expect(page).toHaveURL(/\/destinations\/details\//);
  await expect(page.getByRole("heading", { name: "Renamed folder" })).toBeVisible();
  await expect(details.getByText("Unknown")).toHaveCount(0);

  await page.getByRole("link", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\?delete=1$/);
  const dialog = page.getByRole("dialog", { name: "Delete destination?" });
  await expect(dialog).toContainText("Renamed folder");
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("link", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/destinations$/);
  await expect(page.getByRole("heading", { name: "No Destinations Found" })).toBeVisible();
});

test("another user's destination is not found", async ({ page, user, browser, jsEnabled }) => {
  await login(page, user, { from: "/destinations/add" });
  await page.getByLabel("Name").fill("Private folder");
  await chooseType(page, "Local folder", jsEnabled);
  await page.getByRole("button", { name: "Create Destination" }).click();
  await page.getByRole("link", { name: "Private folder" }).click();
  await page.waitForURL(/\/destinations\/details\//);
  const detailsUrl = page.url();

  const other = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const stranger = await other.newPage();
  await login(stranger, { name: "Mallory", email: `mallory+${Date.now()}@example.com` });
  await stranger.goto(detailsUrl);
  await expect(stranger.getByRole("alert")).toContainText("Destination not found");
  await stranger.goto(detailsUrl.replace("/details/", "/edit/"));
  await expect(stranger.getByRole("alert")).toContainText("Destination not found");
  await other.close();
});

test.describe("create form validation (spec §5)", () => {
  test("name and integration type", async ({ page, user, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/destinations/add" });
    await page.getByRole("button", { name: "Create Destination" }).click();
    await expect(banner(page)).toContainText("Please enter a destination name");
    await expect(banner(page)).toContainText("Please select an integration type");
    await page.getByLabel("Name").fill("Somewhere");
    await page.getByRole("button", { name: "Create Destination" }).click();
    await expect(banner(page)).not.toContainText("Please enter a destination name");
    await expect(banner(page)).toHaveText("Please select an integration type");
  });

  test("Cloud Storage: project id and bucket before testing", async ({ page, user, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/destinations/add?type=storage" });
    await expect(page.getByRole("button", { name: "Create Destination" })).toBeDisabled();
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(banner(page)).toContainText("Please enter your GCP Project ID before testing connection");
    await expect(banner(page)).toContainText("Please enter your Google Cloud Storage bucket name before testing connection");
    await page.getByLabel("GCP Project ID").fill("demo-project");
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(banner(page)).toHaveText("Please enter your Google Cloud Storage bucket name before testing connection");
  });

  test("BigQuery: dataset before testing", async ({ page, user, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/destinations/add?type=bigquery" });
    await page.getByLabel("GCP Project ID").fill("demo-project");
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(banner(page)).toHaveText("Please enter your BigQuery dataset name before testing connection");
  });

  test("Snowflake: every required field", async ({ page, user, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/destinations/add?type=snowflake" });
    await expectAccessible(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoHorizontalOverflow(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole("button", { name: "Create Destination" })).toBeDisabled();
    await page.getByRole("button", { name: "Test Connection" }).click();
    for (const message of ["Account is required", "Warehouse is required", "Database is required", "Schema is required", "Username is required", "Password is required"]) {
      await expect(banner(page)).toContainText(message);
    }
  });

  test("Snowflake stage: stage name rules", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/destinations/add?type=snowflake_stage" });
    await expect(page.getByLabel("Warehouse")).toHaveCount(0);
    const stage = page.getByLabel("Stage name");
    if (jsEnabled) {
      // On blur, right under the field.
      await stage.focus();
      await stage.blur();
      await expect(page.locator("#destination-stage_name-error")).toHaveText("Stage name is required");
      await stage.fill("my-stage");
      await expect(page.locator("#destination-stage_name-error")).toHaveText("Only A-Z, 0-9 and _ allowed");
      await stage.fill("MY_STAGE_1");
      await expect(page.locator("#destination-stage_name-error")).toHaveCount(0);
    } else {
      await page.getByRole("button", { name: "Test Connection" }).click();
      await expect(banner(page)).toContainText("Stage name is required");
      await page.getByLabel("Stage name").fill("my-stage");
      await page.getByRole("button", { name: "Test Connection" }).click();
      await expect(banner(page)).toContainText("Only A-Z, 0-9 and _ allowed");
    }
  });
});

test("a destination that connectors use cannot be deleted; the dialog names them", async ({ page, user, allowConsoleErrors }) => {
  allowConsoleErrors(/Failed to load resource: the server responded with a status of 409/);
  await login(page, user, { from: "/destinations/add?type=local" });
  await page.getByLabel("Name").fill("Shared folder");
  await page.getByRole("button", { name: "Create Destination" }).click();
  await page.getByRole("link", { name: "Shared folder" }).click();
  await page.waitForURL(/\/destinations\/details\//);
  const destinationId = page.url().split("/").pop()!;
  await withDb(async (db) => {
    const ownerId = await userIdByEmail(db, user.email);
    const sourceId = await insertSource(db, ownerId, { name: "Meetings" });
    await insertConnector(db, ownerId, { name: "Nightly meetings", sourceId, destinationIds: [destinationId] });
  });
  await page.getByRole("link", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete destination?" });
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(dialog.getByRole("alert")).toContainText('Failed to delete destination. This destination is used by the connector "Nightly meetings"');
  await page.goto("/destinations");
  await expect(page.getByRole("row", { name: /Shared folder/ })).toContainText("1");
});

test("with JavaScript, the integration type select keeps the focus while the form follows it", async ({ page, user, jsEnabled }) => {
  test.skip(!jsEnabled, "without JavaScript the choice is applied by the Continue button");
  await login(page, user, { from: "/destinations/add" });
  await waitForHydration(page);
  const select = page.getByLabel("Integration type", { exact: true });
  await select.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(/[?&]type=/);
  const first = new URL(page.url()).searchParams.get("type");
  await expect(select).toBeFocused();
  // Arrowing on keeps working: the next type's form follows.
  await page.keyboard.press("ArrowDown");
  await expect(page).not.toHaveURL(new RegExp(`type=${first}(&|$)`));
  await expect(page).toHaveURL(/[?&]type=/);
  await expect(select).toBeFocused();
  // Two choices in quick succession (up twice: the first type, then none): the form of the last one has the focus.
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(page).not.toHaveURL(/[?&]type=/);
  await expect(select).toHaveValue("");
  await expect(select).toBeFocused();
});

test("a delete form drawn for another destination is refused with a sentence, and nothing is deleted", async ({ page, user }) => {
  await login(page, user, { from: "/destinations/add?type=local" });
  const ids: string[] = [];
  for (const name of ["Kept folder", "Other folder"]) {
    await page.goto("/destinations/add?type=local");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create Destination" }).click();
    await page.getByRole("link", { name }).click();
    await page.waitForURL(/\/destinations\/details\//);
    ids.push(page.url().split("/").pop()!);
  }
  const response = await page.request.post(`/destinations/details/${ids[0]}?delete=1`, { form: { id: ids[1]! }, headers: { origin: APP_URL }, maxRedirects: 0 });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("This form was drawn for another record. Please reload the page and try again.");
  await page.goto("/destinations");
  await expect(page.getByRole("row", { name: /Kept folder/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /Other folder/ })).toBeVisible();
});
