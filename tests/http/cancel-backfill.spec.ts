import { withDb } from "../e2e/db";
import { APP_URL } from "../e2e/env";
import { fillForm } from "../support/forms";
import { seedPausedConnector } from "../support/records";
import { expect, test } from "./fixtures";

/**
 * Issue 27, the server's side of Cancel sync and Backfill: the Backfill form's rules as the server answers a browser
 * without JavaScript (each at its field, nothing queued), and another user can neither cancel nor backfill someone
 * else's connector. Cancel sync, Backfill and Cancel run as flows, with JavaScript on and off (and the form's own
 * checks with JavaScript): tests/e2e/cancel-backfill.spec.ts.
 */

const SECTION = 'section[aria-labelledby="backfill"]';
const BACKFILL = `${SECTION} form`;

test("Backfill's rules without JavaScript: the server answers each at its field, and queues nothing", async ({ signedIn, user }) => {
  const { connectorId } = await seedPausedConnector(user.email, 40);
  const path = `/connectors/details/${connectorId}`;
  const { action, fields } = fillForm(await signedIn.open(path), BACKFILL, { to: "" }, "Backfill");
  let page = await signedIn.submit(action, fields);
  expect(page.invalid("backfill-from")).toBe(true);
  expect(page.text(SECTION)).toContain("Please choose the first day to backfill.");
  expect(page.text(SECTION)).toContain("Please choose the last day to backfill.");

  const wrongWay = fillForm(await signedIn.open(path), BACKFILL, { from: "2026-11-02", to: "2026-11-01" }, "Backfill");
  page = await signedIn.submit(wrongWay.action, wrongWay.fields);
  expect(page.text(SECTION)).toContain("To must be on or after From.");
  expect(page.invalid("backfill-to")).toBe(true);
  expect(page.invalid("backfill-from")).toBe(false);
  expect(await withDb(async (client) => (await client.query("SELECT 1 FROM sync_runs WHERE connector_id = $1", [connectorId])).rowCount)).toBe(0);
});

test("another user can neither cancel nor backfill someone else's connector", async ({ signedIn, user, another }) => {
  const { ownerId, connectorId } = await seedPausedConnector(user.email, 6);
  await withDb((client) => client.query("INSERT INTO sync_runs (connector_id, owner_id, status, trigger) VALUES ($1, $2, 'queued', 'manual')", [connectorId, ownerId]));

  const intruder = await another("Mallory Intruder");
  const page = await intruder.open(`/connectors/details/${connectorId}`);
  expect(page.status).toBe(404);
  expect(page.text()).toContain("Connector not found");
  // Posting the page's own forms for a connector that is not theirs: 404, and nothing happens.
  const post = (form: Record<string, string>) => intruder.request.post(`${APP_URL}/connectors/details/${connectorId}`, { form, headers: { Origin: APP_URL }, maxRedirects: 0 });
  expect((await post({ intent: "cancel" })).status()).toBe(404);
  expect((await post({ intent: "backfill", from: "2026-10-01", to: "2026-10-02" })).status()).toBe(404);

  const runs = await withDb(async (client) => (await client.query<{ status: string; trigger: string }>("SELECT status, trigger FROM sync_runs WHERE connector_id = $1", [connectorId])).rows);
  expect(runs).toEqual([{ status: "queued", trigger: "manual" }]);
  const mine = await signedIn.open(`/connectors/details/${connectorId}`);
  expect(mine.hasButton("Cancel sync")).toBe(true);
});
