import { insertUser, withDb } from "../e2e/db";
import { uniqueEmail } from "../e2e/fixtures";
import { fillForm } from "../support/forms";
import { seedScheduled } from "../support/records";
import { expect, test, type Web } from "./fixtures";

/**
 * Issue 27, the schedule form's server rules: a bad cron expression, one too often and an interval too short are
 * refused with a sentence at their field, what was typed kept and nothing saved; another user's schedule pages
 * answer 404. Choosing, previewing and saving a schedule in a browser with JavaScript on and off (and the live check
 * as it is typed, with JavaScript): tests/e2e/schedules.spec.ts.
 */

const FORM = 'form:has(input[name="kind"])';

/** Posts the schedule form of the page at `path` as drawn, with `changes`, by its Save schedule button. */
async function save(web: Web, path: string, changes: Record<string, string>) {
  const { action, fields } = fillForm(await web.open(path), FORM, changes, "Save schedule");
  return web.submit(action, fields);
}

test("a bad cron expression: its error at the field, what was typed kept, nothing saved", async ({ signedIn, user }) => {
  const { connectorId } = await seedScheduled(user.email, "Nightly");
  const path = `/connectors/details/${connectorId}/schedule`;
  let page = await save(signedIn, path, { kind: "cron", expression: "61 * * * *" });
  expect(page.status).toBe(400);
  const message = /^This is not a valid cron expression: .*61/;
  expect(page.alerts()).toContainEqual(expect.stringMatching(message));
  expect(page.invalid("schedule-expression")).toBe(true);
  expect(page.fieldError("schedule-expression")).toMatch(message);
  expect(page.value("expression")).toBe("61 * * * *");
  expect(page.checked("kind")).toEqual(["cron"]);

  // Issue 35, defect 8: a plain sentence at the field, never the library's "Constraint error, got value 25 …".
  page = await save(signedIn, path, { kind: "cron", expression: "0 25 * * *" });
  expect(page.fieldError("schedule-expression")).toBe("This is not a valid cron expression: the hour is 25; it goes from 0 to 23.");
  expect(page.invalid("schedule-expression")).toBe(true);
  expect(page.text("main")).not.toMatch(/Constraint error|got value|expected range/);
  expect(page.value("expression")).toBe("0 25 * * *");

  // Too often is refused too, at the field of its kind.
  page = await save(signedIn, path, { kind: "cron", expression: "*/5 * * * *" });
  expect(page.fieldError("schedule-expression")).toBe("Run at most every 15 minutes.");
  expect(page.value("expression")).toBe("*/5 * * * *");
  page = await save(signedIn, path, { kind: "interval", every: "10" });
  expect(page.fieldError("schedule-every")).toBe("Run at most every 15 minutes.");
  expect(page.value("every")).toBe("10");

  const details = await signedIn.open(`/connectors/details/${connectorId}`);
  expect(details.text('[data-testid="schedule-words"]')).toBe("Daily");
});

test("another user's schedule pages answer 404", async ({ signedIn }) => {
  const otherEmail = uniqueEmail("else");
  await withDb((db) => insertUser(db, "Someone Else", otherEmail));
  const theirs = await seedScheduled(otherEmail, "Theirs");
  for (const [path, message] of [
    [`/connectors/details/${theirs.connectorId}/schedule`, "Connector not found"],
    [`/transforms/details/${theirs.transformId}/schedule`, "Transform not found"],
    ["/connectors/details/not-an-id/schedule", "Connector not found"],
  ] as const) {
    const page = await signedIn.open(path);
    expect(page.status, path).toBe(404);
    expect(page.text(), path).toContain(message);
    expect(page.hasButton("Save schedule"), path).toBe(false);
  }
});
