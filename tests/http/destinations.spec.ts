import { insertConnector, insertSource, userIdByEmail, withDb } from "../e2e/db";
import { buttonDisabled, confirmDelete, expect, press, test, type Web } from "./fixtures";

/**
 * Issue 4 and spec §5, the server's rules for destinations, as a browser without JavaScript meets them: the create
 * and update forms' validation sentences (in the banner, after a post), another user's destination not found, the
 * refused delete of a destination that connectors use, and a delete form drawn for another destination. The flow
 * (create, details, edit, delete with confirmation), the checks the form makes itself with JavaScript, the type
 * select's focus, axe and the phone width: tests/e2e/destinations.spec.ts.
 */

const CREATE = "form#destination-create";

/** Creates a local folder destination through its form, as a browser without JavaScript; answers its id. */
async function createLocal(web: Web, name: string): Promise<string> {
  const list = await press(web, await web.open("/destinations/add?type=local"), CREATE, "Create Destination", { name });
  expect(list.url.pathname).toBe("/destinations");
  const [href] = list.links(name);
  expect(href, `a link to ${name} on the list`).toMatch(/^\/destinations\/details\/[0-9a-f-]{36}$/);
  return href!.split("/").pop()!;
}

test("the update form refuses an empty name", async ({ signedIn }) => {
  const id = await createLocal(signedIn, "Laptop folder");
  const refused = await press(signedIn, await signedIn.open(`/destinations/edit/${id}`), "form#destination-edit", "Update Destination", { name: "" });
  expect(refused.alerts()).toEqual(["Please enter a destination name"]);
});

test("another user's destination is not found", async ({ signedIn, another }) => {
  const id = await createLocal(signedIn, "Private folder");
  const stranger = await another("Mallory");
  expect((await stranger.open(`/destinations/details/${id}`)).alertText()).toContain("Destination not found");
  expect((await stranger.open(`/destinations/edit/${id}`)).alertText()).toContain("Destination not found");
});

test.describe("create form validation (spec §5)", () => {
  test("name and integration type", async ({ signedIn }) => {
    const first = await press(signedIn, await signedIn.open("/destinations/add"), CREATE, "Create Destination");
    expect(first.alertText()).toContain("Please enter a destination name");
    expect(first.alertText()).toContain("Please select an integration type");
    const second = await press(signedIn, first, CREATE, "Create Destination", { name: "Somewhere" });
    expect(second.alertText()).not.toContain("Please enter a destination name");
    expect(second.alerts()).toEqual(["Please select an integration type"]);
  });

  test("Cloud Storage: project id and bucket before testing", async ({ signedIn }) => {
    const form = await signedIn.open("/destinations/add?type=storage");
    expect(buttonDisabled(form, "Create Destination")).toBe(true);
    const first = await press(signedIn, form, CREATE, "Authenticate");
    expect(first.alertText()).toContain("Please enter your GCP Project ID before testing connection");
    expect(first.alertText()).toContain("Please enter your Google Cloud Storage bucket name before testing connection");
    const second = await press(signedIn, first, CREATE, "Authenticate", { project_id: "demo-project" });
    expect(second.alerts()).toEqual(["Please enter your Google Cloud Storage bucket name before testing connection"]);
  });

  test("BigQuery: dataset before testing", async ({ signedIn }) => {
    const refused = await press(signedIn, await signedIn.open("/destinations/add?type=bigquery"), CREATE, "Authenticate", { project_id: "demo-project" });
    expect(refused.alerts()).toEqual(["Please enter your BigQuery dataset name before testing connection"]);
  });

  test("Snowflake: every required field", async ({ signedIn }) => {
    const form = await signedIn.open("/destinations/add?type=snowflake");
    expect(buttonDisabled(form, "Create Destination")).toBe(true);
    const refused = await press(signedIn, form, CREATE, "Test Connection");
    for (const message of ["Account is required", "Warehouse is required", "Database is required", "Schema is required", "Username is required", "Password is required"]) {
      expect(refused.alertText()).toContain(message);
    }
  });

  test("Snowflake stage: stage name rules", async ({ signedIn }) => {
    const form = await signedIn.open("/destinations/add?type=snowflake_stage");
    expect(form.$('[name="warehouse"]')).toHaveLength(0);
    expect(form.$("label").toArray().map((label) => form.$(label).text())).not.toContainEqual(expect.stringMatching(/warehouse/i));
    const first = await press(signedIn, form, CREATE, "Test Connection");
    expect(first.alertText()).toContain("Stage name is required");
    const second = await press(signedIn, first, CREATE, "Test Connection", { stage_name: "my-stage" });
    expect(second.alertText()).toContain("Only A-Z, 0-9 and _ allowed");
  });
});

test("a destination that connectors use cannot be deleted; the dialog names them", async ({ signedIn, user }) => {
  const destinationId = await createLocal(signedIn, "Shared folder");
  await withDb(async (db) => {
    const ownerId = await userIdByEmail(db, user.email);
    const sourceId = await insertSource(db, ownerId, { name: "Meetings" });
    await insertConnector(db, ownerId, { name: "Nightly meetings", sourceId, destinationIds: [destinationId] });
  });
  const refused = await confirmDelete(signedIn, await signedIn.open(`/destinations/details/${destinationId}`));
  expect(refused.status).toBe(409);
  expect(refused.text('[role="dialog"] [role="alert"]')).toContain('Failed to delete destination. This destination is used by the connector "Nightly meetings"');
  const list = await signedIn.open("/destinations");
  expect(list.text('tr:contains("Shared folder")')).toContain("1");
});

test("a delete form drawn for another destination is refused with a sentence, and nothing is deleted", async ({ signedIn }) => {
  const ids = [await createLocal(signedIn, "Kept folder"), await createLocal(signedIn, "Other folder")];
  const refused = await signedIn.submit(`/destinations/details/${ids[0]}?delete=1`, { id: ids[1]! });
  expect(refused.status).toBe(400);
  expect(refused.html).toContain("This form was drawn for another record. Please reload the page and try again.");
  const list = await signedIn.open("/destinations");
  expect(list.$('tr:contains("Kept folder")')).toHaveLength(1);
  expect(list.$('tr:contains("Other folder")')).toHaveLength(1);
});
