import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { randomToken, sha256 } from "../../backend/lib/crypto.js";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { SYNC_RUN_TABLE } from "../../backend/db/runs.js";
import { LOG_CUT_MESSAGE, RUN_LOG_MAX_LINES, RUN_LOG_SOFT_CAP } from "../../backend/db/run-logs.js";
import { performRun, PermanentRunError, type RunWork } from "../../backend/runs/engine.js";
import { SYNC_RUNS } from "../../backend/sync/index.js";
import { SESSION_COOKIE } from "../../contract/auth.js";
import type { SyncRun } from "../../contract/connectors.js";
import type { RunFailure, SyncRunDetails } from "../../contract/runs.js";
import { cloneTemplateDatabase } from "../support/backend.js";

/**
 * What a run records of itself (issue 27): each attempt, a bounded and redacted log, its counts while it runs, and
 * where each destination's data landed; the run's API (its details and its log as text), for its owner only. A
 * backend with the API and a real worker on a fresh database; the engine's own behaviour also through performRun.
 */

let backend: RunningBackend;
let db: pg.Pool;
let handle: DatabaseHandle;
let dataDir: string;
let url: string;
const users: { id: string; cookie: string }[] = [];

beforeAll(async () => {
  const databaseUrl = await cloneTemplateDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-run-details-"));
  backend = await startBackend({
    role: "all",
    log: createLogger("silent"),
    env: { NODE_ENV: "test", DATABASE_URL: databaseUrl, TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url"), BACKEND_PORT: "0", LOCAL_IDP_PORT: "0", APP_URL: "http://localhost:3999", DATA_DIR: dataDir },
  });
  url = `http://127.0.0.1:${backend.port}`;
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  handle = connectDatabase(databaseUrl, 3);
  for (const who of ["ada", "bob"]) {
    const { rows } = await db.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', $1, $1 || '@example.com', $1) RETURNING id", [who]);
    const token = randomToken();
    await db.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [sha256(token), rows[0]!.id]);
    users.push({ id: rows[0]!.id, cookie: `${SESSION_COOKIE}=${token}` });
  }
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await db?.end();
  await backend?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const ada = () => users[0]!;
const bob = () => users[1]!;

async function call(user: { cookie: string }, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { cookie: user.cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, text, body: json as Record<string, any> };
}

/** A datagen → local folder connector of `user`. */
async function connector(user: { cookie: string }, name: string, meetingsPerDay?: number) {
  const credential = await call(user, "POST", "/externalauth/datagen/callback", {});
  const source = await call(user, "POST", "/sources/create", { name: `${name} source`, credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme Rockets", format: "zoom" } });
  expect(source.status).toBe(201);
  if (meetingsPerDay) await db.query("UPDATE sources SET metadata = metadata || jsonb_build_object('meetings_per_day', $2::int) WHERE id = $1", [source.body.id, meetingsPerDay]);
  const destination = await call(user, "POST", "/destinations/create", { name: `${name} disk`, integration_name: "local" });
  expect(destination.status).toBe(201);
  const created = await call(user, "POST", "/connectors/create", { first_sync: false, name, description: "", frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: 3 });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, sourceId: source.body.id as string, destinationId: destination.body.destination.id as string, folder: destination.body.destination.config.folder as string };
}

async function waitForRun(user: { cookie: string }, connectorId: string, runId: string): Promise<SyncRun> {
  for (let i = 0; i < 600; i++) {
    const { body } = await call(user, "GET", `/connectors/${connectorId}/runs`);
    const run = (body.runs as SyncRun[]).find((r) => r.id === runId)!;
    if (run.status === "succeeded" || run.status === "failed") return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not finish`);
}

/** A queued run of the connector, made as Sync now makes it but without a job (performRun runs it here). */
async function queuedRun(connectorId: string, ownerId: string) {
  return SYNC_RUN_TABLE.insert(handle.db, { key: connectorId, ownerId, trigger: "manual" });
}

const details = async (user: { cookie: string }, connectorId: string, runId: string) => {
  const got = await call(user, "GET", `/connectors/${connectorId}/runs/${runId}`);
  expect(got.status).toBe(200);
  return got.body.run as SyncRunDetails;
};

describe("a sync run's details", () => {
  it("records its attempt, where each destination's data landed, and its log; the log downloads as text", async () => {
    const c = await connector(ada(), "Landed");
    const queued = await call(ada(), "POST", `/connectors/${c.id}/sync`, {});
    expect(queued.status).toBe(202);
    const finished = await waitForRun(ada(), c.id, queued.body.run.id);
    expect(finished.status).toBe("succeeded");
    expect(finished.records).toBeGreaterThan(0);

    const run = await details(ada(), c.id, finished.id);
    expect(run.connector_name).toBe("Landed");
    expect(run.attempts).toEqual([{ attempt: 1, started_at: expect.any(String), finished_at: expect.any(String), outcome: "succeeded", error: null }]);
    expect(run.landed).toHaveLength(1);
    const landed = run.landed[0]!;
    expect(landed).toMatchObject({ name: "Landed disk", type: "local", records: finished.records, bytes: finished.bytes });
    expect(landed.location).toContain(`${c.folder}/files/zoom/${c.sourceId}/`);
    expect(landed.location).toContain(`tables meetings and transcript_utterances in ${c.folder}/warehouse.duckdb`);
    // Never the server's own folder.
    expect(landed.location).not.toContain(dataDir);

    const messages = run.log.map((l) => l.message);
    expect(messages[0]).toBe("Queued by hand (Sync now or Run now).");
    expect(messages[1]).toBe("Attempt 1 of 4 started.");
    expect(messages).toContainEqual(expect.stringMatching(/^Reading Data Generator source "Landed source" from \S+ to \S+ \(3-day lookback\)\.$/));
    expect(messages).toContainEqual('Writing to 1 destination: "Landed disk" (Local folder).');
    expect(messages).toContainEqual(expect.stringMatching(/^Batch written: [\d,]+ records so far/));
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^Destination "Landed disk" written: ${finished.records.toLocaleString("en-US")} records`)));
    expect(messages.at(-1)).toMatch(new RegExp(`^Run succeeded in .*: ${finished.records.toLocaleString("en-US")} records\\.$`));
    expect(run.log.every((l) => l.level === "info" && !Number.isNaN(Date.parse(l.at)))).toBe(true);

    const log = await call(ada(), "GET", `/connectors/${c.id}/runs/${finished.id}/log`);
    expect(log.status).toBe(200);
    expect(log.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(log.headers.get("content-disposition")).toBe(`attachment; filename="tributary-sync-run-${finished.id}.log"`);
    const lines = log.text.trimEnd().split("\n");
    expect(lines).toHaveLength(run.log.length);
    expect(lines[0]).toBe(`${run.log[0]!.at} INFO  Queued by hand (Sync now or Run now).`);
  });

  it("is 404 for another user's run, a run of another connector, and a run that does not exist", async () => {
    const mine = await connector(ada(), "Mine");
    const other = await connector(ada(), "Other");
    const theirs = await connector(bob(), "Theirs");
    const run = await call(ada(), "POST", `/connectors/${mine.id}/sync`, {});
    await waitForRun(ada(), mine.id, run.body.run.id);
    const runId = run.body.run.id as string;
    for (const suffix of ["", "/log"]) {
      expect((await call(ada(), "GET", `/connectors/${mine.id}/runs/${runId}${suffix}`)).status).toBe(200);
      // Bob, with Ada's connector: the connector is not his.
      const foreign = await call(bob(), "GET", `/connectors/${mine.id}/runs/${runId}${suffix}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.message).toBe("Connector not found");
      // Bob, with his own connector and Ada's run.
      const crossed = await call(bob(), "GET", `/connectors/${theirs.id}/runs/${runId}${suffix}`);
      expect(crossed.status).toBe(404);
      expect(crossed.body.message).toBe("Run not found");
      // Ada, with her other connector.
      expect((await call(ada(), "GET", `/connectors/${other.id}/runs/${runId}${suffix}`)).status).toBe(404);
      expect((await call(ada(), "GET", `/connectors/${mine.id}/runs/${crypto.randomUUID()}${suffix}`)).status).toBe(404);
      expect((await call(ada(), "GET", `/connectors/${mine.id}/runs/not-a-uuid${suffix}`)).status).toBe(404);
    }
    expect((await call({ cookie: "" }, "GET", `/connectors/${mine.id}/runs/${runId}`)).status).toBe(401);
  });

  it("pages the history 50 runs at a time, newest first, each page after a run of the same connector (issue 35, defect 6)", async () => {
    const c = await connector(ada(), "Long history");
    const other = await connector(ada(), "Short history");
    const owner = (await db.query<{ owner_id: string }>("SELECT owner_id FROM connectors WHERE id = $1", [c.id])).rows[0]!.owner_id;
    // 55 finished runs, a minute apart; two share one instant (the page boundary orders them by id).
    await db.query(
      `INSERT INTO sync_runs (connector_id, owner_id, status, trigger, attempts, records, created_at, started_at, finished_at)
       SELECT $1, $2, 'succeeded', 'schedule', 1, n, now() - make_interval(mins => least(n, 54)), now() - make_interval(mins => least(n, 54)), now() - make_interval(mins => least(n, 54))
       FROM generate_series(1, 55) AS n`,
      [c.id, owner],
    );
    const first = await call(ada(), "GET", `/connectors/${c.id}/runs`);
    expect(first.status).toBe(200);
    expect(first.body.runs).toHaveLength(50);
    expect(first.body.has_more).toBe(true);
    expect((first.body.runs as SyncRun[]).map((r) => r.records)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const last = (first.body.runs as SyncRun[]).at(-1)!.id;
    const second = await call(ada(), "GET", `/connectors/${c.id}/runs?before=${last}`);
    expect(second.body.has_more).toBe(false);
    const seen = [...(first.body.runs as SyncRun[]), ...(second.body.runs as SyncRun[])];
    expect(second.body.runs).toHaveLength(5);
    expect(new Set(seen.map((r) => r.id)).size).toBe(55);
    expect(new Set(seen.map((r) => r.records))).toEqual(new Set(Array.from({ length: 55 }, (_, i) => i + 1)));
    // The banner's answer is the newest page's, whichever page is asked for.
    expect(second.body.failing).toBeNull();
    // A page after another connector's run, or after no run, holds none; a malformed one is refused.
    expect((await call(ada(), "GET", `/connectors/${other.id}/runs?before=${last}`)).body).toMatchObject({ runs: [], has_more: false });
    expect((await call(ada(), "GET", `/connectors/${c.id}/runs?before=${crypto.randomUUID()}`)).body).toMatchObject({ runs: [], has_more: false });
    expect(await call(ada(), "GET", `/connectors/${c.id}/runs?before=not-a-run`)).toMatchObject({ status: 400, body: { message: "That page of the run history does not exist." } });
    expect((await call(bob(), "GET", `/connectors/${c.id}/runs?before=${last}`)).status).toBe(404);
  });

  it("shows its records growing while it runs", async () => {
    // Enough meetings for the sync to take a few seconds: its records are stored as batches land.
    const c = await connector(ada(), "Growing", 3_000);
    const queued = await call(ada(), "POST", `/connectors/${c.id}/sync`, {});
    const runId = queued.body.run.id as string;
    const seen: number[] = [];
    let status = "queued";
    while (status === "queued" || status === "running") {
      const { rows } = await db.query<{ status: string; records: number; bytes: string; landed: { records: number }[] }>("SELECT status, records, bytes, landed FROM sync_runs WHERE id = $1", [runId]);
      status = rows[0]!.status;
      if (status === "running" && rows[0]!.records > 0) {
        seen.push(rows[0]!.records);
        expect(Number(rows[0]!.bytes)).toBeGreaterThan(0);
        expect(rows[0]!.landed[0]!.records).toBe(rows[0]!.records);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(status).toBe("succeeded");
    const distinct = [...new Set(seen)];
    expect(distinct.length, `records seen while running: ${seen.join(", ")}`).toBeGreaterThanOrEqual(2);
    expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
    const final = await details(ada(), c.id, runId);
    // The first count seen is less than the final one; the last may equal it (stored while the run was finishing).
    expect(final.records).toBeGreaterThan(distinct[0]!);
    expect(final.records).toBeGreaterThanOrEqual(distinct.at(-1)!);
  }, 120_000);

  it("tells the failure banner since when a connector fails, until it succeeds again", async () => {
    const c = await connector(ada(), "Banner");
    const runs = await call(ada(), "GET", `/connectors/${c.id}/runs`);
    expect(runs.body.failing).toBeNull();
    // Its destination's folder becomes a file: every run fails for good (ENOTDIR), with a readable error.
    const root = path.join(dataDir, c.folder);
    rmSync(root, { recursive: true, force: true });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(root, "not a folder");
    const failed: string[] = [];
    for (let i = 0; i < 2; i++) {
      const queued = await call(ada(), "POST", `/connectors/${c.id}/sync`, {});
      const run = await waitForRun(ada(), c.id, queued.body.run.id);
      expect(run.status).toBe("failed");
      failed.push(run.id);
    }
    const failing = (await call(ada(), "GET", `/connectors/${c.id}/runs`)).body.failing as RunFailure;
    expect(failing).toMatchObject({ failures: 2, first_run_id: failed[0], last_run_id: failed[1] });
    expect(failing.last_error).toMatch(/./);
    const first = await details(ada(), c.id, failed[0]!);
    expect(failing.since).toBe(first.finished_at);
    expect(first.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: "failed", error: first.error })]);
    expect(first.log.at(-2)).toMatchObject({ level: "error", message: `Attempt 1 failed (retrying cannot help): ${first.error}` });
    expect(first.log.at(-1)).toMatchObject({ level: "error", message: expect.stringMatching(/^Run failed after /) });

    rmSync(root, { force: true });
    const queued = await call(ada(), "POST", `/connectors/${c.id}/sync`, {});
    expect((await waitForRun(ada(), c.id, queued.body.run.id)).status).toBe("succeeded");
    expect((await call(ada(), "GET", `/connectors/${c.id}/runs`)).body.failing).toBeNull();
  });

  it("moves its owner's data version (the run event stream's signal) as it is written", async () => {
    const before = (await call(ada(), "GET", "/runs/version")).body.version as string;
    expect(before).toMatch(/^[\w-]+\.[0-9a-f-]{36}\.\d+$/);
    const c = await connector(ada(), "Versioned");
    const queued = await call(ada(), "POST", `/connectors/${c.id}/sync`, {});
    await waitForRun(ada(), c.id, queued.body.run.id);
    expect((await call(ada(), "GET", "/runs/version")).body.version).not.toBe(before);
    expect((await call({ cookie: "" }, "GET", "/runs/version")).status).toBe(401);
  });
});

describe("the runs engine's record of a run", () => {
  it("records each attempt: one that fails and is retried, then one that succeeds", async () => {
    const c = await connector(ada(), "Attempts");
    const run = await queuedRun(c.id, ada().id);
    let calls = 0;
    const work: RunWork = async ({ attempt, log }) => {
      calls++;
      log.info(`working on attempt ${attempt}`);
      if (attempt === 1) throw new Error("the warehouse timed out");
      return { records: 7, bytes: 70 };
    };
    await expect(performRun(SYNC_RUNS, handle.db, run.id, work)).rejects.toThrow("the warehouse timed out");
    let got = await details(ada(), c.id, run.id);
    expect(got.status).toBe("queued");
    expect(got.attempts).toEqual([{ attempt: 1, started_at: expect.any(String), finished_at: expect.any(String), outcome: "retrying", error: "the warehouse timed out" }]);
    await performRun(SYNC_RUNS, handle.db, run.id, work);
    got = await details(ada(), c.id, run.id);
    expect(calls).toBe(2);
    expect(got).toMatchObject({ status: "succeeded", records: 7, bytes: 70, error: null });
    expect(got.attempts.map((a) => [a.attempt, a.outcome, a.error])).toEqual([
      [1, "retrying", "the warehouse timed out"],
      [2, "succeeded", null],
    ]);
    expect(got.log.map((l) => `${l.level} ${l.message}`)).toEqual([
      "info Attempt 1 of 4 started.",
      "info working on attempt 1",
      "warn Attempt 1 failed, retrying (attempt 2 of 4 comes after a back-off): the warehouse timed out",
      "info Attempt 2 of 4 started.",
      "info working on attempt 2",
      expect.stringMatching(/^info Run succeeded in .*: 7 records\.$/),
    ]);
  });

  it("fails at once on a permanent error, and when no retry is left", async () => {
    const c = await connector(ada(), "Permanent");
    const run = await queuedRun(c.id, ada().id);
    await performRun(SYNC_RUNS, handle.db, run.id, async () => {
      throw new PermanentRunError("The connector's source no longer exists.");
    });
    const got = await details(ada(), c.id, run.id);
    expect(got).toMatchObject({ status: "failed", error: "The connector's source no longer exists." });
    expect(got.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: "failed", error: "The connector's source no longer exists." })]);

    const last = await queuedRun((await connector(ada(), "Exhausted")).id, ada().id);
    await db.query("UPDATE sync_runs SET attempts = 3 WHERE id = $1", [last.id]);
    await performRun(SYNC_RUNS, handle.db, last.id, async () => {
      throw new Error("still down");
    });
    const { rows } = await db.query<{ status: string; attempt_log: { attempt: number; outcome: string }[] }>("SELECT status, attempt_log FROM sync_runs WHERE id = $1", [last.id]);
    expect(rows[0]).toMatchObject({ status: "failed", attempt_log: [{ attempt: 4, outcome: "failed" }] });
  });

  it("writes progress at most about once a second while the run runs, and never after it ended", async () => {
    const c = await connector(ada(), "Progress");
    const run = await queuedRun(c.id, ada().id);
    const stored: number[] = [];
    const poll = setInterval(() => {
      void db.query<{ records: number }>("SELECT records FROM sync_runs WHERE id = $1", [run.id]).then(({ rows }) => stored.push(rows[0]!.records));
    }, 50);
    let writes = 0;
    const counting = SYNC_RUNS.runs.progress;
    const kind = { ...SYNC_RUNS, runs: { ...SYNC_RUNS.runs, progress: (...args: Parameters<typeof counting>) => (writes++, counting(...args)) } };
    try {
      await performRun(kind, handle.db, run.id, async ({ progress }) => {
        // 40 batches in 2.4 s: about three writes, not forty.
        for (let i = 1; i <= 40; i++) {
          progress({ records: i * 10, bytes: i * 100 });
          await new Promise((r) => setTimeout(r, 60));
        }
        return { records: 400, bytes: 4000 };
      });
    } finally {
      clearInterval(poll);
    }
    expect(writes).toBeGreaterThanOrEqual(2);
    expect(writes).toBeLessThanOrEqual(5);
    const growing = [...new Set(stored.filter((n) => n > 0 && n < 400))];
    expect(growing.length).toBeGreaterThanOrEqual(2);
    // A progress write that comes after the run ended changes nothing.
    await SYNC_RUN_TABLE.progress(handle.db, run.id, { records: 1 });
    expect((await details(ada(), c.id, run.id)).records).toBe(400);
  });

  it("caps the log per run: ordinary lines stop with one line saying so, the closing lines still come", async () => {
    const c = await connector(ada(), "Chatty");
    const run = await queuedRun(c.id, ada().id);
    const work: RunWork = async ({ log, attempt }) => {
      for (let i = 0; i < 2_000; i++) log.info(`line ${i}`);
      if (attempt === 1) throw new Error("once more");
      return { records: 1 };
    };
    const started = Date.now();
    await expect(performRun(SYNC_RUNS, handle.db, run.id, work)).rejects.toThrow("once more");
    await performRun(SYNC_RUNS, handle.db, run.id, work);
    expect(Date.now() - started).toBeLessThan(10_000);
    const got = await details(ada(), c.id, run.id);
    expect(got.log.length).toBeLessThanOrEqual(RUN_LOG_MAX_LINES);
    const messages = got.log.map((l) => l.message);
    expect(messages.filter((m) => m === LOG_CUT_MESSAGE)).toHaveLength(1);
    expect(messages.indexOf(LOG_CUT_MESSAGE)).toBe(RUN_LOG_SOFT_CAP - 1);
    expect(messages.slice(RUN_LOG_SOFT_CAP)).toEqual([
      "Attempt 1 failed, retrying (attempt 2 of 4 comes after a back-off): once more",
      expect.stringMatching(/^Run succeeded in /),
    ]);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM run_log_lines WHERE sync_run_id = $1", [run.id]);
    expect(rows[0]!.n).toBe(got.log.length);
  });

  it("never stores an obvious secret in a log line", async () => {
    const c = await connector(ada(), "Secrets");
    const run = await queuedRun(c.id, ada().id);
    const key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
    await performRun(SYNC_RUNS, handle.db, run.id, async ({ log }) => {
      log.warn("GET https://api.example.com/v2/users?access_token=ya29.a0AfB_secret&page=2 answered 401");
      log.warn('The provider said: {"error":"invalid_grant","refresh_token":"1//0g-secret","client_secret": "GOCSPX-secret"}');
      log.warn("Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.secret.sig was refused");
      log.warn(`Loading the key ${key} failed`);
      log.warn("postgres://tributary:hunter2@db.example.com:5432/app refused; password=hunter2 key=abc123");
      throw new PermanentRunError("Failed query: select 1\nparams: sealed-secret-value");
    });
    const got = await details(ada(), c.id, run.id);
    const text = [...got.log.map((l) => l.message), got.error].join("\n");
    for (const secret of ["ya29", "1//0g", "GOCSPX", "eyJhbGci", "MIIEvQ", "hunter2", "abc123", "sealed-secret-value"]) expect(text).not.toContain(secret);
    expect(text).toContain("access_token=[redacted]&page=2");
    expect(text).toContain('"refresh_token":"[redacted]"');
    expect(text).toContain("Bearer [redacted] was refused");
    expect(text).toContain("[redacted private key]");
    expect(text).toContain("postgres://tributary:[redacted]@db.example.com");
  });

  it("closes the attempt of a run whose worker stopped", async () => {
    const c = await connector(ada(), "Lost");
    const run = await queuedRun(c.id, ada().id);
    await SYNC_RUN_TABLE.markRunning(handle.db, run.id, { startedAt: new Date(), attempts: 1, attempt: { attempt: 1, started_at: new Date().toISOString(), finished_at: null, outcome: "running", error: null } });
    const [oldJob, newJob] = [crypto.randomUUID(), crypto.randomUUID()];
    await db.query("UPDATE sync_runs SET job_id = $2 WHERE id = $1", [run.id, oldJob]);
    const error = "Attempt 1 was interrupted (its worker stopped), retrying.";
    expect(await SYNC_RUN_TABLE.updateOpen(handle.db, run.id, oldJob, { status: "queued", jobId: newJob, error, closeAttempt: { outcome: "retrying", error } })).toBe(true);
    const got = await details(ada(), c.id, run.id);
    expect(got.attempts).toEqual([{ attempt: 1, started_at: expect.any(String), finished_at: expect.any(String), outcome: "retrying", error }]);
    // Settled, so that the scheduler's recovery leaves it alone.
    await db.query("UPDATE sync_runs SET status = 'failed', finished_at = now() WHERE id = $1", [run.id]);
  });
});
