import type { Locator, Page } from "@playwright/test";
import { insertSource, userIdByEmail, withDb } from "./db";
import { JS_INDEPENDENT } from "./env";
import { expect, login, test, waitForHydration } from "./fixtures";

/**
 * Issue 26, JS on and off: the source forms' rough edges. A new attempt at /sources/add starts clean (the draft lives
 * only across its own redirects); applying an unchanged source type keeps the setup chosen so far; the cascading
 * selects keep the keyboard's focus (without JS their Continue button follows them); every error shows at its
 * field and in the banner, and goes when the next step succeeds; a post no page of the app sends is refused.
 */

// A 400 answer to a form post (a validation error from the server) is logged by Chromium.
const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;
const banner = (page: Page) => page.getByRole("alert");
const nameField = (page: Page) => page.getByLabel("Name", { exact: true });
const typeSelect = (page: Page) => page.getByLabel("Source type", { exact: true });

/** Chooses the source type: with JS the page follows the select; without, its Continue button submits the GET. */
async function chooseSourceType(page: Page, label: string, jsEnabled: boolean) {
  await typeSelect(page).selectOption({ label });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this source type" }).click();
  await expect(page).toHaveURL(/\/sources\/add\/(zoom|teams|gmail|datagen)(\?|$)/);
}

/** The field is marked invalid and its error is read with it (its accessible description). */
async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
}

test("a new attempt starts clean, from the list's button or a typed address", async ({ page, user, jsEnabled }) => {
  await login(page, user, { from: "/sources/add/datagen" });
  await nameField(page).fill("Abandoned attempt");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await expect(nameField(page)).toHaveValue("Abandoned attempt");

  // Left for the list, and back through its button: nothing of the last attempt.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sources" }).click();
  await page.getByRole("link", { name: "Create source" }).click();
  await expect(page).toHaveURL(/\/sources\/add$/);
  await expect(nameField(page)).toHaveValue("");
  await expect(page.getByText("Not authenticated")).toBeVisible();
  await chooseSourceType(page, "Data Generator", jsEnabled);
  await expect(nameField(page)).toHaveValue("");
  await expect(page.getByText("Not authenticated")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();

  // The same with the address typed.
  await nameField(page).fill("Second attempt");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await page.goto("/sources/add/datagen");
  await expect(nameField(page)).toHaveValue("");
  await expect(page.getByText("Not authenticated")).toBeVisible();
  await expect(page.getByLabel("Company name")).toHaveCount(0);
});

test.describe("Zoom", () => {
  test.beforeAll(() => expect(process.env.ZOOM_OAUTH_BASE_URL, "the fake Zoom is not configured (ZOOM_OAUTH_BASE_URL): tests/e2e/fakes.ts sets it").toBeTruthy());

  test("applying the unchanged source type keeps the Zoom group chosen", async ({ page, user, jsEnabled }) => {
    await login(page, user, { from: "/sources/add/zoom" });
    await nameField(page).fill("Support calls");
    await page.getByRole("button", { name: "Authenticate" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByText("Authenticated with Zoom")).toBeVisible();
    // The OAuth round trip kept the attempt.
    await expect(nameField(page)).toHaveValue("Support calls");

    await page.getByLabel("A specific group").check();
    if (!jsEnabled) await page.getByRole("button", { name: "Continue with this scope" }).click();
    await page.getByLabel("Zoom group").selectOption({ label: "Customer Support (7 members)" });
    // The type applied again (with JS the select's change sends the same GET as the button).
    await typeSelect(page).selectOption({ label: "Zoom" });
    if (!jsEnabled) await page.getByRole("button", { name: "Continue with this source type" }).click();
    await expect(page).toHaveURL(/\/sources\/add\/zoom\?name=Support\+calls$/);
    await expect(page.getByText("Authenticated with Zoom")).toBeVisible();
    await expect(page.getByLabel("A specific group")).toBeChecked();
    await expect(page.getByLabel("Zoom group").locator("option:checked")).toHaveText("Customer Support (7 members)");

    await page.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/sources$/);
    await page.getByRole("link", { name: "Support calls" }).click();
    await expect(page.locator("dl")).toContainText("Customer Support");
  });
});

test("the source type and authentication type selects keep the focus through their cascade", async ({ page, user, jsEnabled }) => {
  await login(page, user, { from: "/sources/add" });
  // A key pressed before React has taken the select over changes it without the page following.
  if (jsEnabled) await waitForHydration(page);
  const type = typeSelect(page);
  await type.focus();
  await page.keyboard.press("ArrowDown");
  if (jsEnabled) {
    await expect(page).toHaveURL(/\/sources\/add\/zoom$/);
    await expect(type).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL(/\/sources\/add\/teams$/);
    await expect(type).toBeFocused();
  } else {
    // Without JS the arrow only changes the choice; the next Tab reaches the button that applies it.
    await expect(page).toHaveURL(/\/sources\/add$/);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Continue with this source type" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/sources\/add\/zoom$/);
  }
  await expect(type).toHaveValue(jsEnabled ? "teams" : "zoom");

  await page.goto("/sources/add/gmail");
  const authType = page.getByLabel("Authentication type", { exact: true });
  await expect(authType).toHaveValue("service_account");
  await authType.focus();
  await page.keyboard.press("ArrowDown");
  if (jsEnabled) {
    await expect(page).toHaveURL(/gmail_auth_mode=service_account_verified$/);
    await expect(authType).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL(/gmail_auth_mode=individual$/);
    await expect(authType).toBeFocused();
    await expect(authType).toHaveValue("individual");
  } else {
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Continue with this authentication type" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/gmail_auth_mode=service_account_verified$/);
    await expect(authType).toHaveValue("service_account_verified");
  }
});

test("errors show at their field and in the banner, keep what was typed, and go when the next step succeeds", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/sources/add" });
  await nameField(page).fill("Field errors");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(banner(page)).toHaveText("Please select an integration type before authenticating");
  await expectFieldError(typeSelect(page), "Please select an integration type before authenticating");
  await expect(nameField(page)).toHaveValue("Field errors");

  await chooseSourceType(page, "Data Generator", jsEnabled);
  await expect(banner(page)).toHaveCount(0);
  await expect(typeSelect(page)).not.toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await page.getByLabel("Company name").fill("y".repeat(101));
  await nameField(page).fill("  ");
  await page.getByRole("button", { name: "Create" }).click();
  // The form's own rules first: the name. Its field says so, and what was typed is still there.
  await expect(banner(page)).toHaveText("Please enter a source name");
  await expectFieldError(nameField(page), "Please enter a source name");
  await expect(page.getByLabel("Company name")).toHaveValue("y".repeat(101));

  await nameField(page).fill("Field errors");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(banner(page)).toHaveText("Company name must be 100 characters or fewer");
  await expectFieldError(page.getByLabel("Company name"), "Company name must be 100 characters or fewer");
  await expect(nameField(page)).not.toHaveAttribute("aria-invalid", "true");

  // A step that succeeds clears the last errors.
  await page.getByRole("button", { name: "Authenticate again" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByLabel("Company name")).not.toHaveAttribute("aria-invalid", "true");

  // The update form too.
  const id = await withDb(async (db) => insertSource(db, await userIdByEmail(db, user.email), { name: "Stored source" }));
  await page.goto(`/sources/edit/${id}`);
  await nameField(page).fill("");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(banner(page)).toHaveText("Please enter a source name");
  await expectFieldError(nameField(page), "Please enter a source name");
  await page.getByLabel("Description").fill("x".repeat(2001));
  await nameField(page).fill("Renamed");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(banner(page)).toHaveText("Description must be 2,000 characters or fewer");
  await expectFieldError(page.getByLabel("Description"), "Description must be 2,000 characters or fewer");
  await expect(nameField(page)).toHaveValue("Renamed");
});

// Raw HTTP posts: one run is enough.
test("posts that no page of the app sends are refused with a sentence", { tag: JS_INDEPENDENT }, async ({ page, user }) => {
  await login(page, user);
  const id = await withDb(async (db) => insertSource(db, await userIdByEmail(db, user.email), { name: "Kept source" }));
  const unknown = await page.request.post("/sources/add/datagen", { form: { intent: "explode", name: "x" }, maxRedirects: 0 });
  expect(unknown.status()).toBe(400);
  expect(await unknown.text()).toContain("Unknown action. Please use the form");
  // A delete dialog's form names the source it was drawn for.
  const stale = await page.request.post(`/sources/details/${id}`, { form: { id: "00000000-0000-4000-8000-000000000000" }, maxRedirects: 0 });
  expect(stale.status()).toBe(400);
  await page.goto("/sources");
  await expect(page.getByRole("row", { name: /Kept source/ })).toBeVisible();
});
