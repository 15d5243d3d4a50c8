import { withDb } from "../e2e/db";
import { expect, press, test } from "./fixtures";

/**
 * Issue 39, the server's rule for the data generator's optional volume (Meetings per day) on its setup form, as a
 * browser without JavaScript meets it (the form checks nothing itself): out of range is refused with a sentence and
 * nothing typed is lost; a volume in range is stored on the source. Typing it in the create flow, with JavaScript on
 * and off: the data generator test of tests/e2e/sources.spec.ts.
 */

const CREATE = "form#source-create";

test("the data generator's Meetings per day: optional, checked, stored", async ({ signedIn, user }) => {
  const form = await signedIn.open("/sources/add/datagen");
  expect(form.url.pathname).toBe("/sources/add/datagen");
  const authenticated = await press(signedIn, form, CREATE, "Authenticate", { name: "Long rehearsal" });
  expect(authenticated.text()).toContain("Authenticated with Data Generator");
  const label = authenticated.$("label").filter((_, element) => authenticated.$(element).text().trim() === "Meetings per day (optional)");
  expect(label.attr("for")).toBe("source-meetings_per_day");
  expect(authenticated.value("meetings_per_day", CREATE)).toBe("");

  const refused = await press(signedIn, authenticated, CREATE, "Create", { company: "Acme Rockets", meetings_per_day: "5000" });
  expect(refused.alerts()).toEqual(["Meetings per day must be a whole number from 1 to 1,000."]);
  expect(refused.value("meetings_per_day", CREATE)).toBe("5000");
  expect(refused.value("company", CREATE)).toBe("Acme Rockets");
  expect(refused.value("name", CREATE)).toBe("Long rehearsal");

  const created = await press(signedIn, refused, CREATE, "Create", { meetings_per_day: "300" });
  expect(created.url.pathname).toBe("/sources");
  const stored = await withDb((db) => db.query<{ v: unknown }>("SELECT metadata->'meetings_per_day' AS v FROM sources WHERE name = 'Long rehearsal' AND owner_id = (SELECT id FROM users WHERE email = $1)", [user.email]));
  expect(stored.rows.map((r) => r.v)).toEqual([300]);
});
