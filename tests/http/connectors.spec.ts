import { seedLocalDestination, seedSource, userIdByEmail, withDb } from "../e2e/db";
import { fillForm, type WebPage } from "../support/forms";
import { expect, test, type Web } from "./fixtures";

/**
 * Issue 5, spec §5 and §8: every message the server answers the Create Connector form with, as a browser without
 * JavaScript meets them (each choice applied by its Continue button, a GET; Create Connector posting the form), and
 * the edit form's. The cascade, Create, Sync now, edit and delete as flows in a browser with JavaScript on and off,
 * and the same messages from the form's own checks with JavaScript: tests/e2e/connectors.spec.ts.
 */

const CREATE = "form#connector-create";

/** A choice applied without JavaScript: the form's Continue button sends its fields, `changes` made, as a GET. */
function choose(web: Web, page: WebPage, changes: Record<string, string>) {
  const { action, fields } = fillForm(page, CREATE, changes);
  return web.open(`${action.split("?")[0]}?${new URLSearchParams(fields).toString()}`);
}

/** Create Connector pressed on `page`, after `changes`. */
function create(web: Web, page: WebPage, changes: Record<string, string | string[]> = {}) {
  const { action, fields } = fillForm(page, CREATE, changes, "Create Connector");
  return web.submit(action, fields);
}

test("every connector validation message, once", async ({ signedIn, user }) => {
  const { sourceId, brokenId } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const sourceId = await seedSource(client, ownerId, "Only source");
    const brokenId = await seedSource(client, ownerId, "Broken source", { company: "X", format: "nothing" });
    return { sourceId, brokenId };
  });
  let page = await create(signedIn, await signedIn.open("/connectors/add"));
  expect(page.alertText()).toContain("Please enter a connector name");
  expect(page.alertText()).toContain("Please select a source");
  expect(page.alertText()).toContain("Please enter a frequency");

  page = await choose(signedIn, page, { source: brokenId });
  expect(page.text("main")).toContain("No compatible platforms found for this source.");

  page = await choose(signedIn, page, { source: sourceId });
  page = await create(signedIn, page, { name: "Nightly", frequency: "daily" });
  expect(page.alerts()).toEqual(["Please select a platform"]);

  // No destinations at all.
  page = await choose(signedIn, page, { platform: "zoom" });
  expect(page.url.searchParams.get("platform")).toBe("zoom");
  expect(page.text("main")).toContain("No compatible destinations found for this source and platform combination. Please ensure destinations are configured.");
  page = await create(signedIn, page, { name: "Nightly", frequency: "daily" });
  expect(page.alerts()).toEqual(["No compatible destinations found for this source and platform. Cannot create connector."]);

  const folderA = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const id = await seedLocalDestination(client, ownerId, "Folder A");
    await client.query("UPDATE sources SET required_integration_categories = '{WAREHOUSE}' WHERE id = $1", [sourceId]);
    return id;
  });
  page = await signedIn.open(`/connectors/add?source=${sourceId}&platform=zoom&name=Nightly&frequency=daily`);
  expect(page.text("main")).toContain("Folder A");
  page = await create(signedIn, page);
  expect(page.alerts()).toEqual(["Please select the required destinations."]);
  page = await create(signedIn, page, { destination_ids: [folderA] });
  expect(page.alerts()).toEqual(["Please select at least one destination for each required category. Missing: WAREHOUSE"]);
  expect(page.checked("destination_ids")).toEqual([folderA]);
});

test("the edit form's rules: a frequency other than daily or hourly is refused; the description is optional", async ({ signedIn, user }) => {
  const id = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const sourceId = await seedSource(client, ownerId, "Edit source");
    const destination = await seedLocalDestination(client, ownerId, "Folder one");
    const { rows } = await client.query<{ id: string }>(
      "INSERT INTO connectors (owner_id, name, description, source_id, platform, frequency, lookback_days) VALUES ($1, 'Editable', 'before', $2, 'zoom', 'daily', 7) RETURNING id",
      [ownerId, sourceId],
    );
    await client.query("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [rows[0]!.id, destination]);
    return rows[0]!.id;
  });
  const { action, fields } = fillForm(await signedIn.open(`/connectors/edit/${id}`), "form#connector-edit", { frequency: "weekly", description: "" }, "Update Connector");
  const page = await signedIn.submit(action, fields);
  expect(page.alertText()).toContain("Frequency must be daily or hourly");
  // The description is optional on edit, as on create (issue 35 item 2).
  expect(page.alertText()).not.toContain("Please enter a description");
});
