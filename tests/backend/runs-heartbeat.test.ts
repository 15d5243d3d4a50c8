import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { randomToken, sha256 } from "../../backend/lib/crypto.js";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { recoverDeadSyncRuns, SYNC_QUEUE } from "../../backend/sync/index.js";
import { TRANSFORM_QUEUE } from "../../backend/transforms/runs.js";
import { SESSION_COOKIE } from "../../contract/auth.js";
import { cloneTemplateDatabase } from "./harness.js";

/**
 * Runs whose worker died while pg-boss still holds their job as active (its expiry is hours away): the heartbeat
 * stops, a worker's sweep finds the run and has it retried. Real worker processes (`backend/main.ts --role worker`),
 * killed with SIGKILL, on a real Postgres, with the default heartbeat settings and job expiry.
 */
const root = path.resolve(import.meta.dirname, "../..");
/** The bound: a SIGKILLed worker's run is retried within this long. */
const RETRIED_WITHIN_MS = 90_000;

let api: RunningBackend;
let db: pg.Pool;
let handle: DatabaseHandle;
let dataDir: string;
let url: string;
let databaseUrl: string;
let cookie: string;
let workerEnv: NodeJS.ProcessEnv;
const workers = new Set<ChildProcess>();
const workerOutput: string[] = [];

beforeAll(async () => {
  databaseUrl = await cloneTemplateDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-heartbeat-"));
  const env: NodeJS.ProcessEnv = { NODE_ENV: "test", DATABASE_URL: databaseUrl, TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url"), BACKEND_PORT: "0", LOCAL_IDP_PORT: "0", APP_URL: "http://localhost:3999", DATA_DIR: dataDir };
  // The defaults, as in production: the queues are made with the default (long) job expiry.
  for (const key of ["SYNC_JOB_EXPIRE_SECONDS", "TRANSFORM_JOB_EXPIRE_SECONDS", "JOBS_MAINTENANCE_INTERVAL_SECONDS", "RUN_HEARTBEAT_SECONDS", "RUN_HEARTBEAT_TIMEOUT_SECONDS", "RUN_HEARTBEAT_SWEEP_SECONDS"]) delete process.env[key];
  api = await startBackend({ role: "api", log: createLogger("silent"), env });
  workerEnv = { ...process.env, ...env, LOG_LEVEL: "info" };
  url = `http://127.0.0.1:${api.port}`;
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  handle = connectDatabase(databaseUrl, 2);
  const { rows } = await db.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'hb', 'hb@example.com', 'Heart Beat') RETURNING id");
  const token = randomToken();
  await db.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [sha256(token), rows[0]!.id]);
  cookie = `${SESSION_COOKIE}=${token}`;
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.kill("SIGKILL");
  await handle?.close();
  await db?.end();
  await api?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "backend/main.ts"), "--role", "worker"], { cwd: root, env: workerEnv, stdio: ["ignore", "pipe", "pipe"] });
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) if (line.trim()) workerOutput.push(`worker ${child.pid}: ${line.slice(0, 400)}`);
    workerOutput.splice(0, Math.max(0, workerOutput.length - 100));
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  workers.add(child);
  child.once("exit", () => workers.delete(child));
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

async function connector(name: string, meetingsPerDay: number, lookbackDays: number) {
  const credential = await call("POST", "/externalauth/datagen/callback", {});
  const source = await call("POST", "/sources/create", { name, credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme", format: "zoom" } });
  await db.query("UPDATE sources SET metadata = metadata || jsonb_build_object('meetings_per_day', $2::int) WHERE id = $1", [source.body.id, meetingsPerDay]);
  const destination = await call("POST", "/destinations/create", { name: `${name} disk`, integration_name: "local" });
  const created = await call("POST", "/connectors/create", { first_sync: false, name, frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: lookbackDays });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

interface RunState {
  status: string;
  attempts: number;
  error: string | null;
}

async function run(table: "sync_runs" | "transform_runs", id: string): Promise<RunState> {
  const { rows } = await db.query<RunState>(`SELECT status, attempts, error FROM ${table} WHERE id = $1`, [id]);
  return rows[0]!;
}

async function waitUntil(table: "sync_runs" | "transform_runs", id: string, done: (r: RunState) => boolean, timeoutMs: number): Promise<RunState> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await run(table, id);
    if (done(state)) return state;
    if (Date.now() > until) throw new Error(`run ${id} is still ${JSON.stringify(state)}\n${workerOutput.join("\n")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("runs whose worker died are found by their heartbeat", () => {
  it("a SIGKILLed worker's sync run is retried within 90 s and succeeds, and Sync now works after it", { timeout: 240_000 }, async () => {
    // Big enough that the run is still writing when its worker is killed.
    const connectorId = await connector("Heartbeat", 200, 14);
    const first = startWorker();
    const started = await call("POST", `/connectors/${connectorId}/sync`);
    expect(started.status).toBe(202);
    const runId = started.body.run.id as string;
    await waitUntil("sync_runs", runId, (r) => r.status === "running", 60_000);
    await new Promise((r) => setTimeout(r, 300));
    await stopWorker(first, "SIGKILL");
    const killedAt = Date.now();
    expect((await run("sync_runs", runId)).status).toBe("running");
    // The job is still active in pg-boss (its expiry is hours away): without the heartbeat, the run would stay stuck.
    expect((await call("POST", `/connectors/${connectorId}/sync`)).status).toBe(409);

    startWorker();
    const retried = await waitUntil("sync_runs", runId, (r) => r.attempts >= 2, RETRIED_WITHIN_MS);
    expect(Date.now() - killedAt).toBeLessThan(RETRIED_WITHIN_MS);
    expect(retried.attempts).toBe(2);
    const finished = await waitUntil("sync_runs", runId, (r) => r.status === "succeeded" || r.status === "failed", 120_000);
    expect(finished).toMatchObject({ status: "succeeded", attempts: 2, error: null });
    const { rows } = await db.query<{ records: number }>("SELECT records FROM sync_runs WHERE id = $1", [runId]);
    expect(rows[0]!.records).toBeGreaterThan(0);

    const again = await call("POST", `/connectors/${connectorId}/sync`);
    expect(again.status).toBe(202);
    expect((await waitUntil("sync_runs", again.body.run.id, (r) => r.status === "succeeded" || r.status === "failed", 120_000)).status).toBe("succeeded");
    for (const w of [...workers]) await stopWorker(w, "SIGTERM");
  });

  it("a dead run is settled once when several workers sweep at the same time, and a live one is left alone", { timeout: 60_000 }, async () => {
    const connectorId = await connector("Two sweeps", 4, 1);
    const boss = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", max: 2, supervise: false, schedule: false });
    await boss.start();
    try {
      // The test plays a worker that took the job, started the run and died 40 s ago.
      const runId = (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id as string;
      const [job] = await boss.fetch<{ runId: string }>(SYNC_QUEUE);
      expect(job?.data.runId).toBe(runId);
      await db.query("UPDATE sync_runs SET status = 'running', attempts = 1, started_at = now(), heartbeat_at = now() - interval '40 seconds' WHERE id = $1", [runId]);
      const settled = await Promise.all([recoverDeadSyncRuns(handle.db, boss, 30), recoverDeadSyncRuns(handle.db, boss, 30), recoverDeadSyncRuns(handle.db, boss, 30)]);
      expect(settled.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await run("sync_runs", runId)).toMatchObject({ status: "queued", attempts: 1, error: "Attempt 1 was interrupted (its worker stopped), retrying." });
      // pg-boss has the job waiting for its retry (with its backoff), not active until its expiry.
      const { rows } = await db.query<{ state: string }>("SELECT state FROM pgboss.job WHERE id = $1", [job!.id]);
      expect(rows[0]!.state).toBe("retry");

      // A run whose heartbeat is fresh is not touched.
      await db.query("UPDATE sync_runs SET status = 'running', attempts = 2, heartbeat_at = now() WHERE id = $1", [runId]);
      expect(await recoverDeadSyncRuns(handle.db, boss, 30)).toBe(0);
      expect((await run("sync_runs", runId)).status).toBe("running");
      // Done with it: the retry job a later worker fetches finds the run over.
      await db.query("UPDATE sync_runs SET status = 'succeeded', finished_at = now() WHERE id = $1", [runId]);
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });

  it("a transform run whose worker died mid-run is retried by a worker's sweep and succeeds; Run now works after it", { timeout: 240_000 }, async () => {
    const connectorId = await connector("Transform source", 6, 3);
    const worker = startWorker();
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
    await stopWorker(worker, "SIGTERM");

    // A transform run takes well under a second, too short to kill a worker in its middle reliably: the test plays the
    // worker that took the job, started the run and was killed (its job stays active, its heartbeat stops).
    const boss = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", max: 2, supervise: false, schedule: false });
    await boss.start();
    try {
      const queued = await call("POST", `/transforms/${transformId}/run`);
      expect(queued.status).toBe(202);
      const runId = queued.body.run.id as string;
      const [job] = await boss.fetch<{ runId: string }>(TRANSFORM_QUEUE);
      expect(job?.data.runId).toBe(runId);
      await db.query("UPDATE transform_runs SET status = 'running', attempts = 1, started_at = now(), heartbeat_at = now() WHERE id = $1", [runId]);
      await db.query("UPDATE transforms SET status = 'RUNNING' WHERE id = $1", [transformId]);
      const diedAt = Date.now();
      expect((await call("POST", `/transforms/${transformId}/run`)).status).toBe(409);

      startWorker();
      await waitUntil("transform_runs", runId, (r) => r.attempts >= 2, RETRIED_WITHIN_MS);
      expect(Date.now() - diedAt).toBeLessThan(RETRIED_WITHIN_MS);
      expect(await waitUntil("transform_runs", runId, (r) => r.status === "succeeded" || r.status === "failed", 120_000)).toMatchObject({ status: "succeeded", attempts: 2 });
      expect((await call("GET", `/transforms/${transformId}`)).body.status).toBe("SUCCEEDED");
      expect((await call("POST", `/transforms/${transformId}/run`)).status).toBe(202);
    } finally {
      await boss.stop({ graceful: false, wait: true });
      for (const w of [...workers]) await stopWorker(w, "SIGTERM");
    }
  });
});
