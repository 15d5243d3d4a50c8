import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { randomToken, sha256 } from "../../backend/lib/crypto.js";
import { SESSION_COOKIE } from "../../contract/auth.js";
import type { SyncRun } from "../../contract/connectors.js";
import PgBoss from "pg-boss";
import { connectDatabase } from "../../backend/db/client.js";
import { recoverLostSyncRuns, SYNC_QUEUE } from "../../backend/sync/index.js";
import { cloneTemplateDatabase } from "../support/backend.js";

/**
 * Real processes on a real Postgres: the API runs here, the workers are
 * `backend/main.ts --role worker` child processes that the test kills with
 * SIGKILL in the middle of a run. RELIABILITY_KILLS sets how many (CI: 20).
 */
const KILLS = Number(process.env.RELIABILITY_KILLS ?? (process.env.CI ? 20 : 2));
const EXPIRE_SECONDS = 4;
const MEETINGS_PER_DAY = 12;
const root = path.resolve(import.meta.dirname, "../..");

let api: RunningBackend;
let db: pg.Pool;
let dataDir: string;
let url: string;
let databaseUrl: string;
let cookie: string;
let workerEnv: NodeJS.ProcessEnv;
const workers = new Set<ChildProcess>();

beforeAll(async () => {
  databaseUrl = await cloneTemplateDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-reliability-"));
  const env: NodeJS.ProcessEnv = { NODE_ENV: "test", DATABASE_URL: databaseUrl, TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url"), BACKEND_PORT: "0", LOCAL_IDP_PORT: "0", APP_URL: "http://localhost:3999", DATA_DIR: dataDir };
  // The queue is created by the first process to start: a short expiry, so a killed worker's job is retried soon.
  // Its retry waits a second (then two, four…), not five.
  process.env.SYNC_JOB_EXPIRE_SECONDS = String(EXPIRE_SECONDS);
  process.env.RUN_RETRY_DELAY_SECONDS = "1";
  api = await startBackend({ role: "api", log: createLogger("silent"), env });
  workerEnv = { ...process.env, ...env, LOG_LEVEL: "info", SYNC_JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS), RUN_RETRY_DELAY_SECONDS: "1", JOBS_MAINTENANCE_INTERVAL_SECONDS: "1" };
  url = `http://127.0.0.1:${api.port}`;
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const { rows } = await db.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'rel', 'rel@example.com', 'Rel User') RETURNING id");
  const token = randomToken();
  await db.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [sha256(token), rows[0]!.id]);
  cookie = `${SESSION_COOKIE}=${token}`;
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.kill("SIGKILL");
  await db?.end();
  await api?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The last lines the workers wrote (their log, at "info", and anything on stderr), shown when a run gets stuck. */
const workerOutput: string[] = [];
const OUTPUT_LINES = 200;
let workerCount = 0;

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "backend/main.ts"), "--role", "worker"], { cwd: root, env: workerEnv, stdio: ["ignore", "pipe", "pipe"] });
  const label = `worker ${++workerCount} (pid ${child.pid})`;
  const keep = (stream: string) => (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) if (line.trim()) workerOutput.push(`${label} ${stream}: ${line.slice(0, 500)}`);
    workerOutput.splice(0, Math.max(0, workerOutput.length - OUTPUT_LINES));
  };
  child.stdout!.on("data", keep("out"));
  child.stderr!.on("data", keep("err"));
  workers.add(child);
  child.once("exit", (code, signal) => {
    workers.delete(child);
    workerOutput.push(`${label} exited (${signal ?? code})`);
  });
  return child;
}

async function stopWorker(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

async function call(method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, { method, headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

async function setup(name: string, meetingsPerDay: number, lookbackDays = 1) {
  const credential = await call("POST", "/externalauth/datagen/callback", {});
  const source = await call("POST", "/sources/create", { name, credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme", format: "zoom" } });
  await db.query("UPDATE sources SET metadata = metadata || jsonb_build_object('meetings_per_day', $2::int) WHERE id = $1", [source.body.id, meetingsPerDay]);
  const destination = await call("POST", "/destinations/create", { name: `${name} disk`, integration_name: "local" });
  const connector = await call("POST", "/connectors/create", { first_sync: false, name, frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: lookbackDays });
  expect(connector.status).toBe(201);
  return { sourceId: source.body.id as string, folder: destination.body.destination.config.folder as string, connectorId: connector.body.id as string };
}

async function runStatus(runId: string): Promise<SyncRun["status"]> {
  const { rows } = await db.query<{ status: SyncRun["status"] }>("SELECT status FROM sync_runs WHERE id = $1", [runId]);
  return rows[0]!.status;
}

async function waitFor(runId: string, statuses: SyncRun["status"][], timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const status = await runStatus(runId);
    if (statuses.includes(status)) return status;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`run ${runId} did not reach ${statuses.join("/")} (still ${await runStatus(runId)})\n${await stuckReport(runId)}`);
}

/** What a stuck run looks like: its row, its pg-boss job, and what the workers wrote last. */
async function stuckReport(runId: string): Promise<string> {
  const run = await db.query("SELECT status, attempts, job_id, started_at, finished_at, error FROM sync_runs WHERE id = $1", [runId]);
  const jobId = run.rows[0]?.job_id as string | undefined;
  const job = jobId ? await db.query("SELECT state, retry_count, retry_limit, created_on, started_on, completed_on, expire_in::text, singleton_key, output FROM pgboss.job WHERE id = $1", [jobId]) : { rows: [] };
  const others = await db.query("SELECT id, state, retry_count, started_on, singleton_key FROM pgboss.job WHERE name = 'sync-connector' AND state IN ('created', 'retry', 'active') ORDER BY created_on");
  return [
    `run: ${JSON.stringify(run.rows[0])}`,
    `job: ${JSON.stringify(job.rows[0])}`,
    `open sync jobs: ${JSON.stringify(others.rows)}`,
    `workers running: ${[...workers].map((w) => w.pid).join(", ") || "none"}`,
    "workers' last output:",
    ...workerOutput,
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
  const rootDir = resolveLocalRoot(dataDir, folder);
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
  it(`a worker killed in the middle of a run: another picks it up, every record exactly once (${KILLS} kills)`, { timeout: 120_000 + KILLS * 60_000 }, async () => {
    const { connectorId, folder, sourceId } = await setup("Kill me", MEETINGS_PER_DAY);
    let worker = startWorker();
    for (let kill = 1; kill <= KILLS; kill++) {
      const started = await call("POST", `/connectors/${connectorId}/sync`);
      expect(started.status).toBe(202);
      const runId = started.body.run.id as string;
      await waitFor(runId, ["running"]);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 400)));
      await stopWorker(worker, "SIGKILL");
      const interrupted = await runStatus(runId);
      worker = startWorker();
      // A liveness bound, not a speed check: expiry (4 s), maintenance, the retry's backoff and the re-run
      // itself can take long on a busy 2-core machine.
      expect(await waitFor(runId, ["succeeded", "failed"], 150_000)).toBe("succeeded");
      const { rows } = await db.query<{ attempts: number; started_at: Date; records: number }>("SELECT attempts, started_at, records FROM sync_runs WHERE id = $1", [runId]);
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
    await stopWorker(worker, "SIGTERM");
  });

  it("a failing destination fails the run with a clear error, loses nothing, and the next run succeeds", { timeout: 90_000 }, async () => {
    // Three days: the window then holds whole UTC days, each with at least three meetings. A one-day window at 4 a day
    // is empty about once in 200 (all of yesterday's meetings before this hour, all of today's after it), and a run
    // with nothing to write succeeds, broken disk or not.
    const { connectorId, folder } = await setup("Broken disk", 4, 3);
    const worker = startWorker();
    try {
      // The destination's files folder is a plain file: every write is refused by the OS.
      const filesDir = path.join(resolveLocalRoot(dataDir, folder), "files");
      rmSync(filesDir, { recursive: true, force: true });
      writeFileSync(filesDir, "not a folder");
      const first = await call("POST", `/connectors/${connectorId}/sync`);
      expect(await waitFor(first.body.run.id, ["succeeded", "failed"])).toBe("failed");
      const runs = (await call("GET", `/connectors/${connectorId}/runs`)).body.runs as SyncRun[];
      expect(runs[0]!.error).toMatch(/^Writing to destination "Broken disk disk" failed: ENOTDIR/);
      const connector = (await call("GET", `/connectors/list-by-id/${connectorId}`)).body;
      expect(connector.last_synced_at).toBeNull();
      expect(connector.last_run.status).toBe("failed");

      rmSync(filesDir, { force: true });
      const second = await call("POST", `/connectors/${connectorId}/sync`);
      expect(await waitFor(second.body.run.id, ["succeeded", "failed"])).toBe("succeeded");
      const got = await destinationContents(folder);
      const { rows } = await db.query<{ records: number }>("SELECT records FROM sync_runs WHERE id = $1", [second.body.run.id]);
      expect(rows[0]!.records).toBeGreaterThan(0);
      expect(got.files.filter((f) => f.endsWith(".vtt"))).toHaveLength(rows[0]!.records);
      expect(got.meetings).toBe(rows[0]!.records);
      expect((await call("GET", `/connectors/list-by-id/${connectorId}`)).body.last_synced_at).not.toBeNull();
    } finally {
      await stopWorker(worker, "SIGTERM");
    }
  });

  it("a run whose job ended without it is queued again, or fails once no attempt is left", { timeout: 120_000 }, async () => {
    const { connectorId } = await setup("Lost job", 4);
    const handle = connectDatabase(databaseUrl, 2);
    // The test plays the workers (it takes jobs and never completes them) and runs pg-boss's expiry every second.
    const boss = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", supervise: true, schedule: false, maintenanceIntervalSeconds: 1 });
    await boss.start();
    const job = async (id: string) => (await db.query<{ state: string; retry_count: number }>("SELECT state, retry_count FROM pgboss.job WHERE id = $1", [id])).rows[0]!;
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
      await db.query("UPDATE sync_runs SET status = 'succeeded', attempts = 1, started_at = now(), finished_at = now() WHERE id = $1", [first]);
      await jobReaches(staleJob, "retry");
      // The next run's worker dies mid-run. Its job expires too, but the connector's retry state is taken (stately
      // queue), so pg-boss fails it without a retry: nothing would ever run this run again.
      const second = (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id as string;
      const lostJob = await take(second);
      await db.query("UPDATE sync_runs SET status = 'running', attempts = 1, started_at = now() WHERE id = $1", [second]);
      expect(await jobReaches(lostJob, "failed")).toMatchObject({ retry_count: 0 });
      expect((await call("POST", `/connectors/${connectorId}/sync`)).status).toBe(409);

      expect(await recoverLostSyncRuns(handle.db, boss)).toBe(1);
      const { rows } = await db.query<{ status: string; job_id: string; error: string }>("SELECT status, job_id, error FROM sync_runs WHERE id = $1", [second]);
      expect(rows[0]).toMatchObject({ status: "queued", error: "Attempt 1 was interrupted (its worker stopped), retrying." });
      expect(rows[0]!.job_id).not.toBe(lostJob);
      expect(await recoverLostSyncRuns(handle.db, boss)).toBe(0);
      const worker = startWorker();
      try {
        expect(await waitFor(second, ["succeeded", "failed"], 90_000)).toBe("succeeded");
      } finally {
        await stopWorker(worker, "SIGTERM");
      }
      expect(await runStatus(first)).toBe("succeeded");

      // A run lost on its last attempt fails, saying why, and no longer holds the connector back.
      const third = (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id as string;
      const lastJob = await take(third);
      await db.query("UPDATE sync_runs SET status = 'running', attempts = 4, started_at = now() WHERE id = $1", [third]);
      await boss.cancel(SYNC_QUEUE, lastJob);
      expect(await recoverLostSyncRuns(handle.db, boss)).toBe(1);
      const failed = await db.query<{ status: string; error: string; finished_at: Date | null }>("SELECT status, error, finished_at FROM sync_runs WHERE id = $1", [third]);
      expect(failed.rows[0]).toMatchObject({ status: "failed", error: "Attempt 4 was interrupted (its worker stopped), and no retry is left." });
      expect(failed.rows[0]!.finished_at).not.toBeNull();
      expect((await call("POST", `/connectors/${connectorId}/sync`)).status).toBe(202);
    } finally {
      await boss.stop({ graceful: false, wait: true });
      await handle.close();
    }
  });
});
