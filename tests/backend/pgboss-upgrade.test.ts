import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { recoverLostSyncRuns } from "../../backend/sync/index.js";
import { createUserSession, startTestBackend, waitFor, waitForRun, type TestBackend } from "../support/backend.js";
import { startTestQueue } from "../support/queue.js";
import { readWarehouse, seedDatagenConnector } from "../support/seed.js";

/**
 * A database a pg-boss 10 install left (its schema at version 24, with a job for a queued run) is started by this
 * version: the job queue's start drops the old schema (backend/jobs/boss.ts), pg-boss 12 installs its own, and the run still queued in the runs
 * table gets a new job from the runs engine's recovery (the scheduler's first pass, at start),
 * then runs to its end. Nothing the user had is lost.
 */
let t: TestBackend;
let cookie: string;
let upgraded: RunningBackend | undefined;

beforeAll(async () => {
  t = await startTestBackend();
  cookie = (await createUserSession(t, "upgrade@example.com", "Up Grade")).cookie;
}, 60_000);

afterAll(async () => {
  await upgraded?.stop();
  await t?.stop();
});

describe("a pg-boss 10 database", () => {
  it("is taken over by pg-boss 12 at start, and its queued run still runs", { timeout: 120_000 }, async () => {
    const { connectorId, folder } = await seedDatagenConnector(t, cookie, { name: "Before the upgrade", meetingsPerDay: 3 });
    const ownerId = (await t.db.query<{ owner_id: string }>("SELECT owner_id FROM connectors WHERE id = $1", [connectorId])).rows[0]!.owner_id;
    await t.backend.stop();

    // What pg-boss 10 leaves: its schema at version 24, and the job of a run that was queued when the old version stopped.
    const oldJobId = "6f1f8a0e-5b7e-4c52-9a53-000000000024";
    await t.db.query("DROP SCHEMA pgboss CASCADE");
    await t.db.query("CREATE SCHEMA pgboss");
    await t.db.query("CREATE TABLE pgboss.version (version int PRIMARY KEY, maintained_on timestamptz, cron_on timestamptz, monitored_on timestamptz)");
    await t.db.query("INSERT INTO pgboss.version (version) VALUES (24)");
    await t.db.query("CREATE TABLE pgboss.job (id uuid PRIMARY KEY, name text NOT NULL, data jsonb, state text NOT NULL, singleton_key text)");
    const run = await t.db.query<{ id: string }>(
      "INSERT INTO sync_runs (connector_id, owner_id, status, trigger, job_id) VALUES ($1, $2, 'queued', 'manual', $3) RETURNING id",
      [connectorId, ownerId, oldJobId],
    );
    const runId = run.rows[0]!.id;
    await t.db.query("INSERT INTO pgboss.job (id, name, data, state, singleton_key) VALUES ($1, 'sync-connector', $2, 'created', $3)", [oldJobId, { runId }, connectorId]);

    upgraded = await startBackend({ role: "all", log: createLogger("silent"), env: t.env });
    const version = await t.db.query<{ version: number }>("SELECT version FROM pgboss.version");
    expect(version.rows[0]!.version).toBeGreaterThanOrEqual(25);

    // The scheduler's first pass, at start, finds the run without a job and sends it a new one; a later pass finds
    // nothing left to recover.
    await waitFor("the run getting a new job", async () => {
      const { rows } = await t.db.query<{ job_id: string | null }>("SELECT job_id FROM sync_runs WHERE id = $1", [runId]);
      return rows[0]!.job_id !== null && rows[0]!.job_id !== oldJobId;
    });
    const { boss, queue } = await startTestQueue(t.databaseUrl);
    try {
      expect(await recoverLostSyncRuns(t.handle.db, queue)).toBe(0);
    } finally {
      await boss.stop({ graceful: false });
    }
    const done = await waitForRun<{ id: string; status: string; error: string | null; records: number }>({ url: `http://127.0.0.1:${upgraded.port}` }, cookie, `/connectors/${connectorId}`, runId);
    expect(done).toMatchObject({ status: "succeeded", error: null });
    expect(done.records).toBeGreaterThan(0);
    const landed = await readWarehouse(t, folder, "SELECT count(*)::int AS n FROM meetings");
    expect(landed[0]!.n).toBeGreaterThan(0);
  });
});
