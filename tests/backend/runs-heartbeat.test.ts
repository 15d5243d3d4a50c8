import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recoverDeadSyncRuns, SYNC_QUEUE } from "../../backend/sync/index.js";
import { TRANSFORM_QUEUE } from "../../backend/transforms/runs.js";
import { api, createUserSession, startTestBackend, waitFor, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector } from "../support/seed.js";
import { WorkerProcesses } from "../support/workers.js";
import { startTestQueue } from "../support/queue.js";

/**
 * Runs whose worker died while pg-boss still holds their job as active (its expiry is hours away): the heartbeat
 * stops, a worker's sweep finds the run and has it retried. Real worker processes (`backend/main.ts --role worker`),
 * killed with SIGKILL, on a real Postgres, with the default job expiry. The heartbeat, its timeout and the sweep are
 * settings: the workers beat every second and a run is lost after 10 s without one (production: 5 s and 30 s).
 */
/** The bound: a SIGKILLed worker's run is retried within this long. */
const RETRIED_WITHIN_MS = 90_000;
const HEARTBEATS = { RUN_HEARTBEAT_SECONDS: "1", RUN_HEARTBEAT_TIMEOUT_SECONDS: "10", RUN_HEARTBEAT_SWEEP_SECONDS: "1", RUN_RETRY_DELAY_SECONDS: "1" };

let t: TestBackend;
let cookie: string;
let workers: WorkerProcesses;

beforeAll(async () => {
  // The defaults, as in production: the queues are made with the default (long) job expiry.
  for (const key of ["SYNC_JOB_EXPIRE_SECONDS", "TRANSFORM_JOB_EXPIRE_SECONDS", "JOBS_MAINTENANCE_INTERVAL_SECONDS", "RUN_HEARTBEAT_SECONDS", "RUN_HEARTBEAT_TIMEOUT_SECONDS", "RUN_HEARTBEAT_SWEEP_SECONDS"]) delete process.env[key];
  t = await startTestBackend();
  workers = new WorkerProcesses({ ...process.env, ...t.env, ...HEARTBEATS, LOG_LEVEL: "info" }, 100);
  cookie = (await createUserSession(t, "hb@example.com", "Heart Beat")).cookie;
}, 60_000);

afterAll(async () => {
  for (const w of workers?.running ?? []) w.kill("SIGKILL");
  await t?.stop();
});

const call = (method: string, route: string, body?: unknown) => api(t, cookie, method, route, body);

async function connector(name: string, meetingsPerDay: number, lookbackDays: number) {
  return (await seedDatagenConnector(t, cookie, { name, meetingsPerDay, lookbackDays, company: "Acme" })).connectorId;
}

interface RunState {
  status: string;
  attempts: number;
  error: string | null;
}

async function run(table: "sync_runs" | "transform_runs", id: string): Promise<RunState> {
  const { rows } = await t.db.query<RunState>(`SELECT status, attempts, error FROM ${table} WHERE id = $1`, [id]);
  return rows[0]!;
}

async function waitUntil(table: "sync_runs" | "transform_runs", id: string, done: (r: RunState) => boolean, timeoutMs: number): Promise<RunState> {
  let state: RunState | undefined;
  return waitFor(`run ${id} reaching its state`, async () => ((state = await run(table, id)), done(state) ? state : undefined), {
    timeoutMs,
    explain: () => `run ${id} is still ${JSON.stringify(state)}\n${workers.output.join("\n")}`,
  });
}

describe("runs whose worker died are found by their heartbeat", () => {
  // Over 30 s: the dead worker's run is found only once its heartbeat is older than RUN_HEARTBEAT_TIMEOUT_SECONDS and a
  // sweep runs, and the run is big enough to be mid-write when its worker is killed; then it is synced to the end.
  it("a SIGKILLed worker's sync run is retried within 90 s and succeeds, and Sync now works after it", { timeout: 240_000 }, async () => {
    // Big enough that the run is still writing when its worker is killed.
    const connectorId = await connector("Heartbeat", 200, 14);
    const first = workers.start();
    const started = await call("POST", `/connectors/${connectorId}/sync`);
    expect(started.status).toBe(202);
    const runId = started.body.run.id as string;
    await waitUntil("sync_runs", runId, (r) => r.status === "running", 60_000);
    await new Promise((r) => setTimeout(r, 300));
    await workers.stop(first, "SIGKILL");
    const killedAt = Date.now();
    expect((await run("sync_runs", runId)).status).toBe("running");
    // The job is still active in pg-boss (its expiry is hours away): without the heartbeat, the run would stay stuck.
    expect((await call("POST", `/connectors/${connectorId}/sync`)).status).toBe(409);

    workers.start();
    const retried = await waitUntil("sync_runs", runId, (r) => r.attempts >= 2, RETRIED_WITHIN_MS);
    expect(Date.now() - killedAt).toBeLessThan(RETRIED_WITHIN_MS);
    expect(retried.attempts).toBe(2);
    const finished = await waitUntil("sync_runs", runId, (r) => r.status === "succeeded" || r.status === "failed", 120_000);
    expect(finished).toMatchObject({ status: "succeeded", attempts: 2, error: null });
    const { rows } = await t.db.query<{ records: number }>("SELECT records FROM sync_runs WHERE id = $1", [runId]);
    expect(rows[0]!.records).toBeGreaterThan(0);

    const again = await call("POST", `/connectors/${connectorId}/sync`);
    expect(again.status).toBe(202);
    expect((await waitUntil("sync_runs", again.body.run.id, (r) => r.status === "succeeded" || r.status === "failed", 120_000)).status).toBe("succeeded");
    await workers.stopAll("SIGTERM");
  });

  it("a dead run is settled once when several workers sweep at the same time, and a live one is left alone", { timeout: 60_000 }, async () => {
    const connectorId = await connector("Two sweeps", 4, 1);
    const { boss, queue } = await startTestQueue(t.databaseUrl);
    try {
      // The test plays a worker that took the job, started the run and died 40 s ago.
      const runId = (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id as string;
      const [job] = await boss.fetch<{ runId: string }>(SYNC_QUEUE);
      expect(job?.data.runId).toBe(runId);
      await t.db.query("UPDATE sync_runs SET status = 'running', attempts = 1, started_at = now(), heartbeat_at = now() - interval '40 seconds' WHERE id = $1", [runId]);
      const settled = await Promise.all([recoverDeadSyncRuns(t.handle.db, queue, 30), recoverDeadSyncRuns(t.handle.db, queue, 30), recoverDeadSyncRuns(t.handle.db, queue, 30)]);
      expect(settled.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await run("sync_runs", runId)).toMatchObject({ status: "queued", attempts: 1, error: "Attempt 1 was interrupted (its worker stopped), retrying." });
      // pg-boss has the job waiting for its retry (with its backoff), not active until its expiry.
      const { rows } = await t.db.query<{ state: string }>("SELECT state FROM pgboss.job WHERE id = $1", [job!.id]);
      expect(rows[0]!.state).toBe("retry");

      // A run whose heartbeat is fresh is not touched.
      await t.db.query("UPDATE sync_runs SET status = 'running', attempts = 2, heartbeat_at = now() WHERE id = $1", [runId]);
      expect(await recoverDeadSyncRuns(t.handle.db, queue, 30)).toBe(0);
      expect((await run("sync_runs", runId)).status).toBe("running");
      // Done with it: the retry job a later worker fetches finds the run over.
      await t.db.query("UPDATE sync_runs SET status = 'succeeded', finished_at = now() WHERE id = $1", [runId]);
    } finally {
      await boss.stop({ graceful: false });
    }
  });

  it("a transform run whose worker died mid-run is retried by a worker's sweep and succeeds; Run now works after it", { timeout: 240_000 }, async () => {
    const connectorId = await connector("Transform source", 6, 3);
    const worker = workers.start();
    const synced = await call("POST", `/connectors/${connectorId}/sync`);
    expect((await waitUntil("sync_runs", synced.body.run.id, (r) => r.status === "succeeded" || r.status === "failed", 120_000)).status).toBe("succeeded");
    const created = await call("POST", "/transforms/create", {
      template_id: "topic_modeling",
      name: "Heartbeat topics",
      description: "What the calls are about",
      connector_id: connectorId,
      permissions_setup: true,
      frequency: "daily",
      file_types: [".vtt"],
      status: "PENDING",
    });
    expect(created.status).toBe(201);
    const transformId = created.body.transform_id as string;
    expect((await waitUntil("transform_runs", created.body.run_id, (r) => r.status === "succeeded" || r.status === "failed", 120_000)).status).toBe("succeeded");
    await workers.stop(worker, "SIGTERM");

    // A transform run takes well under a second, too short to kill a worker in its middle reliably: the test plays the
    // worker that took the job, started the run and was killed (its job stays active, its heartbeat stops).
    const { boss } = await startTestQueue(t.databaseUrl);
    try {
      const queued = await call("POST", `/transforms/${transformId}/run`);
      expect(queued.status).toBe(202);
      const runId = queued.body.run.id as string;
      const [job] = await boss.fetch<{ runId: string }>(TRANSFORM_QUEUE);
      expect(job?.data.runId).toBe(runId);
      await t.db.query("UPDATE transform_runs SET status = 'running', attempts = 1, started_at = now(), heartbeat_at = now() WHERE id = $1", [runId]);
      await t.db.query("UPDATE transforms SET status = 'RUNNING' WHERE id = $1", [transformId]);
      const diedAt = Date.now();
      expect((await call("POST", `/transforms/${transformId}/run`)).status).toBe(409);

      workers.start();
      await waitUntil("transform_runs", runId, (r) => r.attempts >= 2, RETRIED_WITHIN_MS);
      expect(Date.now() - diedAt).toBeLessThan(RETRIED_WITHIN_MS);
      expect(await waitUntil("transform_runs", runId, (r) => r.status === "succeeded" || r.status === "failed", 120_000)).toMatchObject({ status: "succeeded", attempts: 2 });
      expect((await call("GET", `/transforms/${transformId}`)).body.status).toBe("SUCCEEDED");
      expect((await call("POST", `/transforms/${transformId}/run`)).status).toBe(202);
    } finally {
      await boss.stop({ graceful: false });
      await workers.stopAll("SIGTERM");
    }
  });
});
