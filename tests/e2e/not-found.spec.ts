import { CONNECTOR_MESSAGES } from "../../contract/connectors";
import { DESTINATION_MESSAGES } from "../../contract/destinations";
import { SOURCE_MESSAGES } from "../../contract/sources";
import { TRANSFORM_MESSAGES } from "../../contract/transforms";
import { insertConnector, insertDestination, insertSource, insertTransform, insertUser, userIdByEmail, withDb } from "./db";
import { expect, login, test, uniqueEmail, waitForHydration } from "./fixtures";

/**
 * Issue 24 finding 7: another user's record, and an id that is no record id at all, answer 404 on the details and
 * edit pages (JS on and off), with the spec's on-page message; the user's own record still answers 200.
 */

const NOT_FOUND_RESOURCE = /Failed to load resource: the server responded with a status of 404/;

interface Records {
  source: string;
  destination: string;
  connector: string;
  transform: string;
}

async function seedFor(ownerId: string, label: string): Promise<Records> {
  return withDb(async (db) => {
    const source = await insertSource(db, ownerId, { name: `${label} source` });
    const destination = await insertDestination(db, ownerId, { name: `${label} destination` });
    const connector = await insertConnector(db, ownerId, { name: `${label} connector`, sourceId: source, destinationIds: [destination] });
    const transform = await insertTransform(db, ownerId, { name: `${label} transform`, type: "topic_modeling", connectorId: connector });
    return { source, destination, connector, transform };
  });
}

/** The details and edit pages of each kind of record, with the spec's message for a record that is not there. */
const PAGES = (r: Records) => [
  { path: `/sources/details/${r.source}`, message: SOURCE_MESSAGES.notFound },
  { path: `/sources/edit/${r.source}`, message: SOURCE_MESSAGES.notFound },
  { path: `/destinations/details/${r.destination}`, message: DESTINATION_MESSAGES.notFound },
  { path: `/destinations/edit/${r.destination}`, message: DESTINATION_MESSAGES.notFound },
  { path: `/connectors/details/${r.connector}`, message: CONNECTOR_MESSAGES.notFound },
  { path: `/connectors/edit/${r.connector}`, message: CONNECTOR_MESSAGES.notFound },
  { path: `/transforms/details/${r.transform}`, message: TRANSFORM_MESSAGES.notFound },
  { path: `/transforms/edit/${r.transform}`, message: TRANSFORM_MESSAGES.notFound },
];

test("another user's records answer 404 with the not-found message; the user's own answer 200", async ({ page, user, allowConsoleErrors }) => {
  test.setTimeout(120_000);
  allowConsoleErrors(NOT_FOUND_RESOURCE);
  const theirs = await seedFor(await withDb((db) => insertUser(db, "Someone Else", uniqueEmail("else"))), "Theirs");
  await login(page, user);
  const mine = await seedFor(await withDb((db) => userIdByEmail(db, user.email)), "Mine");

  for (const { path, message } of PAGES(theirs)) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByText(message), path).toBeVisible();
    await expect(page.getByText(/^Theirs /)).toHaveCount(0);
  }
  for (const { path, message } of PAGES(mine)) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByText(message)).toHaveCount(0);
  }
});

test("an id that is not a record id answers 404 with the not-found message", async ({ page, user, allowConsoleErrors }) => {
  test.setTimeout(60_000);
  allowConsoleErrors(NOT_FOUND_RESOURCE);
  await login(page, user);
  const bogus = { source: "not-a-uuid", destination: "1%27%20OR%201=1", connector: "00000000-0000-0000-0000-00000000000g", transform: "%E2%98%83" };
  for (const { path, message } of PAGES(bogus)) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByText(message), path).toBeVisible();
  }
});

test("with JavaScript, moving to another user's record inside the app shows the same message", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  test.skip(!jsEnabled, "Client-side navigation needs JavaScript.");
  allowConsoleErrors(NOT_FOUND_RESOURCE);
  const theirs = await seedFor(await withDb((db) => insertUser(db, "Another One", uniqueEmail("another"))), "Other");
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
