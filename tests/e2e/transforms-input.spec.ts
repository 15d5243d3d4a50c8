import type { Page } from "@playwright/test";
import { TRANSFORM_MESSAGES as M } from "../../contract/transforms";
import { INPUT_MESSAGES } from "../../contract/transform-forms";
import { userIdByEmail, withDb } from "./db";
import { expect, expectAccessible, login, test, waitForHydration } from "./fixtures";
import { seedTranscriptConnector as seedConnector } from "../support/records";

/**
 * Issue 26, JS on and off: transforms tell the truth about their input (a Gong-style data generator's data comes as
 * .txt and .json files, never .vtt: the form says so and picks one it has, a preview of none says why and what to
 * choose, a run that read nothing reads "No input"); the transform forms' errors at their field; the no-JavaScript
 * Continue buttons of the connector, category and template choices; the keyboard focus after a choice (JS). The
 * first screen's errors as the server answers a browser without JavaScript: tests/http/transforms-input.spec.ts.
 */

const BAD_REQUEST = /Failed to load resource: the server responded with a status of (400|404|409)/;

const seed = (email: string, name: string, format: "zoom" | "gong") => withDb(async (client) => seedConnector(client, await userIdByEmail(client, email), name, format));

/** Chooses a connector on the first screen; without JavaScript its Continue button draws the page for it. */
async function chooseConnector(page: Page, jsEnabled: boolean, name: string) {
  await page.getByLabel("Connector", { exact: true }).selectOption({ label: name });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this connector" }).click();
}

test("a Gong-style connector: the form offers its file types, a preview of none says why, a run that read nothing reads No input", async ({
  page,
  user,
  jsEnabled,
  allowConsoleErrors,
}) => {
  test.setTimeout(180_000);
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/transforms" });
  const connectorId = await seed(user.email, "Gong calls", "gong");
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.locator("tbody tr").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });

  // 1. The first screen: the connector's file types, and one it has chosen.
  await page.goto("/transforms/add");
  await expect(page.getByLabel("File type")).toHaveValue(".vtt");
  await page.getByLabel("Transform name").fill("Gong topics");
  await chooseConnector(page, jsEnabled, "Gong calls");
  await expect(page.getByLabel("Transform name")).toHaveValue("Gong topics");
  const fileType = page.getByLabel("File type");
  await expect(fileType).toHaveValue(".txt");
  await expect(fileType).toHaveAccessibleDescription(INPUT_MESSAGES.dataHas([".txt", ".json"]));
  await expect(fileType.locator("option")).toHaveText(["Select a file type", ".vtt (not in this connector's data)", ".txt", ".json"]);
  // Choosing a file type the data does not have is allowed, with a warning (shown at once with JavaScript).
  await fileType.selectOption(".vtt");
  if (jsEnabled) await expect(page.getByTestId("file-types-hint")).toContainText(INPUT_MESSAGES.typeMissing(".vtt", [".txt", ".json"]));
  await page.getByLabel("Use Templates").check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  // 2. Template and permissions as they come.
  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  for (const n of [2, 3, 4]) {
    await page.getByRole("button", { name: "Next step" }).click();
    await expect(page.getByText(`Step ${n} of 4`)).toBeVisible();
  }
  await page.getByRole("button", { name: "Continue to configuration" }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/config\/topic_modeling$/);

  // 3. An input out of range is marked at its field and in the banner.
  await page.getByLabel("Number of topics").fill("25");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("alert")).toHaveText("Number of topics must be between 2 and 20");
  await expect(page.getByLabel("Number of topics")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Number of topics")).toHaveAccessibleDescription(/Number of topics must be between 2 and 20/);
  await page.getByLabel("Number of topics").fill("4");

  // 4. A preview of none says why and what to choose.
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("record-count")).toHaveText("0");
  const why = page.getByTestId("no-records");
  await expect(why).toContainText("No records to analyse: this connector's data has no .vtt files.");
  await expect(why).toContainText("choose .txt or .json as the file type");
  await expect(why.getByRole("link", { name: "Change the file type" })).toHaveAttribute("href", "/transforms/add");
  await expectAccessible(page);

  // 5. Its run reads nothing: "No input", with what to do, and no empty result tables.
  await page.getByRole("button", { name: "Create Transform" }).click();
  await expect(page).toHaveURL(/\/transforms\/details\/[0-9a-f-]{36}$/);
  const run = page.locator("tbody tr[data-run-status]").first();
  await expect(run).toHaveAttribute("data-run-status", "succeeded", { timeout: 90_000 });
  await expect(run).toHaveAttribute("data-run-outcome", INPUT_MESSAGES.noInputStatus);
  await expect(run.locator("td").first()).toHaveText("No input");
  await expect(run.locator("td").last()).toHaveText(INPUT_MESSAGES.runNote);
  await expect(page.locator("h1 + span")).toHaveText("No input");
  await expect(page.getByTestId("no-input")).toContainText(INPUT_MESSAGES.runWrongType([".vtt"], "Gong calls", [".txt", ".json"]));
  await expect(page.locator("[data-result-table]")).toHaveCount(0);
  await expectAccessible(page);
});

test("the first screen marks each error at its field (JS); the choices' Continue buttons exist only without JavaScript", async ({
  page,
  user,
  jsEnabled,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user, { from: "/transforms/add" });
  await seed(user.email, "Zoom calls", "zoom");
  await page.goto("/transforms/add");
  await expect(page.getByRole("button", { name: "Continue with this connector" })).toHaveCount(jsEnabled ? 0 : 1);
  if (!jsEnabled) await expect(page.getByRole("button", { name: "Continue with this connector" })).toHaveText("Continue");
  await chooseConnector(page, jsEnabled, "Zoom calls");
  // A zoom-style connector's data has the default .vtt: it stays.
  await expect(page.getByLabel("File type")).toHaveValue(".vtt");
  await expect(page.getByLabel("File type")).toHaveAccessibleDescription(`${INPUT_MESSAGES.dataHas([".vtt", ".txt"])} ${INPUT_MESSAGES.notSynced}`);
  await page.getByLabel("Use Templates").check();
  // Each error at its field: with JavaScript the form checks itself (without, the server answers the same:
  // tests/http/transforms-input.spec.ts).
  if (jsEnabled) {
    await page.getByLabel("Frequency").selectOption("");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText(M.nameRequired);
    await expect(page.getByRole("alert")).toContainText(M.frequencyRequired);
    for (const [label, message] of [
      ["Transform name", M.nameRequired],
      ["Frequency", M.frequencyRequired],
    ] as const) {
      await expect(page.getByLabel(label)).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel(label)).toHaveAccessibleDescription(message);
    }
    await expect(page.getByLabel("Connector", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  }

  // On to the template step: its category and template choices have their own Continue without JavaScript.
  await page.getByLabel("Transform name").fill("Zoom topics");
  await page.getByLabel("Frequency").selectOption("daily");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  for (const what of ["category", "template"]) await expect(page.getByRole("button", { name: `Continue with this ${what}` })).toHaveCount(jsEnabled ? 0 : 1);
  await page.getByLabel("Category", { exact: true }).selectOption({ label: "Coaching" });
  if (!jsEnabled) await page.getByRole("button", { name: "Continue with this category" }).click();
  await expect(page).toHaveURL(/category=coaching/);
  await expect(page.getByLabel("Template", { exact: true })).toHaveValue("speaker_metrics");
});

test("with JavaScript the select just changed keeps the keyboard focus", async ({ page, user, jsEnabled }) => {
  test.skip(!jsEnabled, "without JavaScript a choice applies through its Continue button");
  await login(page, user, { from: "/transforms/add" });
  await seed(user.email, "A gong connector", "gong");
  await seed(user.email, "B zoom connector", "zoom");
  await page.goto("/transforms/add");

  // The connector select: arrowing through it sets a file type each connector's data has, the focus stays on it.
  const connector = page.getByLabel("Connector", { exact: true });
  await waitForHydration(page);
  await connector.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByLabel("File type")).toHaveValue(".txt");
  await expect(connector).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(connector).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByLabel("File type")).toHaveAccessibleDescription(/\.vtt and \.txt files/);
  await expect(connector).toBeFocused();
  await page.getByLabel("Transform name").fill("Focus check");
  await page.getByLabel("Use Templates").check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  // The category select reloads the page's data through the address: the focus stays on it, arrowing goes on.
  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  const category = page.getByLabel("Category", { exact: true });
  await expect(category).toHaveValue("conversation_intelligence");
  await category.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(/category=sales_insights/);
  await expect(page.getByRole("heading", { level: 2 }).first()).not.toHaveText("Topic modeling");
  await expect(category).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(/category=coaching/);
  await expect(page.getByLabel("Template", { exact: true })).toHaveValue("speaker_metrics");
  await expect(category).toBeFocused();
});
