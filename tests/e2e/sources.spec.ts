import type { Page } from "@playwright/test";
import { withDb } from "./db";
import { detailValue, expect, expectAccessible, expectNoHorizontalOverflow, login, test } from "./fixtures";

/**
 * Issue 3 and issue 39, JS on and off: the data generator source end to end (create with its optional Meetings per
 * day, details, edit, delete with confirmation), the progress kept across the type switch, "Integration changed", and
 * the create page at a phone's width. The server's rules (the create and update forms' sentences, spec §5 and §8; the
 * refused delete of a source in use; another user's source) are checked over HTTP in tests/http/sources.spec.ts, the
 * volume's range in tests/http/datagen-volume.spec.ts. Zoom, Teams and Gmail against the fakes:
 * sources-integrations.spec.ts.
 */

const nameField = (page: Page) => page.getByLabel("Name", { exact: true });

/** Chooses the source type: with JS the page switches at once; without, "Continue" submits a GET. */
export async function chooseSourceType(page: Page, label: string, jsEnabled: boolean) {
  await page.getByLabel("Source type", { exact: true }).selectOption({ label });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this source type" }).click();
  else await expect(page.getByRole("button", { name: "Continue with this source type" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/sources\/add\/(zoom|teams|gmail|datagen)(\?|$)/);
}

test("data generator: create, read, update and delete", async ({ page, user, jsEnabled }) => {
  test.slow(); // the whole life of a source, with three accessibility checks
  await login(page, user, { from: "/sources/add" });
  await expect(page).toHaveURL(/\/sources\/add$/);
  await expect(page.getByRole("heading", { name: "Create Source" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();

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
  await page.getByLabel("Company name").fill("Acme Rockets");
  await page.getByLabel("Data style").selectOption("gong");
  // The optional volume (issue 39): empty at first, and stored as typed.
  const volume = page.getByLabel("Meetings per day (optional)");
  await expect(volume).toHaveValue("");
  await volume.fill("300");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  const row = page.getByRole("row", { name: /Demo meetings/ });
  await expect(row).toContainText("Synthetic calls for the pilot");
  const stored = await withDb((db) => db.query<{ v: unknown }>("SELECT metadata->'meetings_per_day' AS v FROM sources WHERE name = 'Demo meetings' AND owner_id = (SELECT id FROM users WHERE email = $1)", [user.email]));
  expect(stored.rows.map((r) => r.v)).toEqual([300]);

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
  await nameField(page).fill("Renamed demo");
  await expect(page.getByRole("button", { name: "Update" })).toBeEnabled();
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

test("the create page fits a phone screen", async ({ page, user }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, user, { from: "/sources/add/datagen" });
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByLabel("Company name")).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
});
