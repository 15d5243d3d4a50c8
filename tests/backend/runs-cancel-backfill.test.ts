import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { BACKFILL_MESSAGES, todayIn } from "../../contract/run-operations.js";
import { connectDatabase } from "../../backend/db/client.js";
import { failuresInARow } from "../../backend/db/alerts.js";
import { SecretBox } from "../../backend/lib/crypto.js";
import { RunCancelledError } from "../../backend/runs/cancel.js";
import { runTransform } from "../../backend/transforms/runner.js";
import type { SyncRun } from "../../contract/connectors.js";
import { api as call, createUserSession, runFinished, startTestBackend, waitForRun, type TestBackend } from "../support/backend.js";
import { readWarehouse, seedDatagenConnector, seedTransform } from "../support/seed.js";

/**
 * Cancel and backfill (issue 27) on real backends and a real Postgres: `worker` performs runs (role all), `api` only
 * queues them (so a run stays queued). Datagen sources write to local destinations (files + DuckDB) under DATA_DIR.
 */
let worker: TestBackend;
let api: TestBackend;
let owner: { cookie: string; userId: string };
let apiOwner: { cookie: string; userId: string };

beforeAll(async () => {
  [worker, api] = await Promise.all([startTestBackend({ role: "all" }), startTestBackend()]);
  owner = await createUserSession(worker, "owner@example.com", "Owner");
  apiOwner = await createUserSession(api, "owner@example.com", "Owner");
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
}, 120_000);

/** A datagen source (its volume in meetings per day) → a local destination, through the API. */
async function setup(t: TestBackend, cookie: string, meetingsPerDay: number, lookback = 1) {
  return seedDatagenConnector(t, cookie, { meetingsPerDay, lookbackDays: lookback });
}

async function runs(t: TestBackend, cookie: string, connectorId: string): Promise<SyncRun[]> {
  return (await call(t, cookie, "GET", `/connectors/${connectorId}/runs`)).body.runs;
}

const waitFor = (connectorId: string, runId: string, until: (run: SyncRun) => boolean, timeoutMs?: number) => waitForRun(worker, owner.cookie, `/connectors/${connectorId}`, runId, { until, timeoutMs });
const finished = runFinished;
const warehouse = (folder: string, query: string) => readWarehouse(worker, folder, query);

function fileCount(root: string): number {
  let n = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else n++;
    }
  };
  walk(root);
  return n;
}

describe("cancel", () => {
  it("a queued sync is cancelled at once with its job; cancelling again is a no-op; the next run is queued normally", async () => {
    const { connectorId } = await setup(api, apiOwner.cookie, 6);
    const queued = await call(api, apiOwner.cookie, "POST", `/connectors/${connectorId}/sync`);
    expect(queued.status).toBe(202);
    const cancel = await call(api, apiOwner.cookie, "POST", `/connectors/${connectorId}/cancel`);
    expect(cancel).toEqual({ status: 200, body: { status: "success", outcome: "cancelled", run_id: queued.body.run.id, message: "The queued sync was cancelled." } });
    const [run] = await runs(api, apiOwner.cookie, connectorId);
    expect(run).toMatchObject({ id: queued.body.run.id, status: "cancelled", error: null });
    expect(run!.finished_at).not.toBeNull();
    const { rows } = await api.db.query<{ state: string }>("SELECT j.state FROM pgboss.job j JOIN sync_runs r ON r.job_id = j.id::text WHERE r.id = $1", [run!.id]);
    expect(rows[0]!.state).toBe("cancelled");
    expect(await call(api, apiOwner.cookie, "POST", `/connectors/${connectorId}/cancel`)).toEqual({ status: 200, body: { status: "success", outcome: "none", run_id: null, message: "There is no sync queued or running to cancel." } });
    // A cancelled run is not open: the next one is queued, and the connector's health is not Failed.
    const connector = (await call(api, apiOwner.cookie, "GET", `/connectors/list-by-id/${connectorId}`)).body;
    expect(connector.health).toBe("never_run");
    expect(connector.last_run.status).toBe("cancelled");
    expect((await call(api, apiOwner.cookie, "POST", `/connectors/${connectorId}/sync`)).status).toBe(202);
  });

  it("a queued transform run is cancelled at once, and the transform reads Cancelled", async () => {
    const { connectorId } = await setup(api, apiOwner.cookie, 6);
    const transformId = await seedTransform(api, apiOwner.userId, connectorId, "Topics");
    const queued = await call(api, apiOwner.cookie, "POST", `/transforms/${transformId}/run`);
    expect(queued.status).toBe(202);
    const cancel = await call(api, apiOwner.cookie, "POST", `/transforms/${transformId}/cancel`);
    expect(cancel.body).toMatchObject({ outcome: "cancelled", message: "The queued run was cancelled." });
    const history = (await call(api, apiOwner.cookie, "GET", `/transforms/${transformId}/runs`)).body.runs;
    expect(history[0]).toMatchObject({ status: "cancelled" });
    expect((await call(api, apiOwner.cookie, "GET", `/transforms/${transformId}`)).body.status).toBe("CANCELLED");
    expect((await call(api, apiOwner.cookie, "POST", `/transforms/${transformId}/cancel`)).body.outcome).toBe("none");
  });

  it("a transform run asked to stop stops between its steps: no result table is written", async () => {
    const { connectorId, folder } = await setup(worker, owner.cookie, 40);
    const synced = await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/sync`);
    expect((await waitFor(connectorId, synced.body.run.id, finished)).status).toBe("succeeded");
    const created = await call(worker, owner.cookie, "POST", "/transforms/create", {
      template_id: "topic_modeling", name: "Topics", description: "", connector_id: connectorId, permissions_setup: true, frequency: "daily", file_types: [".vtt"], status: "PENDING",
    });
    expect(created.status).toBe(201);
    const transformId = created.body.transform_id as string;
    // Its first run (queued by the create) is cancelled while queued or stopped while running: never a failure.
    await call(worker, owner.cookie, "POST", `/transforms/${transformId}/cancel`);
    const first = await waitForRun(worker, owner.cookie, `/transforms/${transformId}`, undefined, { timeoutMs: 30_000 });
    expect(["cancelled", "succeeded"]).toContain(first!.status);
    expect(first!.error).toBeNull();
    // The result tables (prefix tx_) and, in each, the rows of each run: a run writes its own run_id on its rows.
    const results = async () => {
      const names = (await warehouse(folder, "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'tx%' ORDER BY 1")).map((r) => String(r.table_name));
      const rows = [];
      for (const name of names) rows.push(...(await warehouse(folder, `SELECT '${name}' AS t, CAST(run_id AS VARCHAR) AS run, count(*)::INT AS n FROM "${name}" GROUP BY ALL ORDER BY ALL`)));
      return rows;
    };
    const before = await results();
    const handle = connectDatabase(worker.databaseUrl, 1);
    try {
      const services = { db: handle.db, secrets: new SecretBox(randomBytes(32).toString("base64url")), config: { DATA_DIR: worker.dataDir } };
      const signal = AbortSignal.abort(new RunCancelledError());
      await expect(runTransform(services, transformId, { id: randomUUID(), at: new Date(), signal })).rejects.toBeInstanceOf(RunCancelledError);
    } finally {
      await handle.close();
    }
    expect(await results()).toEqual(before);
  }, 60_000);

  it("a cancelled run is neither a failure nor a success in the failures in a row the alerts count", async () => {
    const { connectorId } = await setup(api, apiOwner.cookie, 6);
    const ids: string[] = [];
    for (const [i, status] of ["succeeded", "failed", "cancelled", "failed", "cancelled", "succeeded"].entries()) {
      const { rows } = await api.db.query<{ id: string }>(
        "INSERT INTO sync_runs (connector_id, owner_id, status, trigger, created_at) VALUES ($1, $2, $3, 'manual', now() - make_interval(mins => $4)) RETURNING id",
        [connectorId, apiOwner.userId, status, 60 - i],
      );
      ids.push(rows[0]!.id);
    }
    const handle = connectDatabase(api.databaseUrl, 1);
    try {
      // The second failure is the second in a row (the cancel between them does not reset the count)…
      expect(await failuresInARow(handle.db, "sync", connectorId, ids[3]!, "failed")).toBe(2);
      // …and the success after the last cancel recovers from those two.
      expect(await failuresInARow(handle.db, "sync", connectorId, ids[5]!, "succeeded")).toBe(2);
    } finally {
      await handle.close();
    }
    // Health skips the cancelled runs: the newest other run counts.
    await api.db.query("DELETE FROM sync_runs WHERE id = $1", [ids[5]]);
    expect((await call(api, apiOwner.cookie, "GET", `/connectors/list-by-id/${connectorId}`)).body.health).toBe("failed");
    const listed = await call(api, apiOwner.cookie, "GET", "/connectors/list?status=failed");
    expect((listed.body as { id: string }[]).map((c) => c.id)).toContain(connectorId);
  });

  it("another user's connector or transform cannot be cancelled or backfilled (404), and nothing changes", async () => {
    const { connectorId } = await setup(api, apiOwner.cookie, 6);
    const other = await createUserSession(api, "other@example.com", "Other");
    const queued = await call(api, apiOwner.cookie, "POST", `/connectors/${connectorId}/sync`);
    expect(await call(api, other.cookie, "POST", `/connectors/${connectorId}/cancel`)).toEqual({ status: 404, body: { message: "Connector not found" } });
    expect((await call(api, other.cookie, "POST", `/connectors/${connectorId}/backfill`, { from: "2026-01-01", to: "2026-01-02" })).status).toBe(404);
    const mine = await seedTransform(api, apiOwner.userId, connectorId, "Mine");
    expect((await call(api, other.cookie, "POST", `/transforms/${mine}/cancel`)).status).toBe(404);
    expect((await call(api, other.cookie, "POST", "/connectors/not-an-id/cancel")).status).toBe(404);
    expect((await runs(api, apiOwner.cookie, connectorId))[0]).toMatchObject({ id: queued.body.run.id, status: "queued" });
  });

  it("a running sync of a large volume stops at a batch boundary within 5 s: what it wrote is whole, the next run lands every record once", async () => {
    // 14,000 meetings a day (the benchmark's 100×) for a day: a sync that runs for many seconds.
    const { connectorId, folder, sourceId } = await setup(worker, owner.cookie, 14_000, 1);
    const started = await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/sync`);
    const runId = started.body.run.id as string;
    await waitFor(connectorId, runId, (r) => r.status === "running");
    await new Promise((r) => setTimeout(r, 1000));
    const asked = Date.now();
    const cancel = await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/cancel`);
    expect(cancel).toEqual({ status: 202, body: { status: "success", outcome: "stopping", run_id: runId, message: "The sync is stopping: it ends after the batch it is writing." } });
    const twice = await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/cancel`);
    expect([twice.body.outcome, twice.body.message]).toEqual(twice.status === 202 ? ["already_stopping", "The sync is already stopping."] : ["none", "There is no sync queued or running to cancel."]);
    const run = await waitFor(connectorId, runId, finished, 10_000);
    expect(run.status).toBe("cancelled");
    // The bound for a cancel.
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(run.error).toBeNull();
    const { rows: stored } = await worker.db.query<{ attempts: number; cancel_requested_at: Date; finished_at: Date }>("SELECT attempts, cancel_requested_at, finished_at FROM sync_runs WHERE id = $1", [runId]);
    expect(stored[0]!.attempts).toBe(1);
    expect(stored[0]!.finished_at.getTime() - stored[0]!.cancel_requested_at.getTime()).toBeLessThan(5_000);
    // What it wrote before it stopped is whole: every counted meeting has its row, its transcript lines and its two files.
    const total = [...generateMeetings({ sourceId, company: "Acme Rockets", meetingsPerDay: 14_000, from: new Date(new Date(run.started_at!).getTime() - 86_400_000), to: new Date(run.started_at!) })];
    expect(run.records).toBeGreaterThan(0);
    expect(run.records).toBeLessThan(total.length);
    const [written] = await warehouse(folder, "SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
    expect(written).toEqual({ n: run.records, d: run.records });
    const root = path.join(resolveLocalRoot(worker.dataDir, folder), "files");
    expect(fileCount(root)).toBe(run.records * 2);
    expect(await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/cancel`)).toMatchObject({ status: 200, body: { outcome: "none" } });

    // The next run proceeds normally and lands every record exactly once.
    const next = await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/sync`);
    expect(next.status).toBe(202);
    const after = await waitFor(connectorId, next.body.run.id, finished, 300_000);
    expect(after.status).toBe("succeeded");
    const [all] = await warehouse(folder, "SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
    expect(all!.n).toBe(all!.d);
    expect(all!.n).toBeGreaterThanOrEqual(after.records);
    const [lines] = await warehouse(folder, "SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d FROM transcript_utterances");
    expect(lines!.n).toBe(lines!.d);
    expect((await call(worker, owner.cookie, "GET", `/connectors/list-by-id/${connectorId}`)).body.health).toBe("healthy");
  }, 400_000);
});

describe("backfill", () => {
  const post = (connectorId: string, body: unknown) => call(api, apiOwner.cookie, "POST", `/connectors/${connectorId}/backfill`, body);

  it("validates its range on the server with a plain sentence per problem", async () => {
    const { connectorId } = await setup(api, apiOwner.cookie, 6);
    // No time zone given: days are UTC days.
    const today = todayIn("UTC");
    const tomorrow = todayIn("UTC", new Date(Date.now() + 86_400_000));
    const cases: [unknown, string][] = [
      [{ to: "2026-01-02" }, BACKFILL_MESSAGES.fromRequired],
      [{ from: "2026-01-02" }, BACKFILL_MESSAGES.toRequired],
      [{ from: "2026-13-01", to: "2026-01-02" }, BACKFILL_MESSAGES.fromInvalid],
      [{ from: "2026-01-01", to: "yesterday" }, BACKFILL_MESSAGES.toInvalid],
      [{ from: "2026-01-03", to: "2026-01-02" }, BACKFILL_MESSAGES.order],
      [{ from: today, to: tomorrow }, BACKFILL_MESSAGES.future],
      [{ from: "2024-01-01", to: "2025-01-01" }, BACKFILL_MESSAGES.tooLong],
      [{ from: "2026-01-01T10:00:00Z", to: "2026-01-01T09:00:00Z" }, BACKFILL_MESSAGES.order],
      [{ from: "2026-01-01", to: "2026-01-02", time_zone: "Mars/Olympus" }, BACKFILL_MESSAGES.timeZone],
      [{ from: 20260101, to: "2026-01-02" }, BACKFILL_MESSAGES.fromRequired],
    ];
    for (const [body, message] of cases) expect(await post(connectorId, body), JSON.stringify(body)).toEqual({ status: 400, body: { message } });
    expect(await runs(api, apiOwner.cookie, connectorId)).toEqual([]);
    // 366 days (2024 is a leap year) is the longest allowed; a backfill through today ends now.
    const ok = await post(connectorId, { from: "2024-01-01", to: "2024-12-31" });
    expect(ok.status).toBe(202);
    expect(ok.body.run).toMatchObject({ trigger: "backfill", range_from: "2024-01-01T00:00:00.000Z", range_to: "2025-01-01T00:00:00.000Z" });
    expect(await post(connectorId, { from: "2024-01-01", to: "2024-01-02" })).toEqual({ status: 409, body: { message: BACKFILL_MESSAGES.open } });
    await call(api, apiOwner.cookie, "POST", `/connectors/${connectorId}/cancel`);
    // Through today in Paris (already tomorrow in UTC between 23:00 and 24:00), from the latest 15 January (UTC+1 there).
    const parisToday = todayIn("Europe/Paris");
    const year = Number(parisToday.slice(0, 4)) - (parisToday < `${parisToday.slice(0, 4)}-01-15` ? 1 : 0);
    const zoned = await post(connectorId, { from: `${year}-01-15`, to: parisToday, time_zone: "Europe/Paris" });
    expect(zoned.status).toBe(202);
    expect(zoned.body.run.range_from).toBe(`${year}-01-14T23:00:00.000Z`);
    expect(Date.now() - new Date(zoned.body.run.range_to).getTime()).toBeLessThan(60_000);
  });

  it("reads exactly its range, and with a scheduled-window run over the same days lands each record once", async () => {
    const { connectorId, folder, sourceId } = await setup(worker, owner.cookie, 40, 3);
    const day = 86_400_000;
    const midnight = Math.floor(Date.now() / day) * day;
    const from = new Date(midnight - 5 * day);
    const to = new Date(midnight - day);
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    // From and To are whole days (UTC here): [5 days ago 00:00, yesterday 24:00).
    const queued = await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/backfill`, { from: iso(from), to: iso(to) });
    expect(queued.status).toBe(202);
    const run = await waitFor(connectorId, queued.body.run.id, finished);
    expect(run).toMatchObject({ status: "succeeded", trigger: "backfill", range_from: from.toISOString(), range_to: new Date(midnight).toISOString() });
    const expected = [...generateMeetings({ sourceId, company: "Acme Rockets", meetingsPerDay: 40, from, to: new Date(midnight) })];
    expect(run.records).toBe(expected.length);
    const [range] = await warehouse(folder, "SELECT count(*)::INT AS n, min(started_at) AS first, max(started_at) AS last FROM meetings");
    expect(range!.n).toBe(expected.length);
    expect(new Date(String(range!.first)).getTime()).toBeGreaterThanOrEqual(from.getTime());
    expect(new Date(String(range!.last)).getTime()).toBeLessThan(midnight);
    const ids = (await warehouse(folder, "SELECT meeting_id FROM meetings ORDER BY meeting_id")).map((r) => r.meeting_id);
    expect(ids).toEqual(expected.map((m) => m.id).sort());

    // The lookback window (3 days up to now) overlaps the backfill's last two days: those meetings are met again.
    const scheduled = await call(worker, owner.cookie, "POST", `/connectors/${connectorId}/sync`);
    const second = await waitFor(connectorId, scheduled.body.run.id, finished);
    expect(second.status).toBe("succeeded");
    const window = [...generateMeetings({ sourceId, company: "Acme Rockets", meetingsPerDay: 40, from: new Date(new Date(second.started_at!).getTime() - 3 * day), to: new Date(second.started_at!) })];
    const union = new Set([...expected, ...window].map((m) => m.id));
    expect(window.filter((m) => expected.some((e) => e.id === m.id)).length).toBeGreaterThan(0);
    const [meetings] = await warehouse(folder, "SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
    expect(meetings).toEqual({ n: union.size, d: union.size });
    const [lines] = await warehouse(folder, "SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d FROM transcript_utterances");
    expect(lines!.n).toBe(lines!.d);
    expect(fileCount(path.join(resolveLocalRoot(worker.dataDir, folder), "files"))).toBe(union.size * 2);
    const history = await runs(worker, owner.cookie, connectorId);
    expect(history.map((r) => r.trigger)).toEqual(["manual", "backfill"]);
  }, 120_000);
});
