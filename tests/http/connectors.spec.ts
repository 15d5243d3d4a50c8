import { STREAM_MESSAGES } from "../../contract/connectors";
import { seedConnector, seedLocalDestination, seedSource, userIdByEmail, withDb } from "../e2e/db";
import { fillForm, type WebPage } from "../support/forms";
import { expect, press, test, type Web } from "./fixtures";

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

test("Re-sync without JavaScript: its confirmation is a page; confirmed, the stream's state goes; a refusal is a sentence (issue 52)", async ({ signedIn, user, another }) => {
  const { connectorId } = await withDb(async (client) => seedConnector(client, await userIdByEmail(client, user.email), "Resync rules"));
  // A stream synced up to a moment, as a sync leaves it.
  await withDb((client) =>
    client.query("INSERT INTO connector_stream_states (connector_id, stream, synced_to, destination_ids) SELECT $1, s, '2026-11-30T10:00:00Z', '{}' FROM unnest(ARRAY['meetings', 'transcript_utterances']) s", [connectorId]),
  );
  const details = await signedIn.open(`/connectors/details/${connectorId}`);
  expect(details.text('[data-stream="meetings"]')).toContain("Synced up to Nov 30,2026 10:00:00 AM");
  const [link] = details.links("Re-sync");
  expect(link).toBe(`/connectors/details/${connectorId}?resync=meetings`);
  const confirming = await signedIn.open(link!);
  expect(confirming.text('[role="dialog"]')).toContain("Re-sync Meetings?");
  const done = await press(signedIn, confirming, '[role="dialog"] form', "Re-sync");
  expect(done.status).toBe(200);
  expect(done.url.pathname).toBe(`/connectors/details/${connectorId}`);
  expect(done.$('[role="dialog"]')).toHaveLength(0);
  expect(done.text('[data-stream="meetings"]')).toContain("Not synced yet: the next sync reads its whole lookback window.");
  expect(done.text('[data-stream="transcript_utterances"]')).toContain("Synced up to Nov 30,2026 10:00:00 AM");

  // A forged stream, and a stopped one: each refused with its sentence, nothing changed.
  const forged = await signedIn.submit(`/connectors/details/${connectorId}?resync=meetings`, { intent: "resync", stream: "chat_messages" });
  expect(forged.status).toBe(400);
  expect(forged.alerts()).toEqual([STREAM_MESSAGES.unknown]);
  await signedIn.submit(`/connectors/details/${connectorId}`, { intent: "stream", stream: "transcript_utterances", enabled: "false" });
  const off = await signedIn.submit(`/connectors/details/${connectorId}`, { intent: "resync", stream: "transcript_utterances" });
  expect(off.status).toBe(400);
  expect(off.text('[data-stream="transcript_utterances"] [role="alert"]')).toBe(STREAM_MESSAGES.resyncOff);
  // Another user's connector is not found.
  const stranger = await another();
  expect((await stranger.submit(`/connectors/details/${connectorId}`, { intent: "resync", stream: "meetings" })).status).toBe(404);
});
