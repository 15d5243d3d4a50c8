import { insertTransform, insertUser, seedConnector, userIdByEmail, withDb } from "../e2e/db";
import { uniqueEmail } from "../e2e/fixtures";
import { seedRun } from "../support/records";
import { expect, test } from "./fixtures";

/**
 * Issue 27 and 36, a run's page as the server draws it: a run older than the logs' retention says its log was
 * deleted (and offers no download), a newer one without a line says it wrote none; another user's run is a 404, its
 * page and its log. A run's page reached from the history, followed live, its log downloaded, in a browser with
 * JavaScript on and off: tests/e2e/run-details.spec.ts.
 */

const LOG = 'section[aria-labelledby="log"]';

test("a run older than the logs' retention says its log was deleted; a newer one without a line says it wrote none (issue 36)", async ({ signedIn, user }) => {
  const { connectorId, old, recent } = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const { connectorId } = await seedConnector(client, ownerId, "Kept for long");
    // 45 days ago: past RUN_LOG_DAYS (30 by default), whose prune left the run and took its lines.
    const old = await seedRun(client, "sync_runs", connectorId, ownerId, "succeeded", 45 * 24 * 60);
    const recent = await seedRun(client, "sync_runs", connectorId, ownerId, "succeeded", 5);
    return { connectorId, old, recent };
  });
  const oldPage = await signedIn.open(`/connectors/details/${connectorId}/runs/${old}`);
  expect(oldPage.status).toBe(200);
  expect(oldPage.text(LOG)).toContain("This run's log was deleted: logs are kept for 30 days.");
  expect(oldPage.links("Download log")).toEqual([]);
  const recentPage = await signedIn.open(`/connectors/details/${connectorId}/runs/${recent}`);
  expect(recentPage.text(LOG)).toContain("This run wrote no log.");
});

test("another user's run is a 404: its page and its log", async ({ signedIn, user }) => {
  const seeded = await withDb(async (client) => {
    const otherId = await insertUser(client, "Other Owner", uniqueEmail("other"));
    const theirs = await seedConnector(client, otherId, "Theirs");
    const theirRun = await seedRun(client, "sync_runs", theirs.connectorId, otherId, "succeeded", 5);
    const theirTransform = await insertTransform(client, otherId, { name: "Their topics", type: "topic_modeling", connectorId: theirs.connectorId });
    const theirTransformRun = await seedRun(client, "transform_runs", theirTransform, otherId, "succeeded", 5);
    const mine = await seedConnector(client, await userIdByEmail(client, user.email), "Mine");
    return { theirs: theirs.connectorId, theirRun, theirTransform, theirTransformRun, mine: mine.connectorId };
  });
  for (const path of [
    `/connectors/details/${seeded.theirs}/runs/${seeded.theirRun}`,
    `/connectors/details/${seeded.mine}/runs/${seeded.theirRun}`,
    `/transforms/details/${seeded.theirTransform}/runs/${seeded.theirTransformRun}`,
  ]) {
    const page = await signedIn.open(path);
    expect(page.status, path).toBe(404);
    expect(page.alertText(), path).toContain("Run not found");
    expect(page.links("Download log"), path).toEqual([]);
    const log = await signedIn.request.get(`${path}/log`);
    expect(log.status()).toBe(404);
    expect(await log.text()).toBe("Run not found\n");
  }
});
