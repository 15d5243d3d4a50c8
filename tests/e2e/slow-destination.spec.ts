import type { Page } from "@playwright/test";
import { startSlowRelay, type SlowRelay } from "../support/slow-relay";
import { createUserDatabase, insertConnector, seedLocalDestination, seedSource, userIdByEmail, withDb, type UserDatabase } from "./db";
import { E2E_PORTS } from "./env";
import { expect, login, runHistoryRows, test } from "./fixtures";

/**
 * Issue 39's "Done when", JS on and off: a PostgreSQL destination reached through a slow link on purpose (a relay on
 * loopback that delays every packet, tests/support/slow-relay.ts), so that a sync of a busy data generator lasts.
 * Deleting its connector during a running backfill stops it: nothing lands after the delete is confirmed, and another
 * connector's Sync now starts at once. Cancel lets at most the batch in flight land; the run's page says what landed,
 * and the list shows the cancelled run with its count.
 */

/** Each packet's delay on the link, both ways (as the backend's test of the same link). */
const DELAY_MS = 15;
/** A sync writes its records in batches of this many. */
const BATCH = 200;
/** The data generator makes meetings_per_day ± 25 % meetings each day. */
const MEETINGS_PER_DAY = 1000;
const FEWEST_PER_DAY = MEETINGS_PER_DAY * 0.75;
const DAY_MS = 86_400_000;
const TABLE = "slow.meetings";

let relay: SlowRelay | null = null;
let warehouse: UserDatabase | null = null;

test.afterEach(async () => {
  await relay?.close();
  relay = null;
  await warehouse?.drop();
  warehouse = null;
});


/**
 * A PostgreSQL destination created on its page, reached through the slow relay, and a paused connector from a data
 * generator of 1,000 meetings a day to it (seeded, 7 days of lookback).
 */
async function slowConnector(page: Page, email: string, name: string): Promise<{ ownerId: string; connectorId: string; target: UserDatabase }> {
  const target = (warehouse = await createUserDatabase("slowdest"));
  relay = await startSlowRelay({ host: "127.0.0.1", port: E2E_PORTS.postgres }, DELAY_MS);
  await page.goto("/destinations/add?type=postgres");
  await page.getByLabel("Name", { exact: true }).fill("Slow warehouse");
  await page.getByLabel("Host", { exact: true }).fill("127.0.0.1");
  await page.getByLabel("Port", { exact: true }).fill(String(relay.port));
  await page.getByLabel("Database", { exact: true }).fill(target.database);
  await page.getByLabel("Schema", { exact: true }).fill("slow");
  await page.getByLabel("Username", { exact: true }).fill(target.role);
  await page.getByLabel("Password", { exact: true }).fill(target.password);
  await page.getByRole("button", { name: "Test Connection" }).click();
  await expect(page.getByText("Connection successful")).toBeVisible();
  await page.getByRole("button", { name: "Create Destination" }).click();
  await expect(page).toHaveURL(/\/destinations$/);
  return withDb(async (client) => {
    const ownerId = await userIdByEmail(client, email);
    const { rows } = await client.query<{ id: string }>("SELECT id FROM destinations WHERE owner_id = $1 AND name = 'Slow warehouse'", [ownerId]);
    const sourceId = await seedSource(client, ownerId, "Busy calls", { company: "Acme Rockets", format: "zoom", meetings_per_day: MEETINGS_PER_DAY });
    const connectorId = await insertConnector(client, ownerId, { name, sourceId, destinationIds: [rows[0]!.id] });
    return { ownerId, connectorId, target };
  });
}

test("delete during a running backfill: nothing lands after the delete, and another connector's Sync now starts at once", async ({ page, user }) => {
  await login(page, user);
  const { ownerId, connectorId, target } = await slowConnector(page, user.email, "Backfill to the warehouse");
  const otherId = await withDb(async (client) => {
    const sourceId = await seedSource(client, ownerId, "Quiet calls");
    const destinationId = await seedLocalDestination(client, ownerId, "Laptop folder");
    return insertConnector(client, ownerId, { name: "Calls to disk", sourceId, destinationIds: [destinationId] });
  });

  // A Backfill of the last 3 whole days (UTC, the browser's time zone here): at least 2,250 meetings.
  await page.goto(`/connectors/details/${connectorId}`);
  const form = page.getByRole("region", { name: "Backfill" });
  const midnight = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  await form.getByLabel("From", { exact: true }).fill(day(midnight - 3 * DAY_MS));
  await form.getByLabel("To", { exact: true }).fill(day(midnight - DAY_MS));
  await form.getByRole("button", { name: "Backfill" }).click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}$`));
  const row = runHistoryRows(page).first();
  await expect(row).toHaveAttribute("data-run-status", "running", { timeout: 15_000 });
  await expect(row.locator("td").nth(4)).toContainText("Backfill");
  await expect.poll(() => target.count(TABLE), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(row).toHaveAttribute("data-run-status", "running");

  // Delete, through its confirmation; once the list is back, nothing more lands.
  await page.getByRole("link", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete connector?" });
  await expect(dialog).toContainText("Backfill to the warehouse");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/connectors$/);
  await expect(page.getByRole("link", { name: "Backfill to the warehouse" })).toHaveCount(0);
  const atDelete = await target.count(TABLE);
  await page.waitForTimeout(10_000);
  const later = await target.count(TABLE);
  test.info().annotations.push({ type: "rows", description: `at the delete ${atDelete}, 10 s later ${later}` });
  expect(later).toBe(atDelete);
  // It was stopped part-way: the backfill's 3 days hold more.
  expect(atDelete).toBeLessThan(3 * FEWEST_PER_DAY);

  // The sync slot is free: another connector's Sync now starts at once, not Queued behind the deleted run.
  await page.goto(`/connectors/details/${otherId}`);
  const clicked = Date.now();
  await page.getByRole("button", { name: "Sync now" }).click();
  const other = runHistoryRows(page).first();
  await expect(other).toHaveAttribute("data-run-status", /^(running|succeeded)$/, { timeout: 15_000 });
  test.info().annotations.push({ type: "other sync started", description: `${Date.now() - clicked} ms after the click` });
  await expect(other).toHaveAttribute("data-run-status", "succeeded", { timeout: 30_000 });
  await expect(other.locator("td").first()).toHaveText("Succeeded");
});

test("cancel: at most the batch in flight lands after the click, the run's page says what landed, and the list shows the cancelled run", async ({ page, user }) => {
  await login(page, user);
  const { connectorId, target } = await slowConnector(page, user.email, "Week to the warehouse");
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  const row = runHistoryRows(page).first();
  await expect(row).toHaveAttribute("data-run-status", "running", { timeout: 15_000 });
  await expect.poll(() => target.count(TABLE), { timeout: 30_000 }).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Cancel sync" }).click();
  const atClick = await target.count(TABLE);
  const clicked = Date.now();
  await expect(row).toHaveAttribute("data-run-status", "cancelled", { timeout: 30_000 });
  const stoppedMs = Date.now() - clicked;
  await expect(row.locator("td").first()).toHaveText("Cancelled");
  const landed = await target.count(TABLE);
  test.info().annotations.push({ type: "rows", description: `at the click ${atClick}, in the end ${landed}; Cancelled shown ${stoppedMs} ms after the click` });
  expect(landed - atClick).toBeLessThanOrEqual(BATCH);
  // It stopped part-way through the week.
  expect(landed).toBeLessThan(6 * FEWEST_PER_DAY);
  const count = landed.toLocaleString("en-US");
  await expect(row.locator("td").nth(3)).toHaveText(count);

  // The run's page: its total, the destination's records and the log's last line all say what landed.
  await row.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}/runs/[0-9a-f-]{36}$`));
  await expect(page.getByTestId("run-summary").locator("[data-run-status]")).toHaveText("Cancelled");
  await expect(page.getByTestId("run-records")).toHaveText(count);
  const destinations = page.getByRole("region", { name: "Destinations" }).locator("tbody tr");
  await expect(destinations).toHaveCount(1);
  await expect(destinations.locator("td").first()).toHaveText("Slow warehouse");
  await expect(destinations.locator("td").nth(2)).toHaveText(count);
  await expect(page.getByTestId("run-log").locator("li").last()).toContainText(`Cancelled after ${count} records`);

  // The list shows the cancelled run with its count.
  await page.goto("/connectors");
  const listed = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Week to the warehouse" }) });
  await expect(listed).toContainText(`Cancelled after ${count} records`);
});
