import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneHistory } from "../../backend/db/history.js";
import { api, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector, seedTransform } from "../support/seed.js";

/**
 * Bounded history (issue 36 item 4): finished runs older than RUN_HISTORY_DAYS and log lines older than RUN_LOG_DAYS
 * are deleted, but never a run that is still open, nor each connector's and transform's latest run and latest failure
 * (nor their logs); the job queue keeps ended jobs JOB_HISTORY_DAYS. The prune is called with a fixed "now"; the runs
 * are stored with their ages.
 */
const NOW = new Date("2026-11-29T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

let t: TestBackend;
let cookie: string;
let ownerId: string;

beforeAll(async () => {
  t = await startTestBackend({ env: { NODE_ENV: "test", JOB_HISTORY_DAYS: "3" } });
  const session = await createUserSession(t, "history@example.com", "His Tory");
  cookie = session.cookie;
  ownerId = session.userId;
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

async function syncRun(connectorId: string, status: string, ageDays: number, logLines = 0): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    "INSERT INTO sync_runs (connector_id, owner_id, status, trigger, created_at, finished_at) VALUES ($1, $2, $3, 'schedule', $4, $4) RETURNING id",
    [connectorId, ownerId, status, daysAgo(ageDays)],
  );
  const id = rows[0]!.id;
  for (let i = 0; i < logLines; i++) {
    await t.db.query("INSERT INTO run_log_lines (sync_run_id, at, level, message) VALUES ($1, $2, 'info', $3)", [id, daysAgo(ageDays), `line ${i + 1}`]);
  }
  return id;
}

async function transformRun(transformId: string, status: string, ageDays: number): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    "INSERT INTO transform_runs (transform_id, owner_id, status, trigger, created_at, finished_at) VALUES ($1, $2, $3, 'schedule', $4, $4) RETURNING id",
    [transformId, ownerId, status, daysAgo(ageDays)],
  );
  return rows[0]!.id;
}

const remaining = async (table: "sync_runs" | "transform_runs", ids: string[]) =>
  (await t.db.query<{ id: string }>(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[])`, [ids])).rows.map((r) => r.id).sort();
const lineCount = async (runId: string) => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM run_log_lines WHERE sync_run_id = $1", [runId])).rows[0]!.n;

describe("pruning the run history", () => {
  it("deletes old finished runs and old log lines, and keeps open runs, each key's latest run and latest failure", async () => {
    const active = await seedDatagenConnector(t, cookie, { name: "Active" });
    const paused = await seedDatagenConnector(t, cookie, { name: "Paused long ago" });
    const a = {
      oldest: await syncRun(active.connectorId, "succeeded", 200, 2),
      olderFailure: await syncRun(active.connectorId, "failed", 150, 2),
      latestFailure: await syncRun(active.connectorId, "failed", 100, 3),
      oldCancelled: await syncRun(active.connectorId, "cancelled", 91),
      staleLog: await syncRun(active.connectorId, "succeeded", 45, 4),
      recent: await syncRun(active.connectorId, "succeeded", 10, 5),
      queued: await syncRun(active.connectorId, "queued", 120),
    };
    const onlyRun = await syncRun(paused.connectorId, "succeeded", 300, 2);
    const transformId = await seedTransform(t, ownerId, active.connectorId, "Topics");
    const oldTransformRun = await transformRun(transformId, "succeeded", 100);
    const newTransformRun = await transformRun(transformId, "succeeded", 1);

    // Three old sync runs and one transform run go (their lines with them); of the runs kept, one newer than 90 days has
    // 4 lines older than 30.
    expect(await pruneHistory(t.handle.db, { runDays: 90, logDays: 30 }, NOW)).toEqual({ syncRuns: 3, transformRuns: 1, logLines: 4, alertDeliveries: 0 });

    const everySync = [...Object.values(a), onlyRun];
    expect(await remaining("sync_runs", everySync)).toEqual([a.latestFailure, a.staleLog, a.recent, a.queued, onlyRun].sort());
    expect(await remaining("transform_runs", [oldTransformRun, newTransformRun])).toEqual([newTransformRun]);
    // Log lines: the kept old runs keep theirs; a newer run's lines past 30 days go; a recent run's stay.
    expect(await lineCount(a.latestFailure)).toBe(3);
    expect(await lineCount(onlyRun)).toBe(2);
    expect(await lineCount(a.staleLog)).toBe(0);
    expect(await lineCount(a.recent)).toBe(5);
    expect(await lineCount(a.oldest)).toBe(0);

    // A second pass finds nothing more.
    expect(await pruneHistory(t.handle.db, { runDays: 90, logDays: 30 }, NOW)).toEqual({ syncRuns: 0, transformRuns: 0, logLines: 0, alertDeliveries: 0 });
  });

  it("deletes the alerts sent or given up on more than RUN_HISTORY_DAYS ago, and keeps newer ones and one still being sent", async () => {
    const alert = async (status: string, ageDays: number) =>
      (
        await t.db.query<{ id: string }>(
          "INSERT INTO alert_deliveries (owner_id, event, channel, target, subject, status, created_at) VALUES ($1, 'sync.failed', 'webhook', 'http://hooks.localhost/x', 'A sync failed', $2, $3) RETURNING id",
          [ownerId, status, daysAgo(ageDays)],
        )
      ).rows[0]!.id;
    const ids = { oldDelivered: await alert("delivered", 120), oldFailed: await alert("failed", 91), oldPending: await alert("pending", 120), recent: await alert("delivered", 10) };
    expect((await pruneHistory(t.handle.db, { runDays: 90, logDays: 30 }, NOW)).alertDeliveries).toBe(2);
    const { rows } = await t.db.query<{ id: string }>("SELECT id FROM alert_deliveries WHERE id = ANY($1::uuid[])", [Object.values(ids)]);
    expect(rows.map((r) => r.id).sort()).toEqual([ids.oldPending, ids.recent].sort());
  });

  it("the history pages through what is kept, and a run whose log was deleted says so", async () => {
    const { connectorId } = await seedDatagenConnector(t, cookie, { name: "Kept" });
    const stale = await syncRun(connectorId, "succeeded", 45, 2);
    const fresh = await syncRun(connectorId, "succeeded", 1, 2);
    await pruneHistory(t.handle.db, { runDays: 90, logDays: 30 }, new Date());

    const history = await api(t, cookie, "GET", `/connectors/${connectorId}/runs`);
    expect(history.body.runs.map((r: { id: string }) => r.id)).toEqual([fresh, stale]);
    const staleRun = await api(t, cookie, "GET", `/connectors/${connectorId}/runs/${stale}`);
    expect(staleRun.status).toBe(200);
    expect(staleRun.body.run).toMatchObject({ log: [], log_kept_days: 30 });
    const freshRun = await api(t, cookie, "GET", `/connectors/${connectorId}/runs/${fresh}`);
    expect(freshRun.body.run.log).toHaveLength(2);
    expect(freshRun.body.run.log_kept_days).toBeNull();
  });

  it("runs every hour, and the job queue keeps ended jobs JOB_HISTORY_DAYS", async () => {
    const schedule = await t.db.query<{ cron: string }>("SELECT cron FROM pgboss.schedule WHERE name = 'prune-history'");
    expect(schedule.rows).toEqual([{ cron: "41 * * * *" }]);
    const queues = await t.db.query<{ name: string; deletion_seconds: number }>("SELECT name, deletion_seconds FROM pgboss.queue WHERE name IN ('sync-connector', 'run-transform') ORDER BY name");
    expect(queues.rows).toEqual([
      { name: "run-transform", deletion_seconds: 3 * 86_400 },
      { name: "sync-connector", deletion_seconds: 3 * 86_400 },
    ]);
  });
});
