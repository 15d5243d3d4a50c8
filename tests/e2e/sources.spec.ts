import type { Page } from "@playwright/test";
import { insertConnector, insertDestination, insertSource, insertUser, userIdByEmail, withDb } from "./db";
import { detailValue, expect, expectAccessible, expectNoHorizontalOverflow, login, test } from "./fixtures";

/**
 * Issue 3, JS on and off: the data generator source end to end (create,
 * details, edit, delete with confirmation), the progress kept across the type
 * switch, "Integration changed", the refused delete of a source in use, another
 * user's source, and the create/update validation messages (spec §5, §8), each
 * asserted once. Zoom, Teams and Gmail against the fakes: sources-integrations.spec.ts.
 */

// A 400 answer to a form post (a validation error from the server) is logged by Chromium.
const BAD_REQUEST = /Failed to load resource: the server responded with a status of (400|404|409)/;
const banner = (page: Page) => page.getByRole("alert");
const nameField = (page: Page) => page.getByLabel("Name", { exact: true });

/** Chooses the source type: with JS the page switches at once; without, "Continue" submits a GET. */
export async function chooseSourceType(page: Page, label: string, jsEnabled: boolean) {
  await page.getByLabel("Source type", { exact: true }).selectOption({ label });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this source type" }).click();
  else await expect(page.getByRole("button", { name: "Continue with this source type" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/sources\/add\/(zoom|teams|gmail|datagen)(\?|$)/);
}

test("data generator: create, read, update and delete", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  test.slow(); // the whole life of a source, with three accessibility checks
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/sources/add" });
  await expect(page).toHaveURL(/\/sources\/add$/);
  await expect(page.getByRole("heading", { name: "Create Source" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();

  // Authenticate before choosing a type.
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(banner(page)).toHaveText("Please select an integration type before authenticating");

  await nameField(page).fill("Demo meetings");
  await page.getByLabel("Description").fill("Synthetic calls for the pilot");
  await chooseSourceType(page, "Data Generator", jsEnabled);
  await expect(page).toHaveURL(/\/sources\/add\/datagen/);
  await expect(nameField(page)).toHaveValue("Demo meetings");
  await expect(page.getByLabel("Description")).toHaveValue("Synthetic calls for the pilot");
  await expect(page.getByText("Not authenticated")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();

  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create" })).toBeEnabled();
  // The name typed before authenticating survived the round trip.
  await expect(nameField(page)).toHaveValue("Demo meetings");

  await expectAccessible(page);
  await page.getByLabel("Company name").fill("x".repeat(101));
  await page.getByRole("button", { name: "Create" }).click();
  await expect(banner(page)).toHaveText("Company name must be 100 characters or fewer");
  await expect(page).toHaveURL(/\/sources\/add\/datagen$/);

  await page.getByLabel("Company name").fill("Acme Rockets");
  await page.getByLabel("Data style").selectOption("gong");
  await nameField(page).fill("   ");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(banner(page)).toHaveText("Please enter a source name");

  await nameField(page).fill("Demo meetings");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  const row = page.getByRole("row", { name: /Demo meetings/ });
  await expect(row).toContainText("Synthetic calls for the pilot");

  // The draft is gone: a new source starts empty.
  await page.goto("/sources/add/datagen");
  await expect(nameField(page)).toHaveValue("");
  await expect(page.getByText("Not authenticated")).toBeVisible();

  await page.goto("/sources");
  await page.getByRole("row", { name: /Demo meetings/ }).getByRole("link", { name: "Demo meetings" }).click();
  await expect(page).toHaveURL(/\/sources\/details\/[0-9a-f-]{36}$/);
  const details = page.locator("dl");
  // The type's label alone, not its name (datagen) beside it; the status in the app's one casing.
  await expect(detailValue(page, "Integration type")).toHaveText("Data Generator");
  await expect(detailValue(page, "Status")).toHaveText("Active");
  await expect(details).toContainText("Acme Rockets");
  // The data style in words (issue 35, defect 5), never its stored "gong".
  await expect(detailValue(page, "Data style")).toHaveText("Gong calls");
  await expect(details.getByText("Unknown")).toBeVisible(); // never updated
  await expect(details.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2},\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)$/);
  await expectAccessible(page);

  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Update Source" })).toBeVisible();
  await expect(page.getByLabel("Source type")).toHaveValue("Data Generator");
  await expect(page.getByLabel("Source type")).not.toBeEditable();
  await expectAccessible(page);
  if (jsEnabled) await expect(page.getByRole("button", { name: "Update" })).toBeDisabled();
  await nameField(page).fill("");
  await expect(page.getByRole("button", { name: "Update" })).toBeEnabled();
  await page.getByRole("button", { name: "Update" }).click();
  await expect(banner(page)).toHaveText("Please enter a source name");
  await nameField(page).fill("Renamed demo");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page).toHaveURL(/\/sources\/details\//);
  await expect(page.getByRole("heading", { name: "Renamed demo" })).toBeVisible();
  await expect(page.locator("dl").getByText("Unknown")).toHaveCount(0);

  await page.getByRole("link", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete source?" });
  await expect(dialog).toContainText("Renamed demo");
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("link", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  await expect(page.getByRole("heading", { name: "No Sources Found" })).toBeVisible();
});

test("switching to another type after authenticating resets with 'Integration changed'", async ({ page, user, jsEnabled }) => {
  await login(page, user, { from: "/sources/add/datagen" });
  await nameField(page).fill("Switcher");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await chooseSourceType(page, "Zoom", jsEnabled);
  await expect(page.getByRole("status").filter({ hasText: "Integration changed" })).toHaveText(
    "Integration changed. You'll need to authenticate with this new integration.",
  );
  await expect(page.getByText("Not authenticated")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
  // Coming back does not bring the old authentication back.
  await chooseSourceType(page, "Data Generator", jsEnabled);
  await expect(page.getByText("Not authenticated")).toBeVisible();
});

test("a source that connectors use cannot be deleted; the connectors are named", async ({ page, user, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user);
  const sourceId = await withDb(async (db) => {
    const owner = await userIdByEmail(db, user.email);
    const id = await insertSource(db, owner, { name: "Busy source" });
    const destinationId = await insertDestination(db, owner, { name: "Warehouse" });
    await insertConnector(db, owner, { name: "Nightly meetings", sourceId: id, destinationIds: [destinationId] });
    return id;
  });
  await page.goto(`/sources/details/${sourceId}`);
  await expect(page.locator("dl")).toContainText("Unknown"); // no status recorded for a seeded row
  await page.getByRole("link", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog").getByRole("alert")).toHaveText(
    'This source cannot be deleted because 1 connector uses it: "Nightly meetings". Delete those connectors or move them to another source first.',
  );
  await page.goto("/sources");
  await expect(page.getByRole("row", { name: /Busy source/ })).toBeVisible();
});

test("another user's source is 'Source not found'", async ({ page, user, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  const theirs = await withDb(async (db) => insertSource(db, await insertUser(db, "Someone Else", `else-${Date.now()}@example.com`), { name: "Not yours" }));
  await login(page, user, { from: `/sources/details/${theirs}` });
  await expect(page).toHaveURL(new RegExp(`/sources/details/${theirs}$`));
  await expect(page.getByRole("alert")).toContainText("Source not found");
  await page.goto(`/sources/edit/${theirs}`);
  await expect(page.getByRole("alert")).toContainText("Source not found");
  await expect(page.getByText("Not yours")).toHaveCount(0);
});

test("the create page fits a phone screen", async ({ page, user }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, user, { from: "/sources/add/datagen" });
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByLabel("Company name")).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
});
