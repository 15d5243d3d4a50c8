import { TRANSFORM_MESSAGES as M } from "../../contract/transforms";
import { resultTableName } from "../../backend/transforms/runner";
import { insertConnector, insertTransform, insertUser, seedLocalDestination, seedSource, userIdByEmail, withDb } from "../e2e/db";
import { uniqueEmail } from "../e2e/fixtures";
import { expect, test } from "./fixtures";

/**
 * A result table's own page (/transforms/details/{id}/results/{table}, issue 54): its server rules, once, as a browser
 * without JavaScript asks. Another user's transform, an id that is no record id, and a table that is not one of the
 * transform's answer 404 with a sentence; a ?page= the page's links never make goes to the page it can mean. Paging
 * itself, JavaScript on and off: tests/e2e/transform-results-paging.spec.ts.
 */

/** An action-items transform of `ownerId` (no run yet), and its result table's name. */
async function actionItems(ownerId: string, name: string) {
  const transform = await withDb(async (client) => {
    const sourceId = await seedSource(client, ownerId, `${name} calls`);
    const destinationId = await seedLocalDestination(client, ownerId, `${name} folder`);
    const connectorId = await insertConnector(client, ownerId, { name: `${name} connector`, sourceId, destinationIds: [destinationId] });
    return insertTransform(client, ownerId, { name, type: "action_items", templateId: "action_items", connectorId });
  });
  return { transform, table: resultTableName(transform, "action_items") };
}

test("another user's transform, an id that is no record id, and a table that is not the transform's answer 404; the user's own table 200", async ({ signedIn, user }) => {
  const theirs = await actionItems(await withDb((db) => insertUser(db, "Someone Else", uniqueEmail("else"))), "Their follow-ups");
  const mine = await actionItems(await withDb((db) => userIdByEmail(db, user.email)), "My follow-ups");

  const refused = await signedIn.open(`/transforms/details/${theirs.transform}/results/${theirs.table}`);
  expect(refused.status).toBe(404);
  expect(refused.alertText()).toContain(M.notFound);
  expect(refused.text()).not.toContain("Their follow-ups");

  for (const path of [`/transforms/details/not-a-uuid/results/${mine.table}`, `/transforms/details/${mine.transform}%27/results/${mine.table}`]) {
    const bogus = await signedIn.open(path);
    expect({ path, status: bogus.status, alert: bogus.alertText() }).toEqual({ path, status: 404, alert: expect.stringContaining(M.notFound) });
  }

  // The transform is the user's, the table is not one of its own (a synced table; another transform's).
  for (const table of ["meetings", theirs.table, `${mine.table}x`]) {
    const unknown = await signedIn.open(`/transforms/details/${mine.transform}/results/${table}`);
    expect({ table, status: unknown.status, alert: unknown.alertText() }).toEqual({ table, status: 404, alert: expect.stringContaining(M.unknownResultTable) });
    // A way back to the transform.
    expect(unknown.links("My follow-ups")).toEqual([`/transforms/details/${mine.transform}`]);
  }

  // The user's own table, before any run: its page, saying it is empty.
  const own = await signedIn.open(`/transforms/details/${mine.transform}/results/${mine.table}`);
  expect(own.status).toBe(200);
  expect(own.headings()).toEqual(["Action items"]);
  expect(own.text("main")).toContain("This table is empty.");
  // Its CSV download (the route beside it) still answers the file.
  const csv = await signedIn.request.get(`/transforms/details/${mine.transform}/results/${mine.table}/download`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
});

test("a ?page= the page's own links never make goes to the page it can mean", async ({ signedIn, user }) => {
  const mine = await actionItems(await withDb((db) => userIdByEmail(db, user.email)), "Paged follow-ups");
  const path = `/transforms/details/${mine.transform}/results/${mine.table}`;
  for (const [asked, landed] of [
    ["0", ""],
    ["-2", ""],
    ["two", ""],
    ["1.5", ""],
    ["", ""],
    ["99999999", ""],
    ["007", "?page=7"],
  ]) {
    const page = await signedIn.open(`${path}?page=${encodeURIComponent(asked!)}`);
    expect({ asked, status: page.status, at: `${page.url.pathname}${page.url.search}` }).toEqual({ asked, status: 200, at: `${path}${landed}` });
  }
});
