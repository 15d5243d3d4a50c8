import { TRANSFORM_MESSAGES as M } from "../../contract/transforms";
import { insertTransform, userIdByEmail, withDb } from "../e2e/db";
import { fillForm, type WebPage } from "../support/forms";
import { seedTranscriptConnector } from "../support/records";
import { expect, test, type Web } from "./fixtures";

/**
 * Issue 6, spec §5: every message the server answers the transform forms with, as a browser without JavaScript meets
 * them (the first screen's five, a custom workflow, a name taken, a template draft without its permissions setup), and
 * the edit page's answers for a transform of a retired type or none. The template flow, the wizard, delete with its
 * confirmation in a browser with JavaScript on and off, and the same messages with JavaScript (the form's own checks,
 * Continue disabled): tests/e2e/transforms.spec.ts.
 */

const FIRST = "form#transform-add";

/** The first screen's main Continue pressed on `page` (a plain submit: no name, no value), after `changes`. */
function continueFirst(web: Web, page: WebPage, changes: Record<string, string>) {
  const { action, fields } = fillForm(page, FIRST, changes);
  return web.submit(action, fields);
}

/** The first screen, filled and continued, as fillFirstScreen does it in the browser. */
async function fillFirstScreen(web: Web, values: { name: string; connector: string; workflow?: "template" | "custom" }) {
  return continueFirst(web, await web.open("/transforms/add"), { name: values.name, connector_id: values.connector, workflow: values.workflow ?? "template" });
}

test("every transform validation message, once", async ({ signedIn, user }) => {
  const connectorId = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const connectorId = await seedTranscriptConnector(client, ownerId, "Support calls");
    await insertTransform(client, ownerId, { name: "Churn Signals", type: "topic_modeling", connectorId });
    return connectorId;
  });
  let page = await continueFirst(signedIn, await signedIn.open("/transforms/add"), { file_type: "", frequency: "" });
  for (const message of [M.nameRequired, M.connectorRequired, M.frequencyRequired, M.fileTypeRequired, M.workflowRequired]) expect(page.alertText()).toContain(message);
  expect(page.url.pathname).toBe("/transforms/add");

  page = await fillFirstScreen(signedIn, { name: "Custom one", connector: connectorId, workflow: "custom" });
  expect(page.alerts()).toEqual([M.customUnavailable]);
  expect(page.value("name", FIRST)).toBe("Custom one");
  expect(page.checked("workflow")).toEqual(["custom"]);

  page = await fillFirstScreen(signedIn, { name: "  churn signals ", connector: connectorId });
  expect(page.alerts()).toEqual([M.nameTaken]);
  expect(page.value("connector_id", FIRST)).toMatch(/^[0-9a-f-]{36}$/);

  // A draft without the permissions setup cannot be created.
  page = await fillFirstScreen(signedIn, { name: "Half done", connector: connectorId });
  expect(page.url.pathname).toBe("/transforms/templates/select");
  const chosen = fillForm(page, "form#template-select", {}, "Continue");
  page = await signedIn.submit(chosen.action, chosen.fields);
  expect(page.url.pathname).toBe("/transforms/templates/permissions");
  page = await signedIn.open("/transforms/templates/config/topic_modeling");
  const create = fillForm(page, "form#transform-config", {}, "Create Transform");
  page = await signedIn.submit(create.action, create.fields);
  expect(page.alerts()).toEqual([M.templateCreateIncomplete]);
});

test("the edit page: a transform of a retired type says so; one that is not there says it is not found", async ({ signedIn, user }) => {
  const legacy = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const connectorId = await seedTranscriptConnector(client, ownerId, "Edit calls");
    return insertTransform(client, ownerId, { name: "Legacy B", type: "keyword_counter_v0", connectorId });
  });
  expect((await signedIn.open(`/transforms/edit/${legacy}`)).alertText()).toContain(M.invalidType);
  expect((await signedIn.open("/transforms/edit/00000000-0000-4000-8000-000000000000")).alertText()).toContain(M.notFound);
});
