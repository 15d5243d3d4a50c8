import { seedRecords, userIdByEmail, withDb } from "../e2e/db";
import { expect, test } from "./fixtures";

/**
 * Issue 27 "Find things", the server's rule: a search or filter the page's own form could not have sent answers 400
 * with a sentence, what was typed kept. Searching, filtering, sorting and paging in a browser with JavaScript on and
 * off: tests/e2e/find.spec.ts.
 */

test("a search or filter the page could not have sent gets a 400 and a sentence, with what was typed kept", async ({ signedIn, user }) => {
  await seedRecords(await withDb((db) => userIdByEmail(db, user.email)), "Meeting");
  const page = await signedIn.open("/connectors?status=sleeping&q=Meeting");
  expect(page.status).toBe(400);
  expect(page.text("main")).toContain("Choose a status from the list.");
  expect(page.value("q", 'main form[role="search"][aria-label="Find connectors"]')).toBe("Meeting");
  const long = await signedIn.open(`/sources?q=${"x".repeat(201)}`);
  expect(long.status).toBe(400);
  expect(long.text("main")).toContain("Search for at most 200 characters.");
});
