import path from "node:path";
import { fileURLToPath } from "node:url";
import { APP_URL, RESULTS_DIR } from "./env";
import type { Page } from "@playwright/test";
import { expect, login, test } from "./fixtures";

/**
 * Issue 2 point 6: screenshots of sign-in, the shell and each empty list under
 * docs/screenshots/ when UPDATE_SCREENSHOTS=1 (else test-results/screenshots/). JavaScript on only: they show
 * the page as most people see it, and one set is enough.
 */
// The committed pictures change only when asked (UPDATE_SCREENSHOTS=1); other runs write beside the reports.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const folder = process.env.UPDATE_SCREENSHOTS ? path.join(root, "docs/screenshots") : path.resolve(root, RESULTS_DIR, "screenshots");

test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "One set of screenshots, with JavaScript on, is enough.");

/** A still picture: web fonts loaded, no hover state, CSS transitions finished. */
async function capture(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.evaluate(() => document.fonts.ready);
  await page.mouse.move(1, 799);
  await page.screenshot({ path: path.join(folder, name), animations: "disabled", fullPage: options.fullPage ?? false });
}

test("screenshots of sign-in, the shell, the empty lists and a phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible();
  await capture(page, "sign-in.png");

  // A fixed, readable identity for the pictures (the run's database is fresh, so this user has no records).
  await login(page, { name: "Grace Hopper", email: "grace.hopper@example.com" });
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  await expect(page.getByRole("heading", { name: /Hi Grace/ })).toBeVisible();
  await capture(page, "connectors-empty.png");

  for (const [list, empty] of [
    ["sources", "No Sources Found"],
    ["destinations", "No Destinations Found"],
    ["transforms", "No Transforms Found"],
  ] as const) {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: list, exact: false }).click();
    await expect(page).toHaveURL(`${APP_URL}/${list}`);
    await expect(page.getByText(empty)).toBeVisible();
    await capture(page, `${list}-empty.png`);
  }

  await page.goto("/connectors");
  await page.locator('summary[data-profile-menu]').click();
  await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
  await capture(page, "profile-menu.png");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/connectors");
  await expect(page.getByRole("heading", { name: /Hi Grace/ })).toBeVisible();
  await capture(page, "connectors-phone.png", { fullPage: true });
});

/**
 * Issue 5: a connector's screens with data in them, made through the product's own forms: a data generator source,
 * a local folder, the connector's create form, its details after a Sync now (with the run history), and the list.
 */
test("screenshots of a connector: create, details with its run history, the list", async ({ page }) => {
  test.slow(); // three records made through their forms, and a sync
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, { name: "Katherine Johnson", email: "katherine.johnson@example.com" }, { from: "/sources/add" });

  await page.getByLabel("Name", { exact: true }).fill("Sales calls");
  await page.getByLabel("Description").fill("Synthetic customer calls");
  await page.getByLabel("Source type").selectOption({ label: "Data Generator" });
  await expect(page).toHaveURL(/\/sources\/add\/datagen/);
  await page.getByRole("button", { name: "Authenticate" }).click();
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await page.getByLabel("Company name").fill("Acme Rockets");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(`${APP_URL}/sources`);

  await page.goto("/destinations/add");
  await page.getByLabel("Name").fill("Laptop folder");
  await page.getByLabel("Description").fill("Files and a DuckDB warehouse");
  await page.getByLabel("Integration type", { exact: true }).selectOption({ label: "Local folder" });
  await expect(page.getByRole("heading", { name: "Local folder" })).toBeVisible();
  await page.getByRole("button", { name: "Create Destination" }).click();
  await expect(page).toHaveURL(`${APP_URL}/destinations`);

  await page.goto("/connectors/add");
  await page.getByLabel("Connector name").fill("Sales calls to the laptop");
  await page.getByLabel("Description").fill("Every call of the week, every day");
  const source = page.getByLabel("Source", { exact: true }).locator("option").filter({ hasText: /Sales calls/ });
  await page.getByLabel("Source", { exact: true }).selectOption((await source.getAttribute("value"))!);
  await page.getByLabel("Platform", { exact: true }).selectOption({ label: "ZOOM" });
  await page.getByLabel(/Laptop folder/).check();
  await page.getByLabel("Frequency").selectOption({ label: "Daily" });
  await page.getByLabel("Lookback days").selectOption({ label: "7 days" });
  await capture(page, "connector-create.png", { fullPage: true });
  await page.getByRole("button", { name: "Create Connector" }).click();
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  await page.getByRole("link", { name: "Sales calls to the laptop" }).click();
  await expect(page).toHaveURL(/\/connectors\/details\/[0-9a-f-]{36}$/);

  // Its first sync was queued when it was created.
  const run = page.locator("tbody tr").first();
  await expect(run).toHaveAttribute("data-run-status", "succeeded", { timeout: 30_000 });
  await capture(page, "connector-details.png", { fullPage: true });

  // The run's own page: its attempts, where its data landed and its log.
  await run.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Sync run" })).toBeVisible();
  await capture(page, "run-details.png", { fullPage: true });
  await page.goBack();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Connectors" }).click();
  await expect(page).toHaveURL(`${APP_URL}/connectors`);
  // The list's Last Connection column: the run's time and its mark.
  await expect(page.getByRole("row", { name: /Sales calls to the laptop/ })).not.toContainText("Never");
  await capture(page, "connectors-list.png");
});
