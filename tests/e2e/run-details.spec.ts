import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { insertTransform, seedConnector, userIdByEmail, withDb } from "./db";
import { detailValue, expect, expectAccessible, login, runHistoryRows, test } from "./fixtures";
import { seedRun } from "../support/records";

/**
 * Issue 27, JS on and off: a run's details page reached from the run history — its attempts, where each
 * destination's data landed, its log and the log's download; a run in progress followed live (with JS through
 * server-sent events, without reloading; without JS by refreshing itself); a long history's pages; the failure
 * banner of a connector that keeps failing. The server's rules (a log past its retention, or none, said so; another
 * user's run a 404, its page and its log) are checked over HTTP in tests/http/run-details.spec.ts.
 */

const runRowOf = (page: Page) => runHistoryRows(page).first();

test("a sync's run page from its history: attempts, where the data landed, the log and its download", async ({ page, user }) => {
  test.slow();
  await login(page, user, { from: "/connectors" });
  const { ownerId, connectorId, destinationId, sourceId } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    return { ownerId, ...(await seedConnector(client, ownerId, "Demo to disk")) };
  });
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  const runRow = runRowOf(page);
  await expect(runRow).toHaveAttribute("data-run-status", "succeeded", { timeout: 30_000 });
  const records = (await runRow.locator("td").nth(3).textContent())!;

  await runRow.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}/runs/[0-9a-f-]{36}$`));
  const runId = page.url().split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1, name: "Sync run" })).toBeVisible();
  await expect(detailValue(page, "Status")).toHaveText("Succeeded");
  await expect(detailValue(page, "Trigger")).toHaveText("Manual");
  await expect(detailValue(page, "Records")).toHaveText(records);
  await expect(detailValue(page, "Bytes")).toHaveText(/^[\d.]+ (B|kB|MB)$/);
  await expect(detailValue(page, "Duration")).not.toHaveText("—");

  const attempts = page.getByRole("region", { name: "Attempts" }).locator("tbody tr");
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first()).toHaveAttribute("data-attempt-outcome", "succeeded");
  await expect(attempts.first().locator("td").first()).toHaveText("1");

  const landed = page.getByRole("region", { name: "Destinations" }).locator("tbody tr");
  await expect(landed).toHaveCount(1);
  await expect(landed.first()).toContainText("Demo to disk folder");
  await expect(landed.first()).toContainText("Local folder");
  await expect(landed.first().locator("td").nth(2)).toHaveText(records);
  await expect(landed.first()).toContainText(`destinations/${ownerId}/${destinationId}/files/zoom/${sourceId}/`);
  await expect(landed.first()).toContainText(`destinations/${ownerId}/${destinationId}/warehouse.duckdb`);

  const log = page.getByTestId("run-log");
  await expect(log.locator("li").first()).toContainText("Queued by hand (Sync now or Run now).");
  await expect(log).toContainText("Attempt 1 of 4 started.");
  await expect(log).toContainText('Writing to 1 destination: "Demo to disk folder" (Local folder).');
  await expect(log.locator("li").last()).toContainText(`Run succeeded in`);
  await expect(log.locator("li").last()).toContainText(`${records} records.`);
  await expect(log.locator("li").first().locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2},\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)$/);
  await expect(log.locator("li[data-level=info]").first()).toContainText("info");
  await expectAccessible(page);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download log" }).click()]);
  expect(download.suggestedFilename()).toBe(`tributary-sync-run-${runId}.log`);
  const text = readFileSync((await download.path())!, "utf8");
  expect(text.split("\n")[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z INFO {2}Queued by hand \(Sync now or Run now\)\.$/);
  expect(text).toContain(`${records} records.`);

  await page.getByRole("link", { name: "Demo to disk" }).click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}$`));
});

test("a run in progress shows its records growing: with JS live, without reloading; without JS by refreshing", async ({ page, user, jsEnabled }) => {
  test.setTimeout(300_000);
  await login(page, user, { from: "/connectors" });
  // Enough meetings (14,000 over the 7-day lookback) that the sync outlasts a few of the no-JS page's refreshes (1 s in tests).
  const { connectorId } = await withDb(async (client) => seedConnector(client, await userIdByEmail(client, user.email), "Big sync", 2_000));
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  const runRow = runRowOf(page);
  await expect(runRow).toHaveAttribute("data-run-status", /queued|running/);
  await runRow.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}/runs/[0-9a-f-]{36}$`));
  if (jsEnabled) await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  // Read the status and records as the page shows them until the run ends (without JS the page reloads under us).
  const seenWhileRunning = new Set<number>();
  const started = Date.now();
  let status = "";
  // A quiet machine syncs this in seconds; a busy one (tests side by side on two cores) in a minute or two.
  while (Date.now() - started < 200_000) {
    const shown = await page
      .evaluate(() => ({
        status: document.querySelector("[data-run-status]")?.getAttribute("data-run-status") ?? "",
        records: document.querySelector("[data-testid=run-records]")?.textContent ?? "",
      }))
      .catch(() => null);
    if (shown) {
      status = shown.status;
      const n = Number(shown.records.replace(/,/g, ""));
      if (status === "running" && n > 0) seenWhileRunning.add(n);
      if (status === "succeeded" || status === "failed") break;
    }
    await page.waitForTimeout(200);
  }
  expect(status).toBe("succeeded");
  const values = [...seenWhileRunning];
  const final = Number((await detailValue(page, "Records").textContent())!.replace(/,/g, ""));
  // Each value shown while running is more than the one before; the first is less than the final count, and none is
  // more (the last batch's count may be stored while the run is still finishing: then it equals the final count).
  expect(values.length, "records shown while the run was running").toBeGreaterThanOrEqual(1);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  expect(values[0]!).toBeLessThan(final);
  expect(values.at(-1)!).toBeLessThanOrEqual(final);
  if (jsEnabled) {
    // Followed through the event stream (about one update a second): several counts, in the very same document.
    expect(values.length, `records shown while running: ${values.join(", ")}`).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  }
  await expect(page.getByRole("region", { name: "Attempts" }).locator("tbody tr").first()).toHaveAttribute("data-attempt-outcome", "succeeded");
  await expect(page.getByTestId("run-log").locator("li").last()).toContainText("Run succeeded in");
});

test("a long run history pages 50 runs at a time: older runs, then back to the newest (issue 35, defect 6)", async ({ page, user }) => {
  await login(page, user, { from: "/connectors" });
  const connectorId = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const { connectorId } = await seedConnector(client, ownerId, "Busy");
    for (let minutesAgo = 55; minutesAgo >= 1; minutesAgo--) await seedRun(client, "sync_runs", connectorId, ownerId, "succeeded", minutesAgo);
    return connectorId;
  });
  await page.goto(`/connectors/details/${connectorId}`);
  const rows = runHistoryRows(page);
  await expect(rows).toHaveCount(50);
  const pages = page.getByRole("navigation", { name: "Run history pages" });
  await expect(pages.getByRole("link", { name: "Newest runs" })).toHaveCount(0);
  await pages.getByRole("link", { name: "Older runs" }).click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}\\?before=[0-9a-f-]{36}#runs$`));
  await expect(rows).toHaveCount(5);
  await expect(pages.getByRole("link", { name: "Older runs" })).toHaveCount(0);
  await expectAccessible(page);
  await pages.getByRole("link", { name: "Newest runs" }).click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}#runs$`));
  await expect(rows).toHaveCount(50);
});

test("a failing connector's details page says since when it fails, and links to that run", async ({ page, user }) => {
  await login(page, user, { from: "/connectors" });
  const seeded = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const { connectorId } = await seedConnector(client, ownerId, "Flaky");
    await seedRun(client, "sync_runs", connectorId, ownerId, "succeeded", 180);
    const firstFailed = await seedRun(client, "sync_runs", connectorId, ownerId, "failed", 120, 'Writing to destination "Flaky folder" failed: ENOSPC: the disk is full');
    await seedRun(client, "sync_runs", connectorId, ownerId, "failed", 60, 'Writing to destination "Flaky folder" failed: EROFS: read-only');
    const transformId = await insertTransform(client, ownerId, { name: "Flaky topics", type: "topic_modeling", connectorId });
    const transformRun = await seedRun(client, "transform_runs", transformId, ownerId, "failed", 30, "The transform's inputs are no longer valid.");
    return { connectorId, firstFailed, transformId, transformRun };
  });
  await page.goto(`/connectors/details/${seeded.connectorId}`);
  const banner = page.getByRole("region", { name: "This connector is failing" });
  await expect(banner).toContainText("2 runs in a row have failed");
  await expect(banner).toContainText("Last error: Writing to destination \"Flaky folder\" failed: EROFS: read-only");
  // What to do next, and where to hear of the next failure (issue 35, defect 6).
  await expect(banner).toContainText("Open the latest failed run to read its log. Once what the error names is fixed, use Sync now to try again.");
  await expect(banner.getByRole("link", { name: "alerts", exact: true })).toHaveAttribute("href", "/settings/alerts");
  // The run history comes first, above the connector's details.
  const history = await page.getByRole("heading", { name: "Run history" }).boundingBox();
  const details = await page.getByRole("heading", { name: "Details", exact: true }).boundingBox();
  expect(history!.y).toBeLessThan(details!.y);
  await expectAccessible(page);
  await banner.getByRole("link", { name: /the first on/ }).click();
  await expect(page).toHaveURL(`/connectors/details/${seeded.connectorId}/runs/${seeded.firstFailed}`);
  await expect(page.getByTestId("run-error")).toHaveText('Writing to destination "Flaky folder" failed: ENOSPC: the disk is full');
  await expect(detailValue(page, "Trigger")).toHaveText("Schedule");

  await page.goto(`/transforms/details/${seeded.transformId}`);
  const transformBanner = page.getByRole("region", { name: "This transform is failing" });
  await expect(transformBanner).toContainText("Its latest run failed");
  await expect(transformBanner).toContainText("Last error: The transform's inputs are no longer valid.");
  await expect(transformBanner).toContainText("Open that run to read its log. Once what the error names is fixed, use Run now to try again.");
  await transformBanner.getByRole("link").click();
  await expect(page).toHaveURL(`/transforms/details/${seeded.transformId}/runs/${seeded.transformRun}`);
  await expect(page.getByRole("heading", { level: 1, name: "Transform run" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Result tables" })).toBeVisible();
  await expect(page.getByText("No result table was written.")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Flaky topics" }).click();
  await expect(page).toHaveURL(`/transforms/details/${seeded.transformId}`);
  await runHistoryRows(page).first().getByRole("link").click();
  await expect(page).toHaveURL(`/transforms/details/${seeded.transformId}/runs/${seeded.transformRun}`);
});
