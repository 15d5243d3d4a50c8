import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendJobs } from "../../backend/jobs/index.js";
import { worksJob } from "../../backend/server.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { api, createUserSession, startTestBackend, waitFor, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector } from "../support/seed.js";
import { WorkerProcesses } from "../support/workers.js";
import { startTestQueue } from "../support/queue.js";
import { SYNC_QUEUE } from "../../backend/sync/index.js";

/**
 * Issue 36, item 7: what a deployment relies on. Roles split the backend's work; /healthz and /readyz tell a load
 * balancer whether a process answers and whether it should get traffic; SIGTERM lets running jobs finish within
 * SHUTDOWN_GRACE_SECONDS and hands back the ones that do not.
 */

let t: TestBackend;
let cookie: string;
let workers: WorkerProcesses;

beforeAll(async () => {
  // The run queues' job heartbeat, as the API process here makes the queues (the workers' environment says the same).
  process.env.RUN_JOB_HEARTBEAT_SECONDS = "10";
  t = await startTestBackend();
  ({ cookie } = await createUserSession(t, "ops@example.com", "Ops"));
  workers = new WorkerProcesses({ ...process.env, ...t.env, LOG_LEVEL: "info", RUN_RETRY_DELAY_SECONDS: "1", SYNC_CONCURRENCY: "1", RUN_JOB_HEARTBEAT_SECONDS: "10", JOBS_MAINTENANCE_INTERVAL_SECONDS: "1" });
}, 60_000);

afterAll(async () => {
  await workers?.stopAll("SIGKILL");
  await t?.stop();
  delete process.env.RUN_JOB_HEARTBEAT_SECONDS;
});

describe("roles", () => {
  it("a worker works the run queues, a scheduler the timed jobs, all of them both, an API process none", () => {
    const jobs = backendJobs({ db: null as never, secrets: null as never, config: { RUN_HISTORY_DAYS: 90, RUN_LOG_DAYS: 30 } } as never, () => null as never);
    const names = (role: Parameters<typeof worksJob>[0]) => jobs.filter((job) => worksJob(role, job)).map((job) => job.name).sort();
    expect(names("worker")).toEqual(["run-transform", "sync-connector"]);
    expect(names("scheduler")).toEqual(["cleanup-sessions", "prune-history", "sync-scheduler", "transform-scheduler"]);
    expect(names("all")).toEqual(jobs.map((job) => job.name).sort());
    expect(names("api")).toEqual([]);
  });
});

describe("/healthz and /readyz", () => {
  it("ready while the database answers; with the database refusing connections, /readyz is 503 with a sentence and /healthz still 200", async () => {
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    const database = new URL(t.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: t.databaseUrl.replace(/\/[^/]+$/, "/postgres") });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database]);
      await waitFor("/readyz answering 503", async () => (await fetch(`${t.url}/readyz`)).status === 503, { timeoutMs: 20_000 });
      const answer = await (await fetch(`${t.url}/readyz`)).json();
      expect(answer.status).toBe("unavailable");
      expect(answer.message).toMatch(/^(The database does not answer\.|This process has lost its database connection for change notices; it is reconnecting\.)$/);
      const health = await fetch(`${t.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok" });
    } finally {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await waitFor("/readyz answering 200 again", async () => (await fetch(`${t.url}/readyz`)).status === 200, { timeoutMs: 30_000 });
    // The test's own pools lost their connections too: they reconnect on the next query.
    await t.db.query("SELECT 1").catch(() => t.db.query("SELECT 1"));
  });
});

describe("a worker that stops (SIGTERM) or dies", () => {
  async function runningSync(name: string, meetingsPerDay: number, lookbackDays: number) {
    const seeded = await seedDatagenConnector(t, cookie, { name, meetingsPerDay, lookbackDays });
    const queued = await api(t, cookie, "POST", `/connectors/${seeded.connectorId}/sync`, {});
    expect(queued.status).toBe(202);
    const runId: string = queued.body.run.id;
    await waitFor("the run writing its first records", async () => {
      const { rows } = await t.db.query("SELECT status, records FROM sync_runs WHERE id = $1", [runId]);
      return rows[0].status === "running" && Number(rows[0].records) > 0;
    }, { timeoutMs: 60_000, intervalMs: 25, explain: () => workers.output.join("\n") });
    return { ...seeded, runId };
  }
  const runRow = async (runId: string) => (await t.db.query("SELECT status, attempts, records FROM sync_runs WHERE id = $1", [runId])).rows[0];

  // Over 30 s: real worker processes stopped with SIGTERM while a sync runs, and that sync's run to its end.
  it("within the grace time, the running sync finishes in the stopping worker", { timeout: 120_000 }, async () => {
    const graceful = new WorkerProcesses({ ...process.env, ...t.env, LOG_LEVEL: "info", SHUTDOWN_GRACE_SECONDS: "120", SYNC_CONCURRENCY: "1" });
    const worker = graceful.start();
    try {
      const { runId } = await runningSync("Finishes", 400, 3);
      await graceful.stop(worker, "SIGTERM");
      expect(worker.exitCode).toBe(0);
      expect(await runRow(runId)).toMatchObject({ status: "succeeded", attempts: 1 });
    } finally {
      await graceful.stopAll("SIGKILL");
    }
  });

  // Over 30 s: a sync long enough to outlast the stopping worker's grace time, handed back and finished by another.
  it("past the grace time, the sync is handed back: the worker exits, another finishes it, every record exactly once", { timeout: 180_000 }, async () => {
    const impatient = new WorkerProcesses({ ...process.env, ...t.env, LOG_LEVEL: "info", SHUTDOWN_GRACE_SECONDS: "1", RUN_RETRY_DELAY_SECONDS: "1", SYNC_CONCURRENCY: "1" });
    const worker = impatient.start();
    try {
      const { runId, folder } = await runningSync("Handed back", 500, 7);
      const stopped = Date.now();
      await impatient.stop(worker, "SIGTERM");
      // The grace (1 s), then the closing steps: well before a lost worker's heartbeat would be noticed.
      expect(Date.now() - stopped).toBeLessThan(20_000);
      expect((await runRow(runId)).status).not.toBe("succeeded");
      workers.start();
      await waitFor("the handed-back run succeeding", async () => (await runRow(runId)).status === "succeeded", { timeoutMs: 150_000, explain: () => [...impatient.output, ...workers.output].join("\n") });
      expect((await runRow(runId)).attempts).toBeGreaterThanOrEqual(2);
      // The handed-back attempt does not stay "running" in the run's attempts: it ended where the next began.
      const { rows: logged } = await t.db.query<{ attempt_log: { attempt: number; outcome: string; error: string | null; started_at: string; finished_at: string | null }[] }>(
        "SELECT attempt_log FROM sync_runs WHERE id = $1",
        [runId],
      );
      const attemptLog = logged[0]!.attempt_log;
      expect(attemptLog.at(-1)).toMatchObject({ outcome: "succeeded" });
      expect(attemptLog.slice(0, -1).every((entry) => entry.outcome !== "running" && entry.finished_at !== null)).toBe(true);
      expect(attemptLog[0]).toMatchObject({ attempt: 1, outcome: "retrying" });
      const reader = new LocalWriter(resolveLocalRoot(t.dataDir, folder));
      try {
        const [u] = await reader.query("SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d FROM transcript_utterances");
        expect(u!.n).toBeGreaterThan(0);
        expect(u!.n).toBe(u!.d);
      } finally {
        await reader.close();
      }
    } finally {
      await impatient.stopAll("SIGKILL");
      // The next test's worker must be the only one to take its job: the workers started here stop too.
      await workers.stopAll("SIGTERM");
    }
  });

  it("a job taken by a worker that died before its run started: another worker runs it once the job's heartbeat lapses", { timeout: 120_000 }, async () => {
    const { connectorId } = await seedDatagenConnector(t, cookie, { name: "Taken and dropped", meetingsPerDay: 5, lookbackDays: 1 });
    const queued = await api(t, cookie, "POST", `/connectors/${connectorId}/sync`, {});
    expect(queued.status).toBe(202);
    const runId: string = queued.body.run.id;
    // A worker takes the job, then dies: nothing runs it, nothing says it is alive.
    const { boss } = await startTestQueue(t.databaseUrl);
    try {
      const [taken] = await boss.fetch<{ runId: string }>(SYNC_QUEUE);
      expect(taken?.data.runId).toBe(runId);
    } finally {
      await boss.stop({ graceful: false });
    }
    expect((await t.db.query("SELECT status FROM sync_runs WHERE id = $1", [runId])).rows[0].status).toBe("queued");
    workers.start();
    await waitFor("the dropped run succeeding", async () => (await t.db.query("SELECT status FROM sync_runs WHERE id = $1", [runId])).rows[0].status === "succeeded", {
      timeoutMs: 90_000,
      explain: () => workers.output.join("\n"),
    });
    await workers.stopAll("SIGTERM");
  });
});


describe("the scheduler's passes", () => {
  it("a scheduler process queues a run within seconds of its slot (SCHEDULER_PASS_SECONDS), and retires an earlier version's once-a-minute schedule", { timeout: 90_000 }, async () => {
    // An earlier version made the sync scheduler a pg-boss cron job, every minute.
    const { boss } = await startTestQueue(t.databaseUrl);
    try {
      await boss.createQueue("sync-scheduler", { policy: "singleton" });
      await boss.schedule("sync-scheduler", "* * * * *", {}, { tz: "UTC" });
    } finally {
      await boss.stop({ graceful: false });
    }
    // A daily connector made two days ago that has never run: its slot of the last day has come.
    const { connectorId } = await seedDatagenConnector(t, cookie, { name: "Slot come", meetingsPerDay: 2, lookbackDays: 1 });
    await t.db.query("UPDATE connectors SET created_at = now() - interval '2 days' WHERE id = $1", [connectorId]);
    const scheduled = async () => (await t.db.query("SELECT count(*)::int AS n FROM sync_runs WHERE connector_id = $1 AND trigger = 'schedule'", [connectorId])).rows[0].n;
    expect(await scheduled()).toBe(0);

    const scheduler = new WorkerProcesses({ ...process.env, ...t.env, LOG_LEVEL: "info", SCHEDULER_PASS_SECONDS: "1" });
    const process_ = scheduler.start("scheduler");
    try {
      await waitFor("the scheduler queuing the connector's run", async () => (await scheduled()) === 1, { timeoutMs: 30_000, explain: () => scheduler.output.join("\n") });
      const schedules = await t.db.query("SELECT name FROM pgboss.schedule WHERE name IN ('sync-scheduler', 'transform-scheduler')");
      expect(schedules.rows).toEqual([]);
      // Its later passes see the run queued for that slot: none more.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await scheduled()).toBe(1);
      await scheduler.stop(process_, "SIGTERM");
      expect(process_.exitCode).toBe(0);
    } finally {
      await scheduler.stopAll("SIGKILL");
    }
  });
});
