import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import type { SyncRun } from "../../contract/connectors.js";
import { connectDatabase } from "../../backend/db/client.js";
import { recoverLostSyncRuns, SYNC_QUEUE } from "../../backend/sync/index.js";
import { api, createUserSession, startTestBackend, waitFor, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector } from "../support/seed.js";
import { WorkerProcesses } from "../support/workers.js";
import { startTestQueue } from "../support/queue.js";

/**
 * Real processes on a real Postgres: the API runs here, the workers are
 * `backend/main.ts --role worker` child processes that the test kills with
 * SIGKILL in the middle of a run. RELIABILITY_KILLS sets how many (CI: 20).
 */
const KILLS = Number(process.env.RELIABILITY_KILLS ?? (process.env.CI ? 20 : 2));
const EXPIRE_SECONDS = 4;
const MEETINGS_PER_DAY = 12;

let t: TestBackend;
let cookie: string;
let workers: WorkerProcesses;

beforeAll(async () => {
  // The queue is created by the first process to start: a short expiry, so a killed worker's job is retried soon.
  // Its retry waits a second (then two, four…), not five.
  process.env.SYNC_JOB_EXPIRE_SECONDS = String(EXPIRE_SECONDS);
  process.env.RUN_RETRY_DELAY_SECONDS = "1";
  t = await startTestBackend();
  workers = new WorkerProcesses({ ...process.env, ...t.env, LOG_LEVEL: "info", SYNC_JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS), RUN_RETRY_DELAY_SECONDS: "1", JOBS_MAINTENANCE_INTERVAL_SECONDS: "1", SYNC_CONCURRENCY: "1" });
  ({ cookie } = await createUserSession(t, "rel@example.com", "Rel User"));
}, 60_000);

afterAll(async () => {
  await workers?.stopAll("SIGKILL");
  await t?.stop();
});

const call = (method: string, route: string, body?: unknown) => api(t, cookie, method, route, body);

async function setup(name: string, meetingsPerDay: number, lookbackDays = 1) {
  const { sourceId, folder, connectorId } = await seedDatagenConnector(t, cookie, { name, meetingsPerDay, lookbackDays, company: "Acme" });
  return { sourceId, folder, connectorId };
}

async function runStatus(runId: string): Promise<SyncRun["status"]> {
  const { rows } = await t.db.query<{ status: SyncRun["status"] }>("SELECT status FROM sync_runs WHERE id = $1", [runId]);
  return rows[0]!.status;
}

/** Waits until the run's status is one of `statuses`, and answers it; past the time, says what the stuck run looks like. */
async function runReaches(runId: string, statuses: SyncRun["status"][], timeoutMs = 60_000) {
  return waitFor(
    `run ${runId} reaching ${statuses.join("/")}`,
    async () => {
      const status = await runStatus(runId);
      return statuses.includes(status) ? status : undefined;
    },
    { timeoutMs, intervalMs: 25, explain: () => stuckReport(runId) },
  );
}

/** What a stuck run looks like: its row, its pg-boss job, and what the workers wrote last. */
async function stuckReport(runId: string): Promise<string> {
  const run = await t.db.query("SELECT status, attempts, job_id, started_at, finished_at, error FROM sync_runs WHERE id = $1", [runId]);
  const jobId = run.rows[0]?.job_id as string | undefined;
  const job = jobId ? await t.db.query("SELECT state, retry_count, retry_limit, created_on, started_on, completed_on, expire_seconds, singleton_key, output FROM pgboss.job WHERE id = $1", [jobId]) : { rows: [] };
  const others = await t.db.query("SELECT id, state, retry_count, started_on, singleton_key FROM pgboss.job WHERE name = 'sync-connector' AND state IN ('created', 'retry', 'active') ORDER BY created_on");
  return [
    `run: ${JSON.stringify(run.rows[0])}`,
    `job: ${JSON.stringify(job.rows[0])}`,
    `open sync jobs: ${JSON.stringify(others.rows)}`,
    `workers running: ${[...workers.running].map((w) => w.pid).join(", ") || "none"}`,
    "workers' last output:",
    ...workers.output,
  ].join("\n");
}

/** Every object (temporary files of an interrupted write aside) and the warehouse's counts. */
async function destinationContents(folder: string) {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (!entry.endsWith(".tmp")) files.push(entry);
    }
  };
  const rootDir = resolveLocalRoot(t.dataDir, folder);
  walk(path.join(rootDir, "files"));
  const reader = new LocalWriter(rootDir);
  try {
    const [u] = await reader.query("SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d FROM transcript_utterances");
    const [m] = await reader.query("SELECT count(*)::INT AS n FROM meetings");
    return { files, utterances: u!.n as number, distinctUtterances: u!.d as number, meetings: m!.n as number };
  } finally {
    await reader.close();
  }
}

function expected(sourceId: string, until: Date) {
  const meetings = [...generateMeetings({ sourceId, company: "Acme", from: new Date(until.getTime() - 86_400_000), to: until, meetingsPerDay: MEETINGS_PER_DAY })];
  return { meetings: meetings.length, utterances: meetings.reduce((n, m) => n + m.utterances.length, 0), ids: new Set(meetings.map((m) => m.id)) };
}

describe("reliability with real worker processes", () => {
  // Over 30 s in CI: twenty kills, each waiting for the killed job's expiry and the retry's run to the end.
  it(`a worker killed in the middle of a run: another picks it up, every record exactly once (${KILLS} kills)`, { timeout: 120_000 + KILLS * 60_000 }, async () => {
    const { connectorId, folder, sourceId } = await setup("Kill me", MEETINGS_PER_DAY);
    let worker = workers.start();
    for (let kill = 1; kill <= KILLS; kill++) {
      const started = await call("POST", `/connectors/${connectorId}/sync`);
      expect(started.status).toBe(202);
      const runId = started.body.run.id as string;
      await runReaches(runId, ["running"]);
      // The next worker boots while this run goes on (booting is most of a kill's time on a busy machine): idle, as
      // the only job is this run's, held by the worker about to die, it takes the job when it comes back.
      const next = workers.start();
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 400)));
      await workers.stop(worker, "SIGKILL");
      const interrupted = await runStatus(runId);
      worker = next;
      // A liveness bound, not a speed check: expiry (4 s), maintenance, the retry's backoff and the re-run
      // itself can take long on a busy 2-core machine.
      expect(await runReaches(runId, ["succeeded", "failed"], 150_000)).toBe("succeeded");
      const { rows } = await t.db.query<{ attempts: number; started_at: Date; records: number }>("SELECT attempts, started_at, records FROM sync_runs WHERE id = $1", [runId]);
      // Killed while running: the retry is a second attempt of the same run (unless the run had just finished).
      if (interrupted === "running") expect(rows[0]!.attempts).toBeGreaterThanOrEqual(2);
      const want = expected(sourceId, rows[0]!.started_at);
      expect(rows[0]!.records).toBe(want.meetings);
      const got = await destinationContents(folder);
      expect(got.utterances).toBe(got.distinctUtterances);
      // Every record of this run's window is there, and nothing is there twice.
      const names = got.files.filter((f) => f.endsWith(".vtt")).map((f) => f.replace(/\.vtt$/, ""));
      expect(new Set(names).size).toBe(names.length);
      for (const id of want.ids) expect(names).toContain(id);
      expect(got.meetings).toBe(names.length);
    }
    await workers.stop(worker, "SIGTERM");
  });

  it("a failing destination fails the run with a clear error, loses nothing, and the next run succeeds", { timeout: 90_000 }, async () => {
    // Three days: the window then holds whole UTC days, each with at least three meetings. A one-day window at 4 a day
    // is empty about once in 200 (all of yesterday's meetings before this hour, all of today's after it), and a run
    // with nothing to write succeeds, broken disk or not.
    const { connectorId, folder } = await setup("Broken disk", 4, 3);
    const worker = workers.start();
    try {
      // The destination's files folder is a plain file: every write is refused by the OS.
      const filesDir = path.join(resolveLocalRoot(t.dataDir, folder), "files");
      rmSync(filesDir, { recursive: true, force: true });
      writeFileSync(filesDir, "not a folder");
      const first = await call("POST", `/connectors/${connectorId}/sync`);
      expect(await runReaches(first.body.run.id, ["succeeded", "failed"])).toBe("failed");
      const runs = (await call("GET", `/connectors/${connectorId}/runs`)).body.runs as SyncRun[];
      expect(runs[0]!.error).toMatch(/^Writing to destination "Broken disk disk" failed: ENOTDIR/);
      const connector = (await call("GET", `/connectors/list-by-id/${connectorId}`)).body;
      expect(connector.last_synced_at).toBeNull();
      expect(connector.last_run.status).toBe("failed");

      rmSync(filesDir, { force: true });
      const second = await call("POST", `/connectors/${connectorId}/sync`);
      expect(await runReaches(second.body.run.id, ["succeeded", "failed"])).toBe("succeeded");
      const got = await destinationContents(folder);
      const { rows } = await t.db.query<{ records: number }>("SELECT records FROM sync_runs WHERE id = $1", [second.body.run.id]);
      expect(rows[0]!.records).toBeGreaterThan(0);
      expect(got.files.filter((f) => f.endsWith(".vtt"))).toHaveLength(rows[0]!.records);
      expect(got.meetings).toBe(rows[0]!.records);
      expect((await call("GET", `/connectors/list-by-id/${connectorId}`)).body.last_synced_at).not.toBeNull();
    } finally {
      await workers.stop(worker, "SIGTERM");
    }
  });

  it("deleting a connector whose sync another process (a worker) runs: the delete waits for it to let go, nothing lands after, and the worker takes the next sync at once", { timeout: 150_000 }, async () => {
    const worker = workers.start();
    try {
      const { connectorId, folder } = await setup("Deleted elsewhere", 1000, 30);
      const started = await call("POST", `/connectors/${connectorId}/sync`);
      expect(started.status).toBe(202);
      const runId = started.body.run.id as string;
      await waitFor(
        "the sync writing in the worker",
        async () => {
          const { rows } = await t.db.query<{ status: string; records: number }>("SELECT status, records FROM sync_runs WHERE id = $1", [runId]);
          return rows[0]?.status === "running" && rows[0].records > 0;
        },
        { timeoutMs: 60_000, intervalMs: 25, explain: () => stuckReport(runId) },
      );
      expect(await call("DELETE", `/connectors/delete/${connectorId}`)).toEqual({ status: 200, body: { message: "Connector deleted" } });
      // The worker let go before the answer: the job is no longer active, and what it wrote is all there is.
      const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE singleton_key = $1 AND state = 'active'", [connectorId]);
      expect(rows[0]!.n).toBe(0);
      const atDelete = await destinationContents(folder);
      expect(atDelete.meetings).toBeGreaterThan(0);
      // The worker runs one sync at a time: the next one runs now, not behind the deleted connector's.
      const next = await setup("Next elsewhere", 2);
      const queued = await call("POST", `/connectors/${next.connectorId}/sync`);
      expect(await runReaches(queued.body.run.id, ["succeeded", "failed"], 60_000)).toBe("succeeded");
      const later = await destinationContents(folder);
      expect(later.files).toHaveLength(atDelete.files.length);
      expect(later.meetings).toBe(atDelete.meetings);
    } finally {
      await workers.stop(worker, "SIGTERM");
    }
  });

  it("a run whose job ended without it is queued again, or fails once no attempt is left", { timeout: 120_000 }, async () => {
    const { connectorId } = await setup("Lost job", 4);
    const handle = connectDatabase(t.databaseUrl, 2);
    // The test plays the workers (it takes jobs and never completes them) and runs pg-boss's expiry every second.
    const { boss, queue } = await startTestQueue(t.databaseUrl, { expireEverySecond: true });
    const job = async (id: string) => (await t.db.query<{ state: string; retry_count: number }>("SELECT state, retry_count FROM pgboss.job WHERE id = $1", [id])).rows[0]!;
    const jobReaches = async (id: string, state: string) => {
      const until = Date.now() + 30_000;
      while ((await job(id)).state !== state) {
        if (Date.now() > until) throw new Error(`job ${id} is ${(await job(id)).state}, not ${state}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return job(id);
    };
    const take = async (runId: string) => {
      for (;;) {
        const [taken] = await boss.fetch<{ runId: string }>(SYNC_QUEUE);
        // A job whose run is over may come first: the first run's stale job, due again 5 s (retryDelay) after it
        // expired, when the worker below stopped before it came due. A worker that fetches one finds its run done and
        // completes the job; so does the test.
        if (taken && taken.data.runId !== runId && ["succeeded", "failed"].includes(await runStatus(taken.data.runId))) {
          await boss.complete(SYNC_QUEUE, taken.id);
          continue;
        }
        expect(taken?.data.runId).toBe(runId);
        return taken!.id;
      }
    };
    try {
      // A worker finishes the first run and dies before telling pg-boss: the job expires into "retry", a stale job
      // that will find its run done.
      const first = (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id as string;
      const staleJob = await take(first);
      await t.db.query("UPDATE sync_runs SET status = 'succeeded', attempts = 1, started_at = now(), finished_at = now() WHERE id = $1", [first]);
      await jobReaches(staleJob, "retry");
      // The next run's worker dies mid-run. Its job expires too, but the connector's retry state is taken (stately
      // queue), so pg-boss fails it without a retry: nothing would ever run this run again.
      const second = (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id as string;
      const lostJob = await take(second);
      await t.db.query("UPDATE sync_runs SET status = 'running', attempts = 1, started_at = now() WHERE id = $1", [second]);
      expect(await jobReaches(lostJob, "failed")).toMatchObject({ retry_count: 0 });
      expect((await call("POST", `/connectors/${connectorId}/sync`)).status).toBe(409);

      expect(await recoverLostSyncRuns(handle.db, queue)).toBe(1);
      const { rows } = await t.db.query<{ status: string; job_id: string; error: string }>("SELECT status, job_id, error FROM sync_runs WHERE id = $1", [second]);
      expect(rows[0]).toMatchObject({ status: "queued", error: "Attempt 1 was interrupted (its worker stopped), retrying." });
      expect(rows[0]!.job_id).not.toBe(lostJob);
      expect(await recoverLostSyncRuns(handle.db, queue)).toBe(0);
      const worker = workers.start();
      try {
        expect(await runReaches(second, ["succeeded", "failed"], 90_000)).toBe("succeeded");
      } finally {
        await workers.stop(worker, "SIGTERM");
      }
      expect(await runStatus(first)).toBe("succeeded");

      // A run lost on its last attempt fails, saying why, and no longer holds the connector back.
      const third = (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id as string;
      const lastJob = await take(third);
      await t.db.query("UPDATE sync_runs SET status = 'running', attempts = 4, started_at = now() WHERE id = $1", [third]);
      await boss.cancel(SYNC_QUEUE, lastJob);
      expect(await recoverLostSyncRuns(handle.db, queue)).toBe(1);
      const failed = await t.db.query<{ status: string; error: string; finished_at: Date | null }>("SELECT status, error, finished_at FROM sync_runs WHERE id = $1", [third]);
      expect(failed.rows[0]).toMatchObject({ status: "failed", error: "Attempt 4 was interrupted (its worker stopped), and no retry is left." });
      expect(failed.rows[0]!.finished_at).not.toBeNull();
      expect((await call("POST", `/connectors/${connectorId}/sync`)).status).toBe(202);
    } finally {
      await boss.stop({ graceful: false });
      await handle.close();
    }
  });
});
