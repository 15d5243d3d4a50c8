import { insertConnector, insertDestination, insertSource, insertUser, userIdByEmail, withDb } from "../e2e/db";
import { uniqueEmail } from "../e2e/fixtures";
import { choose, confirmDelete, expect, press, test } from "./fixtures";

/**
 * Issue 3 and spec §5, §8, the server's rules for sources, as a browser without JavaScript meets them (the source
 * forms check nothing themselves, with JavaScript or without): the create and update forms' sentences after a post,
 * the refused delete of a source in use, another user's source. The data generator source end to end (create,
 * details, edit, delete with confirmation), "Integration changed" and the phone width: tests/e2e/sources.spec.ts.
 */

const CREATE = "form#source-create";

test("data generator: the create and update forms' sentences after a post", async ({ signedIn, user }) => {
  // Authenticate before choosing a type.
  const noType = await press(signedIn, await signedIn.open("/sources/add"), CREATE, "Authenticate");
  expect(noType.alerts()).toEqual(["Please select an integration type before authenticating"]);

  const datagen = await choose(signedIn, noType, CREATE, { name: "Demo meetings", description: "Synthetic calls for the pilot", integration_type: "datagen" });
  expect(datagen.url.pathname).toBe("/sources/add/datagen");
  const authenticated = await press(signedIn, datagen, CREATE, "Authenticate");
  expect(authenticated.text()).toContain("Authenticated with Data Generator");

  const tooLong = await press(signedIn, authenticated, CREATE, "Create", { company: "x".repeat(101) });
  expect(tooLong.alerts()).toEqual(["Company name must be 100 characters or fewer"]);
  expect(tooLong.url.pathname).toBe("/sources/add/datagen");

  const blank = await press(signedIn, tooLong, CREATE, "Create", { company: "Acme Rockets", format: "gong", name: "   " });
  expect(blank.alerts()).toEqual(["Please enter a source name"]);

  const id = await withDb(async (db) => insertSource(db, await userIdByEmail(db, user.email), { name: "Demo meetings" }));
  const update = await press(signedIn, await signedIn.open(`/sources/edit/${id}`), "form#source-edit", "Update", { name: "" });
  expect(update.alerts()).toEqual(["Please enter a source name"]);
});

test("a source that connectors use cannot be deleted; the connectors are named", async ({ signedIn, user }) => {
  const sourceId = await withDb(async (db) => {
    const owner = await userIdByEmail(db, user.email);
    const id = await insertSource(db, owner, { name: "Busy source" });
    const destinationId = await insertDestination(db, owner, { name: "Warehouse" });
    await insertConnector(db, owner, { name: "Nightly meetings", sourceId: id, destinationIds: [destinationId] });
    return id;
  });
  const details = await signedIn.open(`/sources/details/${sourceId}`);
  expect(details.text("dl")).toContain("Unknown"); // no status recorded for a seeded row
  const refused = await confirmDelete(signedIn, details);
  expect(refused.text('[role="dialog"] [role="alert"]')).toBe(
    'This source cannot be deleted because 1 connector uses it: "Nightly meetings". Delete those connectors or move them to another source first.',
  );
  expect((await signedIn.open("/sources")).$('tr:contains("Busy source")')).toHaveLength(1);
});

test("another user's source is 'Source not found'", async ({ signedIn }) => {
  const theirs = await withDb(async (db) => insertSource(db, await insertUser(db, "Someone Else", uniqueEmail("else")), { name: "Not yours" }));
  const details = await signedIn.open(`/sources/details/${theirs}`);
  expect(details.url.pathname).toBe(`/sources/details/${theirs}`);
  expect(details.alertText()).toContain("Source not found");
  const edit = await signedIn.open(`/sources/edit/${theirs}`);
  expect(edit.alertText()).toContain("Source not found");
  expect(edit.text()).not.toContain("Not yours");
});
