import type { Page } from "@playwright/test";
import { detailValue, expect, expectAccessible, expectNoHorizontalOverflow, login, test, waitForHydration } from "./fixtures";

/**
 * Issue 4, JS on and off: the local destination end to end (create, details,
 * edit, delete with confirmation); with JavaScript, the create form's own checks
 * before it posts (spec §5: on submit and on blur) and the type select's focus;
 * axe and the phone width of the Snowflake form. The server's rules (the same
 * validation sentences after a post without JavaScript, another user's
 * destination, the refused deletes) are checked over HTTP in
 * tests/http/destinations.spec.ts. Cloud and Snowflake flows against the fakes
 * are in destinations-cloud.spec.ts.
 */

const banner = (page: Page) => page.getByRole("alert");

/** Chooses the integration type: with JS the sub-form switches in place; without, "Continue" reloads with ?type=. */
async function chooseType(page: Page, label: string, jsEnabled: boolean) {
  await page.getByLabel("Integration type", { exact: true }).selectOption({ label });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this integration type" }).click();
  else await expect(page.getByRole("button", { name: "Continue with this integration type" })).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]type=/);
}

test("local destination: create, read, update and delete", async ({ page, user, jsEnabled }) => {
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
  if (jsEnabled) {
    // The form's own check; the server's: tests/http/destinations.spec.ts.
    await page.getByLabel("Name").fill("");
    await page.getByRole("button", { name: "Update Destination" }).click();
    await expect(banner(page)).toHaveText("Please enter a destination name");
  }
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

/** With JavaScript the form checks itself before it posts; without, the server does: tests/http/destinations.spec.ts. */
const SERVER_CHECKS = "without JavaScript these are the server's checks: tests/http/destinations.spec.ts";

test.describe("create form validation (spec §5)", () => {
  test("name and integration type", async ({ page, user, jsEnabled }) => {
    test.skip(!jsEnabled, SERVER_CHECKS);
    await login(page, user, { from: "/destinations/add" });
    await page.getByRole("button", { name: "Create Destination" }).click();
    await expect(banner(page)).toContainText("Please enter a destination name");
    await expect(banner(page)).toContainText("Please select an integration type");
    await page.getByLabel("Name").fill("Somewhere");
    await page.getByRole("button", { name: "Create Destination" }).click();
    await expect(banner(page)).not.toContainText("Please enter a destination name");
    await expect(banner(page)).toHaveText("Please select an integration type");
  });

  test("Cloud Storage: project id and bucket before testing", async ({ page, user, jsEnabled }) => {
    test.skip(!jsEnabled, SERVER_CHECKS);
    await login(page, user, { from: "/destinations/add?type=storage" });
    await expect(page.getByRole("button", { name: "Create Destination" })).toBeDisabled();
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(banner(page)).toContainText("Please enter your GCP Project ID before testing connection");
    await expect(banner(page)).toContainText("Please enter your Google Cloud Storage bucket name before testing connection");
    await page.getByLabel("GCP Project ID").fill("demo-project");
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(banner(page)).toHaveText("Please enter your Google Cloud Storage bucket name before testing connection");
  });

  test("BigQuery: dataset before testing", async ({ page, user, jsEnabled }) => {
    test.skip(!jsEnabled, SERVER_CHECKS);
    await login(page, user, { from: "/destinations/add?type=bigquery" });
    await page.getByLabel("GCP Project ID").fill("demo-project");
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(banner(page)).toHaveText("Please enter your BigQuery dataset name before testing connection");
  });

  test("Snowflake: every required field", async ({ page, user, jsEnabled }) => {
    // Axe and the phone width with JavaScript on and off; the checks themselves with it only (SERVER_CHECKS).
    await login(page, user, { from: "/destinations/add?type=snowflake" });
    await expectAccessible(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoHorizontalOverflow(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    if (jsEnabled) {
      await expect(page.getByRole("button", { name: "Create Destination" })).toBeDisabled();
      await page.getByRole("button", { name: "Test Connection" }).click();
      for (const message of ["Account is required", "Warehouse is required", "Database is required", "Schema is required", "Username is required", "Password is required"]) {
        await expect(banner(page)).toContainText(message);
      }
    }
  });

  test("Snowflake stage: stage name rules", async ({ page, user, jsEnabled }) => {
    test.skip(!jsEnabled, SERVER_CHECKS);
    await login(page, user, { from: "/destinations/add?type=snowflake_stage" });
    await expect(page.getByLabel("Warehouse")).toHaveCount(0);
    const stage = page.getByLabel("Stage name");
    // On blur, right under the field.
    await stage.focus();
    await stage.blur();
    await expect(page.locator("#destination-stage_name-error")).toHaveText("Stage name is required");
    await stage.fill("my-stage");
    await expect(page.locator("#destination-stage_name-error")).toHaveText("Only A-Z, 0-9 and _ allowed");
    await stage.fill("MY_STAGE_1");
    await expect(page.locator("#destination-stage_name-error")).toHaveCount(0);
  });
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
