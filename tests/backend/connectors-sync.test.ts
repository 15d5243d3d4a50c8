import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { enqueueDueRuns, latestSlot } from "../../backend/sync/index.js";
import type { SyncRun } from "../../contract/connectors.js";

import { api, createUserSession, startTestBackend, waitForRun as waitForSyncRun, type TestBackend } from "../support/backend.js";
import { readWarehouse, seedDatagenConnector } from "../support/seed.js";
import { startTestQueue } from "../support/queue.js";
import { filesUnder } from "../support/files.js";

/** A backend with the API and a real worker (role all), on a fresh database cloned from the migrated template. */
let t: TestBackend;
let cookie: string;

beforeAll(async () => {
  t = await startTestBackend({ role: "all" });
  cookie = (await createUserSession(t, "sync@example.com", "Sync User")).cookie;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const call = (method: string, route: string, body?: unknown) => api(t, cookie, method, route, body);

async function setup(format: "zoom" | "gong", lookback = 3) {
  const { sourceId, folder, connectorId } = await seedDatagenConnector(t, cookie, { name: `Sync ${format}`, format, lookbackDays: lookback, frequency: "hourly" });
  return { sourceId, folder, connectorId };
}

const waitForRun = (connectorId: string, runId: string) => waitForSyncRun<SyncRun>(t, cookie, `/connectors/${connectorId}`, runId);

const warehouse = (folder: string, query: string) => readWarehouse(t, folder, query);

describe("sync engine: datagen → local destination with a real worker", () => {
  it("a new connector's first sync is queued when it is created, without a click (issue 35 item 3)", async () => {
    const credential = await call("POST", "/externalauth/datagen/callback", {});
    const source = await call("POST", "/sources/create", { name: "Gen first", credentialId: credential.body.credential_id, integration_name: "datagen", integration_label: "Data Generator", source_metadata: { company: "Acme Rockets", format: "zoom" } });
    const destination = await call("POST", "/destinations/create", { name: "Disk first", integration_name: "local" });
    const created = await call("POST", "/connectors/create", { name: "First by itself", frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: 1 });
    expect(created.status).toBe(201);
    const connectorId = created.body.id as string;
    const { body } = await call("GET", `/connectors/${connectorId}/runs`);
    const runs = body.runs as SyncRun[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: "create" });
    expect(await waitForRun(connectorId, runs[0]!.id)).toMatchObject({ status: "succeeded", error: null });
    // Queued once: a Sync now while it was open would have been refused, and nothing else was queued.
    expect(((await call("GET", `/connectors/${connectorId}/runs`)).body.runs as SyncRun[]).length).toBe(1);
    // Asked not to, nothing is queued.
    const quiet = await call("POST", "/connectors/create", { first_sync: false, name: "Not now", frequency: "daily", source_id: source.body.id, destination_ids: [destination.body.destination.id], lookback_days: 1 });
    expect(((await call("GET", `/connectors/${quiet.body.id}/runs`)).body.runs as SyncRun[]).length).toBe(0);
  });

  it("Sync now runs, writes files and rows exactly once after two runs, and moves last_synced_at only on success", async () => {
    const { connectorId, folder, sourceId } = await setup("zoom");
    const first = await call("POST", `/connectors/${connectorId}/sync`);
    expect(first.status).toBe(202);
    const again = await call("POST", `/connectors/${connectorId}/sync`);
    expect(again).toEqual({ status: 409, body: { message: "A sync of this connector is already queued or running." } });
    const run1 = await waitForRun(connectorId, first.body.run.id);
    expect(run1).toMatchObject({ status: "succeeded", error: null, trigger: "manual" });
    expect(run1.records).toBeGreaterThan(5);
    const expected = [...generateMeetings({ sourceId, company: "Acme Rockets", from: new Date(new Date(run1.started_at!).getTime() - 3 * 86_400_000), to: new Date(run1.started_at!) })];
    expect(run1.records).toBe(expected.length);
    const root = path.join(resolveLocalRoot(t.dataDir, folder), "files");
    const files = filesUnder(root);
    expect(files).toHaveLength(expected.length * 2);
    expect(files.filter((f) => f.endsWith(".vtt"))).toHaveLength(expected.length);
    const vtt = readFileSync(path.join(root, files.find((f) => f.endsWith(".vtt"))!), "utf8");
    expect(vtt.startsWith("WEBVTT")).toBe(true);
    expect(run1.bytes).toBe(files.reduce((n, f) => n + statSync(path.join(root, f)).size, 0));
    const lines = expected.reduce((n, m) => n + m.utterances.length, 0);
    expect(await warehouse(folder, "SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d, count(DISTINCT meeting_id)::INT AS m FROM transcript_utterances")).toEqual([{ n: lines, d: lines, m: expected.length }]);
    const connector = (await call("GET", `/connectors/list-by-id/${connectorId}`)).body;
    expect(connector.last_synced_at).toBe(run1.finished_at);
    expect(connector.last_run).toMatchObject({ id: run1.id, status: "succeeded" });

    // A second run over an overlapping window: every record still exactly once.
    const second = await call("POST", `/connectors/${connectorId}/sync`);
    const run2 = await waitForRun(connectorId, second.body.run.id);
    expect(run2.status).toBe("succeeded");
    const after = filesUnder(root);
    const ids = new Set(after.map((f) => path.basename(f).replace(/\.\w+$/, "")));
    expect(after.length).toBe(ids.size * 2);
    const counts = await warehouse(folder, "SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d FROM transcript_utterances");
    expect(counts[0]!.n).toBe(counts[0]!.d);
    expect(counts[0]!.n).toBeGreaterThanOrEqual(lines);
    const meetings = await warehouse(folder, "SELECT count(*)::INT AS n FROM meetings");
    expect(meetings[0]!.n).toBe(ids.size);
    const runs = (await call("GET", `/connectors/${connectorId}/runs`)).body.runs as SyncRun[];
    expect(runs.map((r) => r.id)).toEqual([run2.id, run1.id]);
  });

  it("the run history as charts: records and duration per day in the reader's zone, from the runs themselves (issue 54)", async () => {
    const { connectorId } = await setup("zoom", 1);
    const runs: SyncRun[] = [];
    for (let i = 0; i < 2; i++) {
      const queued = await call("POST", `/connectors/${connectorId}/sync`);
      expect(queued.status).toBe(202);
      runs.push(await waitForRun(connectorId, queued.body.run.id));
    }
    const { status, body } = await call("GET", `/connectors/${connectorId}/runs/charts?tz=Pacific/Kiritimati`);
    expect(status).toBe(200);
    expect(body.time_zone).toBe("Pacific/Kiritimati");
    const [records, duration] = body.charts as { id: string; title: string; svg: string; points: { x: string; y: number }[] }[];
    expect(records!.title).toBe("Records synced per day");
    // Both runs started today, as Kiritimati (UTC+14) reads the day.
    const days = new Set(runs.map((r) => new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date(r.started_at!))));
    expect(records!.points.map((p) => p.x)).toEqual([...days].sort());
    expect(records!.points.reduce((sum, p) => sum + p.y, 0)).toBe(runs.reduce((sum, r) => sum + r.records, 0));
    const ms = runs.map((r) => Date.parse(r.finished_at!) - Date.parse(r.started_at!));
    if (days.size === 1) expect(duration!.points[0]!.y).toBeCloseTo(ms.reduce((a, b) => a + b, 0) / ms.length, 6);
    expect(duration!.svg).toContain("<title>Run duration per day</title>");
    // A zone the server does not know is a sentence; another user's connector is a 404.
    expect((await call("GET", `/connectors/${connectorId}/runs/charts?tz=Mars/Olympus`)).status).toBe(400);
    const other = await createUserSession(t, "other-charts@example.com", "Other");
    expect((await api(t, other.cookie, "GET", `/connectors/${connectorId}/runs/charts`)).status).toBe(404);
  });

  it("writes Gong-style JSON for a gong source", async () => {
    const { connectorId, folder } = await setup("gong", 1);
    const started = await call("POST", `/connectors/${connectorId}/sync`);
    const run = await waitForRun(connectorId, started.body.run.id);
    expect(run.status).toBe("succeeded");
    const root = path.join(resolveLocalRoot(t.dataDir, folder), "files");
    const json = filesUnder(root).filter((f) => f.endsWith(".json"));
    expect(json.length).toBe(run.records);
    const call1 = JSON.parse(readFileSync(path.join(root, json[0]!), "utf8"));
    expect(call1).toHaveProperty("metaData.id");
    expect(call1.transcript[0].sentences.length).toBeGreaterThan(0);
  });

  it("a permanent error fails the run with a readable reason and leaves last_synced_at alone", async () => {
    const { connectorId } = await setup("zoom", 1);
    await t.db.query("UPDATE sources SET integration_name = 'zoom' WHERE id = (SELECT source_id FROM connectors WHERE id = $1)", [connectorId]);
    const started = await call("POST", `/connectors/${connectorId}/sync`);
    const run = await waitForRun(connectorId, started.body.run.id);
    expect(run).toMatchObject({ status: "failed", records: 0 });
    // The source now claims to be Zoom but holds the data generator's credential: nothing a retry can fix.
    expect(run.error).toMatch(/^The Zoom source ".+" has no credential any more\. Create the source again to authenticate with Zoom\.$/);
    expect((await call("GET", `/connectors/list-by-id/${connectorId}`)).body.last_synced_at).toBeNull();
  });

  it("schedules: a due active connector gets one run per slot; a paused one none", async () => {
    const { connectorId } = await setup("zoom", 1);
    const { rows } = await t.db.query<{ frequency: string }>("SELECT frequency FROM connectors WHERE id = $1", [connectorId]);
    expect(rows[0]!.frequency).toBe("hourly");
    await call("POST", `/connectors/${connectorId}/pause`);
    await t.db.query("UPDATE connectors SET created_at = now() - interval '2 hours' WHERE id = $1", [connectorId]);
    const { boss, queue } = await startTestQueue(t.databaseUrl);
    try {
      const before = (await call("GET", `/connectors/${connectorId}/runs`)).body.runs.length;
      await enqueueDueRuns(t.handle.db, queue);
      expect((await call("GET", `/connectors/${connectorId}/runs`)).body.runs.length).toBe(before);
      await call("POST", `/connectors/${connectorId}/resume`);
      await enqueueDueRuns(t.handle.db, queue);
      await enqueueDueRuns(t.handle.db, queue);
      const runs = (await call("GET", `/connectors/${connectorId}/runs`)).body.runs as SyncRun[];
      const scheduled = runs.filter((r) => r.trigger === "schedule");
      expect(scheduled).toHaveLength(1);
      expect((await waitForRun(connectorId, scheduled[0]!.id)).status).toBe("succeeded");
      const slot = latestSlot(connectorId, "hourly", new Date());
      expect(Date.now() - slot.getTime()).toBeLessThan(3_600_000);
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});
