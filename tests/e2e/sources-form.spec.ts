import type { Page } from "@playwright/test";
import { expect, login, test, waitForHydration } from "./fixtures";

/**
 * Issue 26, JS on and off: the source forms' rough edges. A new attempt at /sources/add starts clean (the draft lives
 * only across its own redirects); applying an unchanged source type keeps the setup chosen so far; the cascading
 * selects keep the keyboard's focus (without JS their Continue button follows them). The server's rules (every error
 * at its field and in the banner, kept values, errors gone after the next step; a post no page of the app sends is
 * refused) are checked over HTTP in tests/http/sources-form.spec.ts.
 */

const nameField = (page: Page) => page.getByLabel("Name", { exact: true });
const typeSelect = (page: Page) => page.getByLabel("Source type", { exact: true });

/** Chooses the source type: with JS the page follows the select; without, its Continue button submits the GET. */
async function chooseSourceType(page: Page, label: string, jsEnabled: boolean) {
  await typeSelect(page).selectOption({ label });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this source type" }).click();
  await expect(page).toHaveURL(/\/sources\/add\/(zoom|teams|gmail|datagen)(\?|$)/);
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
