import { SOURCE_MESSAGES } from "../../contract/sources";
import { insertUser, seedRecords, withDb } from "./db";
import { expect, login, test, uniqueEmail, waitForHydration } from "./fixtures";

/**
 * Issue 24 finding 7, in the browser: moving to another user's record inside the app with JavaScript shows the
 * spec's not-found message. The pages' 404s themselves (another user's record, an id that is no record id) are
 * server rules: tests/http/not-found.spec.ts.
 */

const NOT_FOUND_RESOURCE = /Failed to load resource: the server responded with a status of 404/;

test("with JavaScript, moving to another user's record inside the app shows the same message", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  test.skip(!jsEnabled, "Client-side navigation needs JavaScript.");
  allowConsoleErrors(NOT_FOUND_RESOURCE);
  const theirs = await seedRecords(await withDb((db) => insertUser(db, "Another One", uniqueEmail("another"))), "Other");
  await login(page, user);
  await page.goto("/connectors");
  // Remix's router exists once the page has hydrated.
  await waitForHydration(page);
  // A client-side navigation (no document load, Remix's router fetches the loader's data): the 404 still shows the page.
  let documentLoads = 0;
  page.on("request", (request) => {
    if (request.isNavigationRequest()) documentLoads += 1;
  });
  await page.evaluate((path) => (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }).__remixRouter.navigate(path), `/sources/details/${theirs.source}`);
  await expect(page).toHaveURL(new RegExp(`/sources/details/${theirs.source}$`));
  await expect(page.getByText(SOURCE_MESSAGES.notFound)).toBeVisible();
  expect(documentLoads).toBe(0);
});
