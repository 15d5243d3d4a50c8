import { CONNECTOR_MESSAGES as M } from "../../contract/connectors";
import { insertConnector, withDb } from "../e2e/db";
import type { WebPage } from "../support/forms";
import { seedConnectorChoices } from "../support/records";
import { choose, expect, fieldState, press, test } from "./fixtures";

/**
 * Issue 26, the server's rules of the connector forms, as a browser without JavaScript meets them: every error in the
 * banner and at its field (marked invalid, its message under it and read with it) after a post; what the user typed
 * survives a refused post, the backend's refusal included; the details page takes only its own buttons' intents. The
 * same checks made by the forms themselves with JavaScript, the cascade, axe on the forms with their errors, the
 * destinations kept through edits and the selects' focus: tests/e2e/connectors-form.spec.ts.
 */

const CREATE = "form#connector-create";
const EDIT = "form#connector-edit";

/** A control that carries no aria-invalid at all (Playwright's not.toHaveAttribute("aria-invalid")). */
const unmarked = (page: WebPage, id: string) => {
  expect(page.$(`#${id}`), `#${id} on the page`).toHaveLength(1);
  return page.$(`#${id}`).attr("aria-invalid") === undefined;
};

/** The Destinations group (a fieldset): its text, and what a screen reader reads with it (its aria-describedby). */
function destinationsGroup(page: WebPage) {
  const group = page.$("fieldset").filter((_, element) => page.$(element).children("legend").text().trim() === "Destinations");
  expect(group, "the Destinations group").toHaveLength(1);
  const described = (group.attr("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  return { text: group.text().replace(/\s+/g, " ").trim(), description: described.map((id) => page.text(`#${id}`)).join(" ") };
}

/** The destination's checkbox (its label reads "Team warehouse (…)"). */
const tick = (page: WebPage, name: string) => page.$(`label:contains("${name}") input[type="checkbox"]`);

test("create: each error at its field and in the banner, the typed values kept", async ({ signedIn, user }) => {
  const { first, warehouse } = await seedConnectorChoices(user.email);
  const empty = await press(signedIn, await signedIn.open("/connectors/add"), CREATE, "Create Connector", { description: "Kept after every refusal" });
  expect(empty.alertText()).toContain(M.nameRequired);
  expect(empty.alertText()).toContain(M.sourceRequired);
  expect(empty.alertText()).toContain(M.frequencyRequired);
  expect(fieldState(empty, "connector-name")).toEqual({ invalid: true, description: M.nameRequired, error: M.nameRequired });
  expect(fieldState(empty, "connector-source")).toEqual({ invalid: true, description: M.sourceRequired, error: M.sourceRequired });
  expect(fieldState(empty, "connector-frequency")).toEqual({ invalid: true, description: M.frequencyRequired, error: M.frequencyRequired });
  expect(unmarked(empty, "connector-description")).toBe(true);
  expect(unmarked(empty, "connector-lookback_days")).toBe(true);
  expect(empty.value("description", CREATE)).toBe("Kept after every refusal");

  // A source with platforms: the platform is required, at its own field.
  const withSource = await choose(signedIn, empty, CREATE, { source: first });
  expect(withSource.$("#connector-platform")).toHaveLength(1);
  const noPlatform = await press(signedIn, withSource, CREATE, "Create Connector", { name: "Nightly calls", frequency: "daily" });
  expect(noPlatform.alerts()).toEqual([M.platformRequired]);
  expect(fieldState(noPlatform, "connector-platform")).toEqual({ invalid: true, description: M.platformRequired, error: M.platformRequired });
  expect(unmarked(noPlatform, "connector-name")).toBe(true);
  expect(unmarked(noPlatform, "connector-source")).toBe(true);
  expect(noPlatform.value("name", CREATE)).toBe("Nightly calls");
  expect(noPlatform.value("frequency", CREATE)).toBe("daily");

  // Destinations offered, none ticked: the group says why, each box is marked.
  const withPlatform = await choose(signedIn, noPlatform, CREATE, { platform: "zoom" });
  destinationsGroup(withPlatform);
  const noDestination = await press(signedIn, withPlatform, CREATE, "Create Connector");
  expect(noDestination.alerts()).toEqual([M.destinationsRequired]);
  expect(destinationsGroup(noDestination).description).toBe(M.destinationsRequired);
  expect(destinationsGroup(noDestination).text).toContain(M.destinationsRequired);
  expect(tick(noDestination, "Team warehouse").attr("aria-invalid")).toBe("true");
  expect(unmarked(noDestination, "connector-platform")).toBe(true);
  expect(noDestination.value("name", CREATE)).toBe("Nightly calls");
  expect(noDestination.value("description", CREATE)).toBe("Kept after every refusal");

  const created = await press(signedIn, noDestination, CREATE, "Create Connector", { destination_ids: [warehouse] });
  expect(created.url.pathname).toBe("/connectors");
  expect(created.text('tr:contains("Nightly calls")')).toContain("Kept after every refusal");
});

test("create: the backend's refusal shows in the banner, the form as typed", async ({ signedIn, user }) => {
  const { first, warehouse } = await seedConnectorChoices(user.email);
  const form = await signedIn.open(`/connectors/add?source=${first}&platform=zoom`);
  destinationsGroup(form);
  // The source disappears between showing the form and saving it: the backend says so.
  await withDb((client) => client.query("DELETE FROM sources WHERE id = $1", [first]));
  const refused = await press(signedIn, form, CREATE, "Create Connector", { name: "Gone before saving", destination_ids: [warehouse], frequency: "hourly" });
  expect(refused.alerts()).toEqual([M.createFailed(M.sourceNotFound)]);
  expect(refused.value("name", CREATE)).toBe("Gone before saving");
  expect(refused.value("frequency", CREATE)).toBe("hourly");
  expect(unmarked(refused, "connector-name")).toBe(true);
});

test("edit: each error at its field and in the banner, the typed values kept", async ({ signedIn, user }) => {
  const { ownerId, first, warehouse } = await seedConnectorChoices(user.email);
  const id = await withDb((client) => insertConnector(client, ownerId, { name: "To edit", description: "before", sourceId: first, destinationIds: [warehouse] }));
  const refused = await press(signedIn, await signedIn.open(`/connectors/edit/${id}`), EDIT, "Update Connector", { name: "   ", description: "", frequency: "weekly" });
  expect(refused.alertText()).toContain(M.nameRequired);
  expect(refused.alertText()).toContain(M.frequencyInvalid);
  // The description is optional, as on create.
  expect(refused.alertText()).not.toContain(M.descriptionRequired);
  expect(unmarked(refused, "connector-description")).toBe(true);
  expect(fieldState(refused, "connector-name")).toEqual({ invalid: true, description: M.nameRequired, error: M.nameRequired });
  // The frequency's hint is read with its error.
  expect(fieldState(refused, "connector-frequency")).toEqual({ invalid: true, description: `daily or hourly ${M.frequencyInvalid}`, error: M.frequencyInvalid });
  expect(unmarked(refused, "connector-source_id")).toBe(true);
  expect(tick(refused, "Team warehouse").attr("aria-invalid")).toBeUndefined();
  expect(refused.checked("destination_ids")).toEqual([warehouse]);
  expect(refused.value("frequency", EDIT)).toBe("weekly");

  const again = await press(signedIn, refused, EDIT, "Update Connector", { destination_ids: [], name: "Edited", description: "after", frequency: "" });
  expect(again.alertText()).toContain(M.destinationRequired);
  expect(again.alertText()).toContain(M.frequencyRequired);
  expect(again.alertText()).not.toContain(M.nameRequired);
  expect(tick(again, "Team warehouse").attr("aria-invalid")).toBe("true");
  expect(destinationsGroup(again).description).toBe(M.destinationRequired);
  expect(again.fieldError("connector-destination_ids")).toBe(M.destinationRequired);
  expect(again.checked("destination_ids")).toEqual([]);
  expect(unmarked(again, "connector-name")).toBe(true);
  expect(again.value("name", EDIT)).toBe("Edited");

  const saved = await press(signedIn, again, EDIT, "Update Connector", { destination_ids: [warehouse], frequency: "Hourly" });
  expect(saved.url.pathname).toBe(`/connectors/details/${id}`);
  expect(saved.headings()).toContain("Edited");
  expect(saved.text("dl")).toContain("after");
  expect(saved.text("dl")).toContain("Hourly");
});

test("details: only its own buttons' intents are taken", async ({ signedIn, user }) => {
  const { ownerId, first, warehouse } = await seedConnectorChoices(user.email);
  const id = await withDb((client) => insertConnector(client, ownerId, { name: "Stays", sourceId: first, destinationIds: [warehouse] }));
  for (const form of [{ intent: "explode" }, {}] as Record<string, string>[]) {
    const response = await signedIn.submit(`/connectors/details/${id}`, form);
    expect(response.status, JSON.stringify(form)).toBe(400);
  }
  // Nothing was deleted by a post without an intent.
  expect((await signedIn.open(`/connectors/details/${id}`)).headings()).toContain("Stays");
});
