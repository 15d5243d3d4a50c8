import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type pg from "pg";
import { insertTransform, withDb } from "./db";
import { expect, login, runHistoryRows, test } from "./fixtures";
import { filesUnder } from "../support/files";
import { seedPausedConnector as seedConnector } from "../support/records";

/**
 * Issue 27, JS on and off: Cancel sync of a running large datagen sync, then the next run; a Backfill of 30 days
 * (its form's own checks with JS); Cancel run of a transform. Rows are counted in the local destination's DuckDB
 * warehouse, files on disk. The server's rules (Backfill's answers to a browser without JavaScript; another user can
 * neither cancel nor backfill someone else's connector) are checked over HTTP in tests/http/cancel-backfill.spec.ts.
 */

const BAD_REQUEST = /Failed to load resource: the server responded with a status of (400|404|409)/;
/** The benchmark's 100× volume (bench/sync.ts: 140 meetings a day at 1×). */
const VOLUME_100X = 14_000;
const DAY_MS = 86_400_000;

/** Rows of the warehouse, read as another process would (read-only, once the backend's writers let go of the file). */
async function warehouse(folder: string, sql: string): Promise<Record<string, number>[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const instance = await DuckDBInstance.create(path.join(folder, "warehouse.duckdb"), { access_mode: "READ_ONLY" });
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll(sql);
        return reader.getRowObjectsJS().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])));
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    } catch (error) {
      // The backend closes its instance once its last writer is done: a moment after the run is recorded.
      if (attempt >= 20 || !/lock/i.test((error as Error).message)) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function runOf(client: pg.Client, id: string) {
  const { rows } = await client.query<{ status: string; records: number; started_at: Date; finished_at: Date; cancel_requested_at: Date | null }>(
    "SELECT status, records, started_at, finished_at, cancel_requested_at FROM sync_runs WHERE id = $1",
    [id],
  );
  return rows[0]!;
}


test("Cancel sync stops a running 100× sync within 5 s; what it wrote is whole, and the next run lands every record once", async ({ page, user }) => {
  test.slow();
  await login(page, user);
  const { connectorId, folder } = await seedConnector(user.email, VOLUME_100X);
  await page.goto(`/connectors/details/${connectorId}`);
  await expect(page.getByRole("button", { name: "Cancel sync" })).toHaveCount(0);
  await page.getByRole("button", { name: "Sync now" }).click();
  const row = runHistoryRows(page).first();
  // With JS the page polls; without, it refreshes itself while a run is in progress.
  await expect(row).toHaveAttribute("data-run-status", "running", { timeout: 30_000 });
  const runId = await withDb(async (client) => (await client.query<{ id: string }>("SELECT id FROM sync_runs WHERE connector_id = $1", [connectorId])).rows[0]!.id);

  const clicked = Date.now();
  await page.getByRole("button", { name: "Cancel sync" }).click();
  await expect(row).toHaveAttribute("data-run-status", "cancelled", { timeout: 5_000 });
  expect(Date.now() - clicked).toBeLessThan(5_000);
  await expect(row.locator("td").first()).toHaveText("Cancelled");
  await expect(page.getByRole("button", { name: "Cancel sync" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sync now" })).toBeEnabled();
  const cancelled = await withDb((client) => runOf(client, runId));
  expect(cancelled.status).toBe("cancelled");
  expect(cancelled.finished_at.getTime() - cancelled.cancel_requested_at!.getTime()).toBeLessThan(5_000);
  // It stopped part-way, and what it wrote is whole: each counted meeting once in the warehouse, with its two files.
  expect(cancelled.records).toBeGreaterThan(0);
  const [partial] = await warehouse(folder, "SELECT count(*) AS n, count(DISTINCT meeting_id) AS d FROM meetings");
  expect(partial).toEqual({ n: cancelled.records, d: cancelled.records });
  expect(filesUnder(path.join(folder, "files"))).toHaveLength(cancelled.records * 2);

  // The next run proceeds normally and lands every record of its window exactly once.
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(runHistoryRows(page)).toHaveCount(2);
  await expect(row).toHaveAttribute("data-run-status", "succeeded", { timeout: 150_000 });
  const next = await withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>("SELECT id FROM sync_runs WHERE connector_id = $1 AND status = 'succeeded'", [connectorId]);
    return runOf(client, rows[0]!.id);
  });
  expect(next.records).toBeGreaterThan(cancelled.records);
  const from = new Date(next.started_at.getTime() - DAY_MS).toISOString();
  const [all] = await warehouse(folder, `SELECT count(*) AS n, count(DISTINCT meeting_id) AS d, count(*) FILTER (WHERE started_at >= '${from}' AND started_at < '${next.started_at.toISOString()}') AS w FROM meetings`);
  expect(all!.n).toBe(all!.d);
  expect(all!.w).toBe(next.records);
  const [lines] = await warehouse(folder, "SELECT count(*) AS n, count(DISTINCT utterance_id) AS d FROM transcript_utterances");
  expect(lines!.n).toBe(lines!.d);
  expect(filesUnder(path.join(folder, "files"))).toHaveLength(all!.n * 2);
});

test("Backfill of 30 days: the form's rules at their fields, the run's days in the history, every record once even twice", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  test.slow();
  allowConsoleErrors(BAD_REQUEST);
  await login(page, user);
  const { connectorId, folder } = await seedConnector(user.email, 40);
  await page.goto(`/connectors/details/${connectorId}`);
  const form = page.getByRole("region", { name: "Backfill" });
  const from = form.getByLabel("From", { exact: true });
  const to = form.getByLabel("To", { exact: true });
  const submit = form.getByRole("button", { name: "Backfill" });

  // The rules, each at its field: with JS the form checks before posting. (Without, the server answers the same:
  // tests/http/cancel-backfill.spec.ts.)
  if (jsEnabled) {
    await to.fill("");
    await submit.click();
    await expect(from).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText("Please choose the first day to backfill.")).toBeVisible();
    await expect(form.getByText("Please choose the last day to backfill.")).toBeVisible();
    await from.fill("2026-11-02");
    await to.fill("2026-11-01");
    await submit.click();
    await expect(form.getByText("To must be on or after From.")).toBeVisible();
    await expect(to).toHaveAttribute("aria-invalid", "true");
    await expect(from).not.toHaveAttribute("aria-invalid", "true");
    expect(await withDb(async (client) => (await client.query("SELECT 1 FROM sync_runs WHERE connector_id = $1", [connectorId])).rowCount)).toBe(0);
  }

  // 30 whole days (UTC, the browser's time zone here), ending yesterday.
  const midnight = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const first = new Date(midnight - 30 * DAY_MS);
  const last = new Date(midnight - DAY_MS);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  await from.fill(day(first));
  await to.fill(day(last));
  await submit.click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}$`));
  const row = runHistoryRows(page).first();
  await expect(row).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });
  const label = (d: Date) => d.toLocaleDateString("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: "numeric" });
  await expect(row.locator("td").nth(4)).toContainText("Backfill");
  await expect(row.getByText(`${label(first)} – ${label(last)}`)).toBeVisible();
  const records = async () =>
    withDb(async (client) => (await client.query<{ records: number; range_from: Date; range_to: Date }>("SELECT records, range_from, range_to FROM sync_runs WHERE connector_id = $1 ORDER BY created_at", [connectorId])).rows);
  const [run] = await records();
  expect(run).toMatchObject({ range_from: first, range_to: new Date(midnight) });
  const count = `SELECT count(*) AS n, count(DISTINCT meeting_id) AS d, count(*) FILTER (WHERE started_at >= '${first.toISOString()}' AND started_at < '${new Date(midnight).toISOString()}') AS inside FROM meetings`;
  const [landed] = await warehouse(folder, count);
  expect(landed).toEqual({ n: run!.records, d: run!.records, inside: run!.records });
  expect(run!.records).toBeGreaterThan(30 * 20);

  // The same 30 days again: every record still exactly once.
  await from.fill(day(first));
  await to.fill(day(last));
  await submit.click();
  await expect(runHistoryRows(page)).toHaveCount(2);
  await expect(row).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });
  const runs = await records();
  expect(runs[1]!.records).toBe(run!.records);
  expect(await warehouse(folder, count)).toEqual([landed]);
  expect(filesUnder(path.join(folder, "files"))).toHaveLength(run!.records * 2);
});

test("Cancel run ends a transform's queued run, and the transform reads Cancelled", async ({ page, user }) => {
  await login(page, user);
  const { ownerId, connectorId } = await seedConnector(user.email, 6);
  const transformId = await withDb(async (client) => {
    const id = await insertTransform(client, ownerId, { name: "Call topics", type: "topic_modeling", connectorId });
    // A queued run without a job: nothing will take it up, so it stays queued until cancelled.
    await client.query("INSERT INTO transform_runs (transform_id, owner_id, status, trigger) VALUES ($1, $2, 'queued', 'manual')", [id, ownerId]);
    return id;
  });
  await page.goto(`/transforms/details/${transformId}`);
  await expect(page.getByRole("button", { name: "Running..." })).toBeDisabled();
  await page.getByRole("button", { name: "Cancel run" }).click();
  await expect(runHistoryRows(page).first()).toHaveAttribute("data-run-status", "cancelled");
  await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Run now" })).toBeEnabled();
  await expect(page.locator("h1").locator("xpath=..").getByText("Cancelled")).toBeVisible();
});
