import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { STREAM_MESSAGES, type ConnectorStream, type SyncRun } from "../../contract/connectors.js";
import { filesUnder } from "../support/files.js";
import { api, createUserSession, startTestBackend, waitForRun as waitForSyncRun, type TestBackend } from "../support/backend.js";
import { readWarehouse, seedDatagenConnector } from "../support/seed.js";
import { resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import path from "node:path";

/**
 * Issue 37, a connector's streams through the API: what GET /connectors/list-by-id says of them (from the source's
 * manifest, with where each lands), the switch (POST /connectors/{id}/streams) and its refusals, a sync that leaves a
 * stopped stream out, and a stream turned back on getting its lookback window at once.
 */

let t: TestBackend;
let cookie: string;
let otherCookie: string;

beforeAll(async () => {
  t = await startTestBackend({ role: "all" });
  cookie = (await createUserSession(t, "streams@example.com", "Streams User")).cookie;
  otherCookie = (await createUserSession(t, "streams-other@example.com", "Other User")).cookie;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const call = (method: string, route: string, body?: unknown) => api(t, cookie, method, route, body);
const streamsOf = async (connectorId: string) => (await call("GET", `/connectors/list-by-id/${connectorId}`)).body.streams as ConnectorStream[];
const waitForRun = (connectorId: string, runId: string) => waitForSyncRun<SyncRun>(t, cookie, `/connectors/${connectorId}`, runId);
const tableCount = async (folder: string, table: string) =>
  ((await readWarehouse(t, folder, `SELECT count(*)::INT AS n FROM information_schema.tables WHERE table_name = '${table}'`))[0] as { n: number }).n;

describe("a connector's streams", () => {
  it("are its source's, each with its key, cursor, typed columns and where it lands at each destination", async () => {
    const { connectorId, sourceId, folder } = await seedDatagenConnector(t, cookie, { name: "Schema shown", format: "gong" });
    const streams = await streamsOf(connectorId);
    expect(streams.map((s) => [s.name, s.label, s.primary_key, s.cursor_field, s.enabled])).toEqual([
      ["meetings", "Meetings", ["meeting_id"], "started_at", true],
      ["transcript_utterances", "Transcript lines", ["utterance_id"], "spoken_at", true],
    ]);
    expect(streams[1]!.columns.find((c) => c.name === "spoken_at")).toEqual({ name: "spoken_at", type: "timestamp", description: "When it was said" });
    expect(streams[0]!.lands).toEqual([{ destination: "Schema shown disk", location: `files in ${folder}/files/gong/${sourceId}/; tables meetings in ${folder}/warehouse.duckdb (under the data directory)` }]);
    // Transcript lines are rows only: no folder.
    expect(streams[1]!.lands).toEqual([{ destination: "Schema shown disk", location: `tables transcript_utterances in ${folder}/warehouse.duckdb (under the data directory)` }]);
  });

  it("refuses a switch it cannot carry out, with a sentence, and changes nothing", async () => {
    const { connectorId } = await seedDatagenConnector(t, cookie, { name: "Schema refusals" });
    const post = (body: unknown, as = cookie) => api(t, as, "POST", `/connectors/${connectorId}/streams`, body);
    expect(await post({})).toEqual({ status: 400, body: { message: STREAM_MESSAGES.unknown } });
    expect(await post({ stream: "chat_messages", enabled: false })).toEqual({ status: 400, body: { message: STREAM_MESSAGES.unknown } });
    expect(await post({ stream: "meetings" })).toEqual({ status: 400, body: { message: STREAM_MESSAGES.enabledRequired } });
    expect(await post({ stream: "meetings", enabled: "maybe" })).toEqual({ status: 400, body: { message: STREAM_MESSAGES.enabledRequired } });
    expect((await post({ stream: "meetings", enabled: false }, otherCookie)).status).toBe(404);
    expect((await api(t, cookie, "POST", "/connectors/00000000-0000-4000-8000-000000000000/streams", { stream: "meetings", enabled: false })).status).toBe(404);
    expect((await streamsOf(connectorId)).map((s) => s.enabled)).toEqual([true, true]);
    // The last stream synced cannot be stopped: that is what Pause is for.
    expect((await post({ stream: "transcript_utterances", enabled: false })).status).toBe(200);
    expect(await post({ stream: "meetings", enabled: false })).toEqual({ status: 400, body: { message: STREAM_MESSAGES.lastOne } });
    expect((await streamsOf(connectorId)).map((s) => s.enabled)).toEqual([true, false]);
  });

  it("a sync leaves a stopped stream out; turned back on, a sync of the lookback window is queued at once and fills it", async () => {
    const { connectorId, sourceId, folder } = await seedDatagenConnector(t, cookie, { name: "Schema switch", lookbackDays: 1 });
    const off = await call("POST", `/connectors/${connectorId}/streams`, { stream: "transcript_utterances", enabled: false });
    expect(off).toEqual({ status: 200, body: { status: "success", enabled: false, run: null, message: "Transcript lines stopped: syncs leave it out from now on." } });
    // Stopped twice is still stopped, and queues nothing.
    expect((await call("POST", `/connectors/${connectorId}/streams`, { stream: "transcript_utterances", enabled: false })).body.run).toBeNull();

    const first = await waitForRun(connectorId, (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id);
    expect(first).toMatchObject({ status: "succeeded" });
    const expected = [...generateMeetings({ sourceId, company: "Acme Rockets", from: new Date(new Date(first.started_at!).getTime() - 86_400_000), to: new Date(first.started_at!) })];
    expect(first.records).toBe(expected.length);
    expect(await readWarehouse(t, folder, "SELECT count(*)::INT AS n FROM meetings")).toEqual([{ n: expected.length }]);
    expect(await tableCount(folder, "transcript_utterances")).toBe(0);
    // The meetings' files are the meetings stream's: still written.
    expect(filesUnder(path.join(resolveLocalRoot(t.dataDir, folder), "files"))).toHaveLength(expected.length * 2);
    const details = (await call("GET", `/connectors/${connectorId}/runs/${first.id}`)).body.run;
    expect(details.landed[0].location).toContain("tables meetings in");
    expect(details.landed[0].location).not.toContain("transcript_utterances");

    const on = await call("POST", `/connectors/${connectorId}/streams`, { stream: "transcript_utterances", enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, message: "Transcript lines syncs again: a sync of the lookback window is queued." });
    const refill = await waitForRun(connectorId, on.body.run.id);
    expect(refill).toMatchObject({ status: "succeeded", trigger: "manual" });
    const window = [...generateMeetings({ sourceId, company: "Acme Rockets", from: new Date(new Date(refill.started_at!).getTime() - 86_400_000), to: new Date(refill.started_at!) })];
    const lines = window.reduce((n, m) => n + m.utterances.length, 0);
    expect(await readWarehouse(t, folder, "SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d FROM transcript_utterances")).toEqual([{ n: lines, d: lines }]);
    // Turning on a stream that is on queues nothing more.
    const again = await call("POST", `/connectors/${connectorId}/streams`, { stream: "transcript_utterances", enabled: true });
    expect(again.body).toMatchObject({ run: null, message: "Transcript lines syncs again from the next sync, which reads the whole lookback window." });
  });

  it("a paused connector's stream turned back on queues nothing: its next sync reads the window", async () => {
    const { connectorId } = await seedDatagenConnector(t, cookie, { name: "Schema paused" });
    await call("POST", `/connectors/${connectorId}/streams`, { stream: "meetings", enabled: false });
    expect((await call("POST", `/connectors/${connectorId}/pause`)).status).toBe(200);
    const on = await call("POST", `/connectors/${connectorId}/streams`, { stream: "meetings", enabled: true });
    expect(on.body).toMatchObject({ enabled: true, run: null });
    expect((await call("GET", `/connectors/${connectorId}/runs`)).body.runs).toEqual([]);
  });

  it("say how far each stream is synced; Re-sync drops that and queues a sync, refusing what it cannot do with a sentence (issue 52)", async () => {
    const { connectorId } = await seedDatagenConnector(t, cookie, { name: "Schema resync", lookbackDays: 1 });
    expect((await streamsOf(connectorId)).map((s) => s.synced_to)).toEqual([null, null]);
    const first = await waitForRun(connectorId, (await call("POST", `/connectors/${connectorId}/sync`)).body.run.id);
    expect(first).toMatchObject({ status: "succeeded" });
    // A sync reads up to its start: each stream is synced up to then.
    expect((await streamsOf(connectorId)).map((s) => s.synced_to && new Date(s.synced_to).getTime())).toEqual([new Date(first.started_at!).getTime(), new Date(first.started_at!).getTime()]);

    const post = (body: unknown, as = cookie) => api(t, as, "POST", `/connectors/${connectorId}/streams/resync`, body);
    expect(await post({})).toEqual({ status: 400, body: { message: STREAM_MESSAGES.unknown } });
    expect(await post({ stream: "" })).toEqual({ status: 400, body: { message: STREAM_MESSAGES.unknown } });
    expect(await post({ stream: "chat_messages" })).toEqual({ status: 400, body: { message: STREAM_MESSAGES.unknown } });
    expect((await post({ stream: "meetings" }, otherCookie)).status).toBe(404);
    expect((await api(t, cookie, "POST", "/connectors/00000000-0000-4000-8000-000000000000/streams/resync", { stream: "meetings" })).status).toBe(404);
    await call("POST", `/connectors/${connectorId}/streams`, { stream: "transcript_utterances", enabled: false });
    expect(await post({ stream: "transcript_utterances" })).toEqual({ status: 400, body: { message: STREAM_MESSAGES.resyncOff } });
    // None of the refusals touched a state.
    expect((await streamsOf(connectorId))[0]!.synced_to).not.toBeNull();

    const resynced = await post({ stream: "meetings" });
    expect(resynced.status).toBe(200);
    expect(resynced.body).toMatchObject({ status: "success", message: "Meetings is read again: a sync of the whole lookback window is queued." });
    expect((await streamsOf(connectorId))[0]!.synced_to).toBeNull();
    const refill = await waitForRun(connectorId, resynced.body.run.id);
    expect(refill).toMatchObject({ status: "succeeded", trigger: "manual" });
    expect((await streamsOf(connectorId))[0]!.synced_to).not.toBeNull();

    // Paused: nothing is queued; the next sync reads the window.
    expect((await call("POST", `/connectors/${connectorId}/pause`)).status).toBe(200);
    const paused = await post({ stream: "meetings" });
    expect(paused.body).toMatchObject({ run: null, message: "Meetings is read again by the next sync, which reads the whole lookback window." });
    expect((await streamsOf(connectorId))[0]!.synced_to).toBeNull();
  });
});
