import { insertSource, userIdByEmail, withDb } from "../e2e/db";
import { choose, expect, fieldState, press, test } from "./fixtures";

/**
 * Issue 26, the server's rules of the source forms, as a browser without JavaScript meets them (the source forms check
 * nothing themselves, with JavaScript or without): every error at its field (marked invalid, read with it) and in
 * the banner, what was typed kept, the errors gone when the next step succeeds; a post no page of the app sends is
 * refused. A new attempt starting clean, the unchanged type keeping the Zoom group, and the selects' focus through
 * their cascade, in a browser with JavaScript on and off: tests/e2e/sources-form.spec.ts.
 */

const CREATE = "form#source-create";
const UPDATE = "form#source-edit";
const NO_TYPE = "Please select an integration type before authenticating";
const NO_NAME = "Please enter a source name";
const COMPANY_TOO_LONG = "Company name must be 100 characters or fewer";
const DESCRIPTION_TOO_LONG = "Description must be 2,000 characters or fewer";

test("errors show at their field and in the banner, keep what was typed, and go when the next step succeeds", async ({ signedIn, user }) => {
  const noType = await press(signedIn, await signedIn.open("/sources/add"), CREATE, "Authenticate", { name: "Field errors" });
  expect(noType.alerts()).toEqual([NO_TYPE]);
  expect(fieldState(noType, "source-integration_type")).toMatchObject({ invalid: true, description: expect.stringContaining(NO_TYPE) });
  expect(noType.value("name", CREATE)).toBe("Field errors");

  const datagen = await choose(signedIn, noType, CREATE, { integration_type: "datagen" });
  expect(datagen.url.pathname).toBe("/sources/add/datagen");
  expect(datagen.alerts()).toEqual([]);
  expect(datagen.invalid("source-integration_type")).toBe(false);
  const authenticated = await press(signedIn, datagen, CREATE, "Authenticate");
  expect(authenticated.text()).toContain("Authenticated with Data Generator");

  // The form's own rules first: the name. Its field says so, and what was typed is still there.
  const blank = await press(signedIn, authenticated, CREATE, "Create", { company: "y".repeat(101), name: "  " });
  expect(blank.alerts()).toEqual([NO_NAME]);
  expect(fieldState(blank, "source-name")).toMatchObject({ invalid: true, description: expect.stringContaining(NO_NAME) });
  expect(blank.value("company", CREATE)).toBe("y".repeat(101));

  const tooLong = await press(signedIn, blank, CREATE, "Create", { name: "Field errors" });
  expect(tooLong.alerts()).toEqual([COMPANY_TOO_LONG]);
  expect(fieldState(tooLong, "source-company")).toMatchObject({ invalid: true, description: expect.stringContaining(COMPANY_TOO_LONG) });
  expect(tooLong.invalid("source-name")).toBe(false);

  // A step that succeeds clears the last errors.
  const again = await press(signedIn, tooLong, CREATE, "Authenticate again");
  expect(again.text()).toContain("Authenticated with Data Generator");
  expect(again.alerts()).toEqual([]);
  expect(again.invalid("source-company")).toBe(false);

  // The update form too.
  const id = await withDb(async (db) => insertSource(db, await userIdByEmail(db, user.email), { name: "Stored source" }));
  const noName = await press(signedIn, await signedIn.open(`/sources/edit/${id}`), UPDATE, "Update", { name: "" });
  expect(noName.alerts()).toEqual([NO_NAME]);
  expect(fieldState(noName, "source-name")).toMatchObject({ invalid: true, description: expect.stringContaining(NO_NAME) });
  const longDescription = await press(signedIn, noName, UPDATE, "Update", { description: "x".repeat(2001), name: "Renamed" });
  expect(longDescription.alerts()).toEqual([DESCRIPTION_TOO_LONG]);
  expect(fieldState(longDescription, "source-description")).toMatchObject({ invalid: true, description: expect.stringContaining(DESCRIPTION_TOO_LONG) });
  expect(longDescription.value("name", UPDATE)).toBe("Renamed");
});

test("posts that no page of the app sends are refused with a sentence", async ({ signedIn, user }) => {
  const id = await withDb(async (db) => insertSource(db, await userIdByEmail(db, user.email), { name: "Kept source" }));
  const unknown = await signedIn.submit("/sources/add/datagen", { intent: "explode", name: "x" });
  expect(unknown.status).toBe(400);
  expect(unknown.html).toContain("Unknown action. Please use the form");
  // A delete dialog's form names the source it was drawn for.
  const stale = await signedIn.submit(`/sources/details/${id}`, { id: "00000000-0000-4000-8000-000000000000" });
  expect(stale.status).toBe(400);
  expect((await signedIn.open("/sources")).$('tr:contains("Kept source")')).toHaveLength(1);
});
