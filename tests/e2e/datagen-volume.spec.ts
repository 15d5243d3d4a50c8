import type { Page } from "@playwright/test";
import { withDb } from "./db";
import { expect, login, test } from "./fixtures";

/**
 * Issue 39, JS on and off: the data generator's optional volume (Meetings per day) on its setup form. Out of range is
 * refused with a sentence and nothing typed is lost; a volume in range is stored on the source; empty keeps the default.
 */
const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;
const banner = (page: Page) => page.getByRole("alert");

test("the data generator's Meetings per day: optional, checked, stored", async ({ page, user, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/sources/add/datagen" });
  await expect(page).toHaveURL(/\/sources\/add\/datagen$/);
  await page.getByRole("button", { name: "Authenticate" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Long rehearsal");
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();

  const volume = page.getByLabel("Meetings per day (optional)");
  await expect(volume).toHaveValue("");
  await page.getByLabel("Company name").fill("Acme Rockets");
  await volume.fill("5000");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(banner(page)).toHaveText("Meetings per day must be a whole number from 1 to 1,000.");
  await expect(volume).toHaveValue("5000");
  await expect(page.getByLabel("Company name")).toHaveValue("Acme Rockets");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Long rehearsal");

  await volume.fill("300");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  const stored = await withDb((db) => db.query<{ v: unknown }>("SELECT metadata->'meetings_per_day' AS v FROM sources WHERE name = 'Long rehearsal' AND owner_id = (SELECT id FROM users WHERE email = $1)", [user.email]));
  expect(stored.rows.map((r) => r.v)).toEqual([300]);
});
