import type { Page } from "@playwright/test";
import { seedConnector, userIdByEmail, withDb } from "./db";
import { expect, expectAccessible, login, runHistoryRows, test } from "./fixtures";

/**
 * Issue 37, JS on and off: a connector's Schema section shows each stream its source declares (key, cursor, columns
 * and their types in words, where it lands at the destination); a stream can be stopped (not the last one: that is
 * Pause) and a sync then leaves it out; turned back on, a sync of the lookback window is queued and brings it. Issue
 * 52: each stream says how far it is synced, and Re-sync (after its confirmation) queues a sync of its whole window.
 */

/** Opens the newest run's page and answers where its data landed. */
async function landedOfNewestRun(page: Page, connectorId: string): Promise<string> {
  await expect(runHistoryRows(page).first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 30_000 });
  await runHistoryRows(page).first().getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Sync run" })).toBeVisible();
  const landed = (await page.getByRole("region", { name: "Destinations" }).locator("tbody tr").first().textContent()) ?? "";
  await page.goto(`/connectors/details/${connectorId}`);
  return landed;
}

test("the Schema section: each stream, where it lands and its columns; a stream stopped, synced without it, and turned back on", async ({ page, user, allowConsoleErrors }) => {
  test.slow();
  // The refused switch answers 400, which the browser reports when the app fetches it (with JavaScript).
  allowConsoleErrors(/Failed to load resource: the server responded with a status of 400/);
  await login(page, user, { from: "/connectors" });
  const { ownerId, connectorId, destinationId, sourceId } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    return { ownerId, ...(await seedConnector(client, ownerId, "Schema demo")) };
  });
  const folder = `destinations/${ownerId}/${destinationId}`;
  await page.goto(`/connectors/details/${connectorId}`);
  const schema = page.getByRole("region", { name: "Schema" });
  const meetings = schema.locator('[data-stream="meetings"]');
  const lines = schema.locator('[data-stream="transcript_utterances"]');
  await expect(meetings.getByRole("heading", { name: "Meetings" })).toContainText("Syncing");
  await expect(meetings).toContainText("Key meeting_id · read by started_at");
  await expect(meetings).toContainText(`Lands at Schema demo folder: files in ${folder}/files/zoom/${sourceId}/; tables meetings in ${folder}/warehouse.duckdb`);
  await expect(lines.getByRole("heading", { name: "Transcript lines" })).toContainText("Syncing");
  await expect(lines).toContainText(`Lands at Schema demo folder: tables transcript_utterances in ${folder}/warehouse.duckdb`);
  await lines.getByText("13 columns").click();
  const spokenAt = lines.getByRole("table", { name: "Columns of Transcript lines" }).getByRole("row").filter({ hasText: "spoken_at" });
  await expect(spokenAt).toHaveText(/spoken_at\s*Date and time\s*When it was said/);
  await expectAccessible(page);

  // Stop the transcript lines; the meetings, now the last stream synced, cannot be stopped.
  await lines.getByRole("button", { name: "Stop syncing: Transcript lines" }).click();
  await expect(lines.getByRole("heading", { name: "Transcript lines" })).toContainText("Not synced");
  await meetings.getByRole("button", { name: "Stop syncing: Meetings" }).click();
  await expect(meetings.getByRole("alert")).toHaveText("A connector syncs at least one stream. To stop syncing altogether, pause the connector.");
  await expect(page.getByRole("alert")).toHaveCount(1);
  await expect(meetings.getByRole("heading", { name: "Meetings" })).toContainText("Syncing");

  // A sync now writes the meetings (and their files) and no transcript lines.
  await page.getByRole("button", { name: "Sync now" }).click();
  const first = await landedOfNewestRun(page, connectorId);
  expect(first).toContain("tables meetings in");
  expect(first).not.toContain("transcript_utterances");

  // Resumed and turned back on: a sync of the lookback window is queued at once, and brings the transcript lines.
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
  await lines.getByRole("button", { name: "Sync again: Transcript lines" }).click();
  await expect(lines.getByRole("heading", { name: "Transcript lines" })).toContainText("Syncing");
  await expect(runHistoryRows(page)).toHaveCount(2);
  expect(await landedOfNewestRun(page, connectorId)).toContain("tables meetings and transcript_utterances in");

  // Issue 52: each stream says how far it is synced, in words; Re-sync asks first, then drops that and queues a sync.
  await expect(meetings).toContainText(/Synced up to [A-Z][a-z]{2} \d{1,2},\d{4} \d{1,2}:\d{2}:\d{2} [AP]M/);
  await expect(lines).toContainText(/Synced up to /);
  await meetings.getByRole("link", { name: "Re-sync: Meetings" }).click();
  const dialog = page.getByRole("dialog", { name: "Re-sync Meetings?" });
  await expect(dialog).toContainText("The next sync reads the whole lookback window of Meetings again (7 days)");
  await expectAccessible(page);
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(meetings).toContainText(/Synced up to /);
  await meetings.getByRole("link", { name: "Re-sync: Meetings" }).click();
  await dialog.getByRole("button", { name: "Re-sync" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(runHistoryRows(page)).toHaveCount(3);
  await expect(runHistoryRows(page).first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 30_000 });
  await page.reload();
  await expect(meetings).toContainText(/Synced up to /);
});
