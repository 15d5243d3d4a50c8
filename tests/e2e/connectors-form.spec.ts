import type { Locator, Page } from "@playwright/test";
import { CONNECTOR_MESSAGES as M } from "../../contract/connectors";
import { insertConnector, insertDestination, withDb } from "./db";
import { expect, expectAccessible, login, test, waitForHydration } from "./fixtures";
import { seedConnectorChoices } from "../support/records";

/**
 * Issue 26, the connector forms in a browser, JavaScript on and off: the cascade to a new connector and an edit saved,
 * axe on each form with its errors; with JavaScript the forms' own checks before they post, every error in the banner
 * and at its field (marked invalid, its message under it and read with it), what the user typed kept; the
 * destinations kept through edits; with JavaScript the cascade's selects keep the keyboard focus. The server's rules
 * (the same errors after a post without JavaScript, the backend's refusal, the details page's intents) are checked
 * over HTTP in tests/http/connectors-form.spec.ts.
 */

const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;
const banner = (page: Page) => page.getByRole("alert");
const source = (page: Page) => page.getByLabel("Source", { exact: true });
const platform = (page: Page) => page.getByLabel("Platform", { exact: true });

/** The field is marked invalid, its message shows under it, and a screen reader reads the message with it. */
async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(message);
  const id = await field.getAttribute("id");
  await expect(field.page().locator(`[id="${id}-error"]`)).toHaveText(message);
}

async function expectFieldValid(field: Locator) {
  await expect(field).not.toHaveAttribute("aria-invalid");
}

/** Without JavaScript the choice is applied by its own Continue button; with it, at once. */
async function applyChoice(page: Page, what: string, jsEnabled: boolean) {
  const button = page.getByRole("button", { name: `Continue with this ${what}` });
  if (jsEnabled) await expect(button).toHaveCount(0);
  else await button.click();
}

test("create: each error at its field and in the banner, the typed values kept", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  // With JavaScript the form's own checks; without, the server's (tests/http/connectors-form.spec.ts). Axe checks
  // the form with its errors either way, and the cascade leads on to the connector.
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/connectors/add" });
  const { first } = await seedConnectorChoices(user.email);
  await page.goto("/connectors/add");
  await page.getByLabel("Description").fill("Kept after every refusal");
  await page.getByRole("button", { name: "Create Connector" }).click();
  await expect(banner(page)).toBeVisible();
  if (jsEnabled) {
    await expect(banner(page)).toContainText(M.nameRequired);
    await expect(banner(page)).toContainText(M.sourceRequired);
    await expect(banner(page)).toContainText(M.frequencyRequired);
    await expectFieldError(page.getByLabel("Connector name"), M.nameRequired);
    await expectFieldError(source(page), M.sourceRequired);
    await expectFieldError(page.getByLabel("Frequency"), M.frequencyRequired);
    await expectFieldValid(page.getByLabel("Description"));
    await expectFieldValid(page.getByLabel("Lookback days"));
    await expect(page.getByLabel("Description")).toHaveValue("Kept after every refusal");
  }
  await expectAccessible(page);

  // A source with platforms: the platform is required, at its own field.
  await source(page).selectOption(first);
  await applyChoice(page, "source", jsEnabled);
  await expect(platform(page)).toBeVisible();
  await page.getByLabel("Connector name").fill("Nightly calls");
  await page.getByLabel("Frequency").selectOption({ label: "Daily" });
  if (jsEnabled) {
    await page.getByRole("button", { name: "Create Connector" }).click();
    await expect(banner(page)).toHaveText(M.platformRequired);
    await expectFieldError(platform(page), M.platformRequired);
    await expectFieldValid(page.getByLabel("Connector name"));
    await expectFieldValid(source(page));
    await expect(page.getByLabel("Connector name")).toHaveValue("Nightly calls");
    await expect(page.getByLabel("Frequency")).toHaveValue("daily");
  }

  // Destinations offered, none ticked: the group says why, each box is marked.
  await platform(page).selectOption({ label: "ZOOM" });
  await applyChoice(page, "platform", jsEnabled);
  const destinations = page.getByRole("group", { name: "Destinations" });
  await expect(destinations).toBeVisible();
  await page.getByRole("button", { name: "Create Connector" }).click();
  await expect(banner(page)).toBeVisible();
  if (jsEnabled) {
    await expect(banner(page)).toHaveText(M.destinationsRequired);
    await expect(destinations).toHaveAccessibleDescription(M.destinationsRequired);
    await expect(destinations.getByText(M.destinationsRequired)).toBeVisible();
    await expect(page.getByLabel(/Team warehouse/)).toHaveAttribute("aria-invalid", "true");
    await expectFieldValid(platform(page));
  }
  await expectAccessible(page);
  if (jsEnabled) {
    await expect(page.getByLabel("Connector name")).toHaveValue("Nightly calls");
    await expect(page.getByLabel("Description")).toHaveValue("Kept after every refusal");
  }

  await page.getByLabel(/Team warehouse/).check();
  await page.getByRole("button", { name: "Create Connector" }).click();
  await expect(page).toHaveURL(/\/connectors$/);
  await expect(page.getByRole("row", { name: /Nightly calls/ })).toContainText("Kept after every refusal");
});

test("edit: each error at its field and in the banner, the typed values kept", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  // With JavaScript the form's own checks; without, the server's (tests/http/connectors-form.spec.ts). Axe checks
  // the form with its errors either way, and the edit is saved.
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/connectors" });
  const { ownerId, first, warehouse } = await seedConnectorChoices(user.email);
  const id = await withDb((client) => insertConnector(client, ownerId, { name: "To edit", description: "before", sourceId: first, destinationIds: [warehouse] }));
  const destination = () => page.getByRole("checkbox", { name: /^Team warehouse/ });
  await page.goto(`/connectors/edit/${id}`);
  await page.getByLabel("Connector name").fill("   ");
  await page.getByLabel("Description").fill("");
  await page.getByLabel("Frequency").fill("weekly");
  await page.getByRole("button", { name: "Update Connector" }).click();
  await expect(banner(page)).toBeVisible();
  if (jsEnabled) {
    await expect(banner(page)).toContainText(M.nameRequired);
    await expect(banner(page)).toContainText(M.frequencyInvalid);
    // The description is optional, as on create.
    await expect(banner(page)).not.toContainText(M.descriptionRequired);
    await expectFieldValid(page.getByLabel("Description"));
    await expectFieldError(page.getByLabel("Connector name"), M.nameRequired);
    // The frequency's hint is read with its error.
    await expect(page.getByLabel("Frequency")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Frequency")).toHaveAccessibleDescription(`daily or hourly ${M.frequencyInvalid}`);
    await expect(page.locator("#connector-frequency-error")).toHaveText(M.frequencyInvalid);
    await expectFieldValid(page.getByLabel("Source"));
    await expectFieldValid(destination());
    await expect(destination()).toBeChecked();
    await expect(page.getByLabel("Frequency")).toHaveValue("weekly");
  }
  await expectAccessible(page);

  if (jsEnabled) {
    await destination().uncheck();
    await page.getByLabel("Connector name").fill("Edited");
    await page.getByLabel("Description").fill("after");
    await page.getByLabel("Frequency").fill("");
    await page.getByRole("button", { name: "Update Connector" }).click();
    await expect(banner(page)).toContainText(M.destinationRequired);
    await expect(banner(page)).toContainText(M.frequencyRequired);
    await expect(banner(page)).not.toContainText(M.nameRequired);
    await expect(destination()).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("group", { name: "Destinations" })).toHaveAccessibleDescription(M.destinationRequired);
    await expect(page.locator("#connector-destination_ids-error")).toHaveText(M.destinationRequired);
    await expect(destination()).not.toBeChecked();
    await expectFieldValid(page.getByLabel("Connector name"));
    await expect(page.getByLabel("Connector name")).toHaveValue("Edited");
  }

  await page.getByLabel("Connector name").fill("Edited");
  await page.getByLabel("Description").fill("after");
  await destination().check();
  await page.getByLabel("Frequency").fill("Hourly");
  await page.getByRole("button", { name: "Update Connector" }).click();
  await expect(page).toHaveURL(`/connectors/details/${id}`);
  await expect(page.getByRole("heading", { name: "Edited" })).toBeVisible();
  await expect(page.locator("dl")).toContainText("after");
  await expect(page.locator("dl")).toContainText("Hourly");
});

test("edit keeps every destination: a name change alone keeps both, and one can be removed and added back", async ({ page, user }) => {
  await login(page, user, { from: "/connectors" });
  const { ownerId, first, warehouse } = await seedConnectorChoices(user.email);
  const second = await withDb((client) => insertDestination(client, ownerId, { name: "Second warehouse" }));
  const id = await withDb((client) => insertConnector(client, ownerId, { name: "Two places", description: "", sourceId: first, destinationIds: [warehouse, second] }));
  const tick = (name: string) => page.getByRole("checkbox", { name: new RegExp(`^${name}`) });
  const destinationsOnDetails = async () => {
    const ids = await withDb(async (client) => (await client.query<{ destination_id: string }>("SELECT destination_id FROM connector_destinations WHERE connector_id = $1", [id])).rows.map((r) => r.destination_id));
    return ids.sort();
  };

  // Only the name changes (no description, as on create): both destinations stay.
  await page.goto(`/connectors/edit/${id}`);
  await expect(tick("Team warehouse")).toBeChecked();
  await expect(tick("Second warehouse")).toBeChecked();
  await page.getByLabel("Connector name").fill("Two places renamed");
  await page.getByRole("button", { name: "Update Connector" }).click();
  await expect(page).toHaveURL(`/connectors/details/${id}`);
  await expect(page.getByRole("heading", { name: "Two places renamed" })).toBeVisible();
  await expect(page.locator("dl")).toContainText("Team warehouse");
  await expect(page.locator("dl")).toContainText("Second warehouse");
  expect(await destinationsOnDetails()).toEqual([warehouse, second].sort());

  // One removed.
  await page.goto(`/connectors/edit/${id}`);
  await tick("Team warehouse").uncheck();
  await page.getByRole("button", { name: "Update Connector" }).click();
  await expect(page).toHaveURL(`/connectors/details/${id}`);
  await expect(page.locator("dl")).toContainText("Second warehouse");
  await expect(page.locator("dl")).not.toContainText("Team warehouse");
  expect(await destinationsOnDetails()).toEqual([second]);

  // And added back.
  await page.goto(`/connectors/edit/${id}`);
  await expect(tick("Team warehouse")).not.toBeChecked();
  await tick("Team warehouse").check();
  await page.getByRole("button", { name: "Update Connector" }).click();
  await expect(page).toHaveURL(`/connectors/details/${id}`);
  await expect(page.locator("dl")).toContainText("Team warehouse");
  expect(await destinationsOnDetails()).toEqual([warehouse, second].sort());
});

test("with JavaScript, the source and platform selects keep the focus through the cascade", async ({ page, user, jsEnabled }) => {
  test.skip(!jsEnabled, "Without JavaScript a choice applies only through its Continue button (the other tests).");
  await login(page, user, { from: "/connectors/add" });
  const { first, second } = await seedConnectorChoices(user.email);
  await page.goto("/connectors/add");
  await expect(page.getByRole("button", { name: "Continue with this source" })).toHaveCount(0);
  const [a, b] = await source(page)
    .locator("option")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  expect([a, b].sort()).toEqual([first, second].sort());

  await waitForHydration(page);
  await source(page).focus();
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(new RegExp(`[?&]source=${a}`));
  await expect(platform(page)).toBeVisible();
  await expect(source(page)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(new RegExp(`[?&]source=${b}`));
  await expect(source(page)).toHaveValue(b!);
  await expect(source(page)).toBeFocused();

  await platform(page).focus();
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(/[?&]platform=zoom/);
  await expect(page.getByRole("group", { name: "Destinations" })).toBeVisible();
  await expect(platform(page)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(page).toHaveURL(/[?&]platform=(&|$)/);
  await expect(page.getByRole("group", { name: "Destinations" })).toHaveCount(0);
  await expect(platform(page)).toBeFocused();
});
