import { TRANSFORM_MESSAGES as M } from "../../contract/transforms";
import { INPUT_MESSAGES } from "../../contract/transform-forms";
import { userIdByEmail, withDb } from "../e2e/db";
import { accessibleDescription, fillForm } from "../support/forms";
import { seedTranscriptConnector } from "../support/records";
import { expect, test } from "./fixtures";

/**
 * Issue 26, the transform's first screen as the server answers a browser without JavaScript: a connector chosen by
 * its Continue button keeps the file type its data has, and a Continue without a name or a frequency marks each
 * error at its field. The file types of a Gong-style connector, the choices' Continue buttons, the same errors with
 * JavaScript (the form's own checks) and the focus after a choice, in a browser: tests/e2e/transforms-input.spec.ts.
 */

const FIRST = "form#transform-add";

test("the first screen marks each error at its field without JavaScript", async ({ signedIn, user }) => {
  const connectorId = await withDb(async (client) => seedTranscriptConnector(client, await userIdByEmail(client, user.email), "Zoom calls", "zoom"));
  // "Continue with this connector": the form's fields as a GET.
  const chosen = fillForm(await signedIn.open("/transforms/add"), FIRST, { connector_id: connectorId });
  let page = await signedIn.open(`${chosen.action.split("?")[0]}?${new URLSearchParams(chosen.fields).toString()}`);
  // A zoom-style connector's data has the default .vtt: it stays.
  expect(page.value("file_type", FIRST)).toBe(".vtt");
  expect(accessibleDescription(page, "transform-file_type")).toBe(`${INPUT_MESSAGES.dataHas([".vtt", ".txt"])} ${INPUT_MESSAGES.notSynced}`);

  const { action, fields } = fillForm(page, FIRST, { workflow: "template", frequency: "" });
  page = await signedIn.submit(action, fields);
  expect(page.alertText()).toContain(M.nameRequired);
  expect(page.alertText()).toContain(M.frequencyRequired);
  for (const [id, message] of [
    ["transform-name", M.nameRequired],
    ["transform-frequency", M.frequencyRequired],
  ] as const) {
    expect(page.invalid(id), id).toBe(true);
    expect(accessibleDescription(page, id), id).toBe(message);
  }
  expect(page.invalid("transform-connector_id")).toBe(false);
});
