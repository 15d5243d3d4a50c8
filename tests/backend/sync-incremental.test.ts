import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeId } from "../../backend/integrations/sources/kit/index.js";
import { syncConnector } from "../../backend/sync/index.js";
import { startFakeZoom, type FakeZoom, type FakeZoomRecording } from "../fakes/zoom.js";
import { resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { consentPage, startReadingBackend, warehouse, type ReadingBackend } from "../support/reading.js";

/**
 * Issue 52: incremental syncs. The first sync of a connector reads its lookback window; a later one reads from where
 * the last one ended, less the late-arrival overlap (SYNC_OVERLAP_HOURS, 24), and downloads nothing that landed
 * unchanged. The provider fakes count the requests; the sync engine runs as a worker runs it.
 */
const APP_URL = "http://localhost:3998";
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The fakes place their fixtures' meetings and messages a few days before this UTC midnight. */
const ANCHOR = new Date("2026-03-10T00:00:00Z");

let reading: ReadingBackend;
beforeAll(async () => {
  reading = await startReadingBackend(APP_URL);
}, 60_000);
afterAll(async () => {
  await reading?.stop();
});

describe("Zoom", () => {
  let zoom: FakeZoom;
  let sourceId: string;
  let connectorId: string;
  let root: string;
  const services = () => reading.services();
  const resolveRoot = (folder: string) => resolveLocalRoot(reading.dataDir, folder);
  const downloads = () => zoom.requests.filter((r) => r.path.startsWith("/rec/download/"));
  const listings = () => zoom.requests.filter((r) => r.path.endsWith("/recordings"));
  const state = async () =>
    (await reading.pool.query<{ stream: string; synced_to: Date; landed: Record<string, unknown> }>("SELECT stream, synced_to, landed FROM connector_stream_states WHERE connector_id = $1 ORDER BY stream", [connectorId])).rows;
  /** A recording with a transcript of two lines, `hours` after ANCHOR (negative: before), hosted by the user `u`. */
  const recording = (name: string, hours: number, u = 0): FakeZoomRecording => ({
    uuid: createHash("sha256").update(name).digest().subarray(0, 16).toString("base64"),
    meetingNumber: 82000000000 + zoom.recordings.length,
    hostId: zoom.users[u]!.id,
    topic: `${zoom.users[u]!.first_name} / ${name}`,
    start: new Date(ANCHOR.getTime() + hours * HOUR),
    durationMinutes: 30,
    cues: [
      { speaker: `${zoom.users[u]!.first_name} ${zoom.users[u]!.last_name}`, text: `Welcome to ${name}.`, startMs: 1000, endMs: 3000 },
      { speaker: "Dana Customer (Globex)", text: "Thanks, glad to be here.", startMs: 3500, endMs: 6000 },
    ],
  });

  beforeAll(async () => {
    zoom = await startFakeZoom({ anchor: ANCHOR });
    // 200 meetings with transcripts in the 30 days before ANCHOR: the fixture's 9, and 191 more spread over the month.
    for (let i = 0; i < 191; i++) zoom.recordings.push(recording(`history ${i}`, -(30 * 24 - 1) + Math.floor((i * (30 * 24 - 2)) / 191), i % 3));
    Object.assign(process.env, { ZOOM_CLIENT_ID: zoom.clientId, ZOOM_CLIENT_SECRET: zoom.clientSecret, ZOOM_OAUTH_BASE_URL: zoom.oauthBaseUrl, ZOOM_API_BASE_URL: zoom.apiBaseUrl });
    const { body } = await reading.call("GET", "/externalauth/zoom/auth_url");
    const back = await consentPage(body.auth_url, "/oauth/authorize", "allow");
    const credential = await reading.call("POST", "/externalauth/zoom/callback", { code: back.searchParams.get("code") });
    sourceId = await reading.createSource({ name: "Zoom incremental", credentialId: credential.body.credential_id, integration_name: "zoom", source_metadata: { zoom_extraction_scope: "ORG" } });
    ({ connectorId, root } = await reading.localConnector(sourceId, "zoom", { lookbackDays: 30, frequency: "hourly" }));
  });
  afterAll(async () => {
    await zoom?.close();
  });

  it("the first sync reads the 30-day window; the next hour's, with nothing new, downloads no transcript and lists only its overlap", async () => {
    expect(zoom.recordings.filter((r) => r.cues && r.start >= new Date(ANCHOR.getTime() - 30 * DAY))).toHaveLength(200);
    zoom.requests.length = 0;
    const first = await syncConnector(services(), connectorId, ANCHOR);
    expect(first).toMatchObject({ records: 200, incremental: false, items: { new: 200, changed: 0, skipped: 0 } });
    expect(downloads()).toHaveLength(200);
    const saved = await state();
    expect(saved.map((s) => s.stream)).toEqual(["meetings", "transcript_utterances"]);
    expect(saved.every((s) => s.synced_to.getTime() === ANCHOR.getTime())).toBe(true);

    zoom.requests.length = 0;
    const lines: string[] = [];
    const log = { info: (line: string) => lines.push(line), warn: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
    const second = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + HOUR), { log });
    expect(downloads()).toHaveLength(0);
    expect(second.records).toBe(0);
    expect(second.incremental).toBe(true);
    // The meetings of the overlap (the 24 h before the last sync's end) are listed again and skipped, none downloaded.
    const overlap = zoom.recordings.filter((r) => r.cues && r.start.getTime() >= ANCHOR.getTime() - DAY && r.start.getTime() < ANCHOR.getTime() + HOUR);
    expect(overlap.length).toBeGreaterThan(3);
    expect(second.items).toEqual({ new: 0, changed: 0, skipped: overlap.length });
    // The run's log (its page shows it) says what the read did, in words.
    expect(lines).toContain(`Reading Zoom source "Zoom incremental" from ${new Date(ANCHOR.getTime() - DAY).toISOString()} to ${new Date(ANCHOR.getTime() + HOUR).toISOString()} (since the last sync, less 24 h for late arrivals).`);
    expect(lines).toContain(`Items: 0 new, 0 changed, ${overlap.length} skipped as already landed.`);
    // One listing per user (3), of the days around the overlap only, not of the month.
    expect(listings()).toHaveLength(3);
    expect(listings().every((r) => r.query!.from! >= new Date(ANCHOR.getTime() - 2 * DAY).toISOString().slice(0, 10))).toBe(true);
    expect((await state()).every((s) => s.synced_to.getTime() === ANCHOR.getTime() + HOUR)).toBe(true);
  });

  it("a new meeting lands with one download; a transcript ready late lands on the next sync; a changed one is read again", async () => {
    zoom.recordings.push(recording("new one", 1.5));
    zoom.requests.length = 0;
    const third = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 2 * HOUR));
    expect(downloads()).toHaveLength(1);
    expect(third).toMatchObject({ records: 1, items: { new: 1, changed: 0 } });

    // A meeting whose transcript is not ready yet (video only) is not read; once ready, it is.
    const late = recording("ready late", 2.5, 1);
    const cues = late.cues;
    late.cues = null;
    zoom.recordings.push(late);
    zoom.requests.length = 0;
    const fourth = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 3 * HOUR));
    expect(downloads()).toHaveLength(0);
    expect(fourth.records).toBe(0);
    late.cues = cues;
    zoom.requests.length = 0;
    const fifth = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 5 * HOUR));
    expect(downloads()).toHaveLength(1);
    expect(fifth).toMatchObject({ records: 1, items: { new: 1, changed: 0 } });

    // The new meeting's transcript is edited at Zoom (its file's size changes): read again, as changed.
    const edited = zoom.recordings.find((r) => r.topic.endsWith("/ new one"))!;
    edited.cues = [...edited.cues!, { speaker: "Dana Customer (Globex)", text: "One more thing about pricing.", startMs: 7000, endMs: 9000 }];
    zoom.requests.length = 0;
    const sixth = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 6 * HOUR));
    expect(downloads()).toHaveLength(1);
    expect(sixth).toMatchObject({ records: 1, items: { new: 0, changed: 1 } });

    // Every meeting is at the destination once, the edited one with its third line.
    const [meetingRows] = await warehouse<{ n: number; d: number }>(root, "SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
    expect(meetingRows).toEqual({ n: 202, d: 202 });
    const [lines] = await warehouse<{ n: number }>(root, `SELECT count(*)::INT AS n FROM transcript_utterances WHERE meeting_id = '${safeId(edited.uuid)}'`);
    expect(lines!.n).toBe(3);
  });

  it("a sync that fails midway leaves the state where it was, and the next one reads what it missed; a backfill leaves the state alone", async () => {
    const before = await state();
    zoom.recordings.push(recording("after an outage", 6.5, 2));
    zoom.fail({ path: /^\/rec\/download\//, status: 500 });
    await expect(syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 7 * HOUR))).rejects.toThrow(/Zoom answered 500/);
    expect(await state()).toEqual(before);
    zoom.requests.length = 0;
    const retried = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 7 * HOUR));
    expect(downloads()).toHaveLength(1);
    expect(retried).toMatchObject({ records: 1, items: { new: 1 } });

    const after = await state();
    zoom.requests.length = 0;
    const backfill = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 8 * HOUR), { range: { from: new Date(ANCHOR.getTime() - 2 * DAY), to: ANCHOR } });
    expect(backfill.incremental).toBe(false);
    expect(backfill.records).toBe(downloads().length);
    expect(backfill.records).toBeGreaterThan(0);
    expect(await state()).toEqual(after);
  });

  it("Re-sync of a stream, or a stream stopped and turned back on, makes the next sync read the whole window again", async () => {
    const inWindow = (until: Date) => zoom.recordings.filter((r) => r.cues && r.start.getTime() >= until.getTime() - 30 * DAY && r.start.getTime() < until.getTime()).length;
    // The connector is paused so that nothing else runs it: these syncs are the engine's, called here.
    expect((await reading.call("POST", `/connectors/${connectorId}/pause`)).status).toBe(200);
    const streams = async () => (await reading.call("GET", `/connectors/list-by-id/${connectorId}`)).body.streams as { name: string; synced_to: string | null }[];
    expect((await streams()).map((s) => s.synced_to)).toEqual([new Date(ANCHOR.getTime() + 7 * HOUR).toISOString(), new Date(ANCHOR.getTime() + 7 * HOUR).toISOString()]);

    const resync = await reading.call("POST", `/connectors/${connectorId}/streams/resync`, { stream: "transcript_utterances" });
    expect(resync).toEqual({ status: 200, body: { status: "success", run: null, message: "Transcript lines is read again by the next sync, which reads the whole lookback window." } });
    expect((await streams()).map((s) => s.synced_to)).toEqual([new Date(ANCHOR.getTime() + 7 * HOUR).toISOString(), null]);
    zoom.requests.length = 0;
    const until = new Date(ANCHOR.getTime() + 9 * HOUR);
    const whole = await syncConnector(services(), connectorId, until);
    expect(whole.incremental).toBe(false);
    expect(downloads()).toHaveLength(inWindow(until));
    expect(whole.records).toBe(inWindow(until));
    expect((await streams()).every((s) => s.synced_to === until.toISOString())).toBe(true);

    // Stopped: its state stays behind while the other stream syncs on; turned back on, it reads the whole window.
    await reading.call("POST", `/connectors/${connectorId}/streams`, { stream: "transcript_utterances", enabled: false });
    const later = new Date(ANCHOR.getTime() + 10 * HOUR);
    zoom.requests.length = 0;
    expect((await syncConnector(services(), connectorId, later)).incremental).toBe(true);
    expect(downloads()).toHaveLength(0);
    await reading.call("POST", `/connectors/${connectorId}/streams`, { stream: "transcript_utterances", enabled: true });
    zoom.requests.length = 0;
    const back = await syncConnector(services(), connectorId, new Date(ANCHOR.getTime() + 11 * HOUR));
    expect(back.incremental).toBe(false);
    expect(downloads()).toHaveLength(inWindow(new Date(ANCHOR.getTime() + 11 * HOUR)));
  });

  it("a destination added to the connector gets the whole window once, while the first one gets only what is new", async () => {
    const until = new Date(ANCHOR.getTime() + 12 * HOUR);
    const connector = (await reading.call("GET", `/connectors/list-by-id/${connectorId}`)).body;
    const added = await reading.call("POST", "/destinations/create", { name: "Second disk for Zoom", integration_name: "local" });
    const updated = await reading.call("PUT", `/connectors/update/${connectorId}`, {
      name: connector.name,
      description: connector.description,
      source_id: connector.source_id,
      platform: connector.platform,
      frequency: connector.frequency,
      destination_ids: [...connector.destination_ids, added.body.destination.id],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    zoom.recordings.push(recording("with two destinations", 11.5));
    const inWindow = zoom.recordings.filter((r) => r.cues && r.start.getTime() >= until.getTime() - 30 * DAY && r.start.getTime() < until.getTime()).length;
    zoom.requests.length = 0;
    const both = await syncConnector(services(), connectorId, until);
    // The first destination: the one new meeting; the added one: every meeting of the window, the new one included.
    expect(both.landed.find((l) => l.name === "Second disk for Zoom")!.records).toBe(inWindow);
    expect(both.landed.find((l) => l.name !== "Second disk for Zoom")!.records).toBe(1);
    expect(downloads()).toHaveLength(1 + inWindow);
    const second = (await reading.call("GET", `/destinations/list-by-id/${added.body.destination.id}`)).body;
    const [rows] = await warehouse<{ n: number; d: number }>(resolveRoot(second.config.folder), "SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
    expect(rows).toEqual({ n: inWindow, d: inWindow });
    const [first] = await warehouse<{ n: number }>(root, "SELECT count(DISTINCT meeting_id)::INT AS n FROM meetings");
    // The first destination holds every meeting ever synced (some now older than the window), each once.
    expect(first!.n).toBe(zoom.recordings.filter((r) => r.cues).length);

    // From then on both are up to date: the next sync reads only what is new, for both.
    zoom.requests.length = 0;
    const next = await syncConnector(services(), connectorId, new Date(until.getTime() + HOUR));
    expect(next.incremental).toBe(true);
    expect(downloads()).toHaveLength(0);
    expect(next.landed.map((l) => l.records)).toEqual([0, 0]);
  });
});
