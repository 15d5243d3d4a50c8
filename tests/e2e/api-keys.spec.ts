import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { RESULTS_DIR } from "./env";
import { expect, expectAccessible, expectNoHorizontalOverflow, login, test } from "./fixtures";

/**
 * Issue 38 item 2, JS on and off: the API keys page, reached from the profile menu. A key is made, its token shown
 * once (with JavaScript a copy button), listed in words, and revoked after a confirmation; with JavaScript the form's
 * own checks first, each problem at its field. With JavaScript, pictures of the page at desktop and phone widths are
 * written under RESULTS_DIR/screenshots. The server's rules (the same problems after a post without JavaScript, a day
 * gone by, the token in a read-only field without JavaScript and never on a fresh load, the keys at work through the
 * API, a confirmation link for another key) are checked over HTTP in tests/http/api-keys.spec.ts.
 */

const SHOWN_ONCE = "Copy this key now and keep it somewhere safe: it will not be shown again.";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pictures = path.resolve(root, RESULTS_DIR, "screenshots");

const banner = (page: Page) => page.getByRole("alert");
const keyRow = (page: Page, name: string) => page.getByTestId("api-keys").locator("li").filter({ hasText: name });
/** A day `days` from today as a date input takes it (the browser runs in UTC: playwright.config.ts). */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const monthDay = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

async function capture(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(1, 1);
  await page.screenshot({ path: path.join(pictures, name), animations: "disabled", fullPage: true });
}

async function createKey(page: Page, values: { name: string; access: "Read only" | "Read and write"; expiresOn?: string }) {
  await page.getByLabel("Name", { exact: true }).fill(values.name);
  await page.getByRole("radio", { name: values.access }).check();
  await page.getByLabel("Expires on (optional)").fill(values.expiresOn ?? "");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-api-key")).toContainText(`API key created: ${values.name}`);
  return page.getByLabel(/^Your new key/).inputValue();
}

test("API keys: problems at their fields, a key shown once, listed in words, and revoked", async ({ page, user, jsEnabled }) => {
  await login(page, user);
  await page.locator("summary[data-profile-menu]").click();
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByText("No API keys yet.")).toBeVisible();

  if (jsEnabled) {
    // An empty form: the form's own check, each problem at its field and in the banner (the server's:
    // tests/http/api-keys.spec.ts).
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(banner(page)).toContainText("Please enter a name for the key");
    await expect(banner(page)).toContainText("Please choose what the key may do: read only, or read and write");
    await expect(page.locator("#api-key-name-error")).toHaveText("Please enter a name for the key");
    await expect(page.locator("#api-key-scope-error")).toHaveText("Please choose what the key may do: read only, or read and write");
    await expect(page.locator("#api-key-name")).toHaveAttribute("aria-invalid", "true");
  }

  // Made: the token once, with the sentence that says so, and the key in the list in words.
  const expiresOn = dayFromNow(30);
  const token = await createKey(page, { name: "Nightly report", access: "Read only", expiresOn });
  expect(token).toMatch(/^trb_[0-9A-Za-z]{43}$/);
  await expect(page.getByTestId("new-api-key")).toContainText(SHOWN_ONCE);
  await expect(banner(page)).toHaveCount(0);
  const row = keyRow(page, "Nightly report");
  await expect(row).toContainText("Read only");
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText(`${monthDay(expiresOn)},`);
  await expect(row).toContainText("11:59:59 PM");
  await expect(row).toContainText("Not used yet");
  await expect(row).toContainText("Active");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
  if (jsEnabled) {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy key" }).click();
    await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  }
  await expectAccessible(page);

  const second = await createKey(page, { name: "Deploy bot", access: "Read and write" });
  expect(second).not.toBe(token);
  await expect(keyRow(page, "Deploy bot")).toContainText("Read and write");
  await expect(keyRow(page, "Deploy bot")).toContainText("Never");
  await expect(page.getByTestId("api-keys").locator("li")).toHaveCount(2);
  if (jsEnabled) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await capture(page, "api-keys-created.png");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await capture(page, "api-keys-created-phone.png");
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // Revoke asks first; Cancel leaves the key as it was.
  await keyRow(page, "Nightly report").getByRole("link", { name: "Revoke Nightly report" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke API key?" });
  await expect(dialog).toContainText("Nightly report");
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(keyRow(page, "Nightly report")).toContainText("Active");

  await keyRow(page, "Nightly report").getByRole("link", { name: "Revoke Nightly report" }).click();
  await dialog.getByRole("button", { name: "Revoke" }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys\?revoked=1$/);
  await expect(page.getByRole("status")).toContainText("API key revoked.");
  await expect(keyRow(page, "Nightly report")).toContainText("Revoked");
  await expect(keyRow(page, "Nightly report").getByRole("link", { name: /Revoke/ })).toHaveCount(0);
  await expect(keyRow(page, "Deploy bot")).toContainText("Active");

  if (jsEnabled) {
    await capture(page, "api-keys-list.png");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await capture(page, "api-keys-list-phone.png");
  }
});

test("the API reference page renders the OpenAPI document", async ({ page, user, jsEnabled }) => {
  test.skip(!jsEnabled, "The reference renderer is a script; the document itself is /api/v1/openapi.json.");
  await login(page, user);
  await page.goto("/api/docs");
  // Swagger UI parses a 1.4 MB script and then draws the whole document: with four workers on two busy cores that
  // took longer than the usual 10 s once (the heading was there a moment later), so this first sight waits 30 s.
  await expect(page.getByRole("heading", { name: /Tributary API/ }).first()).toBeVisible({ timeout: 30_000 });
  // The document's operations, under the server /api/v1.
  await expect(page.getByText("List sources").first()).toBeVisible();
  await expect(page.getByRole("combobox").first()).toHaveValue(/\/api\/v1$/);
});
