import { insertUser, seedRecords, userIdByEmail, withDb } from "../e2e/db";
import { uniqueEmail } from "../e2e/fixtures";
import { fillForm } from "../support/forms";
import { expect, test } from "./fixtures";

/**
 * Spec §2 (List screens), the server's rule: a delete link for someone else's transform shows that it does not
 * exist, and its Delete is refused, nothing deleted. The lists, their paging and Delete with its confirmation in a
 * browser with JavaScript on and off: tests/e2e/lists.spec.ts.
 */

test("transforms: a delete link for someone else's transform shows that it does not exist", async ({ signedIn, user }) => {
  await seedRecords(await withDb((db) => userIdByEmail(db, user.email)), "Mine");
  const { transform: foreign } = await seedRecords(await withDb((db) => insertUser(db, "Mallory Other", uniqueEmail("mallory"))), "Someone else's");
  const page = await signedIn.open(`/transforms?delete=${foreign}`);
  const dialog = '[role="dialog"]';
  expect(page.$(dialog).find("#confirm-title").text()).toBe("Delete transform?");
  expect(page.text(dialog)).toContain("This transform no longer exists.");
  const { action, fields } = fillForm(page, `${dialog} form`, {}, "Delete");
  const answer = await signedIn.submit(action, fields);
  expect(answer.$(`${dialog} [role="alert"]`).toArray().map((alert) => answer.$(alert).text().trim())).toEqual(["Failed to delete transform"]);
  const still = await withDb(async (db) => (await db.query("SELECT 1 FROM transforms WHERE id = $1", [foreign])).rowCount);
  expect(still).toBe(1);
});
