import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeId } from "../../backend/integrations/sources/kit/index.js";
import { syncConnector } from "../../backend/sync/index.js";
import { startFakeMicrosoft, type FakeMicrosoft } from "../fakes/graph.js";
import { consentPage, startReadingBackend, warehouse, type ReadingBackend } from "../support/reading.js";

/**
 * Issue 52 for Microsoft Teams: a connector's first sync reads its lookback window through one delta round per
 * organizer (Graph's callTranscript: delta) and saves each round's @odata.deltaLink; a later sync follows those links
 * and gets only the transcripts added since, downloading none that landed unchanged. The fake counts the requests; the
 * sync engine runs as a worker runs it.
 */
const APP_URL = "http://localhost:3996";
const HOUR = 3_600_000;
/** The fake places its fixture's meetings a few days before this UTC midnight. */
const ANCHOR = new Date("2026-03-10T00:00:00Z");
const at = (hours: number) => new Date(ANCHOR.getTime() + hours * HOUR);

let reading: ReadingBackend;
beforeAll(async () => {
  reading = await startReadingBackend(APP_URL);
}, 60_000);
afterAll(async () => {
  await reading?.stop();
});

describe("Microsoft Teams", () => {
  let ms: FakeMicrosoft;
  let connectorId: string;
  let root: string;
  const services = () => reading.services();
  const graphCalls = () => ms.requests.filter((r) => r.path.startsWith("/v1.0/"));
  const deltaCalls = () => ms.requests.filter((r) => r.path.includes("/getAllTranscripts(") && r.path.endsWith("/delta"));
  const windowListings = () => ms.requests.filter((r) => r.path.includes("/getAllTranscripts(") && !r.path.endsWith("/delta"));
  const downloads = () => ms.requests.filter((r) => r.path.endsWith("/content"));
  const meetingReads = () => ms.requests.filter((r) => /\/onlineMeetings\/[^/]+$/.test(r.path) && !r.path.includes("/getAllTranscripts("));
  const state = async () =>
    (
      await reading.pool.query<{ stream: string; synced_to: Date; token: string | null; landed: Record<string, unknown> }>(
        "SELECT stream, synced_to, token, landed FROM connector_stream_states WHERE connector_id = $1 ORDER BY stream",
        [connectorId],
      )
    ).rows;
  /** The saved token: each organizer's delta link. */
  const savedLinks = async (): Promise<Record<string, string>> => JSON.parse((await state())[0]!.token ?? "null");
  const deltaTokenOf = (link: string) => new URL(link).searchParams.get("$deltatoken");
  const inRange = (from: Date, to: Date) => ms.transcripts.filter((t) => t.created >= from && t.created < to);

  beforeAll(async () => {
    ms = await startFakeMicrosoft({ anchor: ANCHOR, maxPageSize: 10 });
    // 60 transcripts in the 30 days before ANCHOR, 20 per organizer: the fixture's 15, and 45 more over the month.
    for (let i = 0; i < 45; i++) ms.addTranscript({ organizerId: ms.users[i % 3]!.id, created: at(-(30 * 24 - 1) + Math.floor((i * (30 * 24 - 2)) / 45)) });
    Object.assign(process.env, { TEAMS_CLIENT_ID: ms.clientId, TEAMS_CLIENT_SECRET: ms.clientSecret, MICROSOFT_LOGIN_BASE_URL: ms.loginBaseUrl, MICROSOFT_GRAPH_BASE_URL: ms.graphBaseUrl });
    ms.grantPolicy("global");
    const { body } = await reading.call("GET", "/externalauth/teams/auth_url");
    const back = await consentPage(body.auth_url, "/organizations/v2.0/adminconsent", "accept");
    const credential = await reading.call("POST", "/externalauth/teams/callback", { tenant: back.searchParams.get("tenant"), admin_consent: back.searchParams.get("admin_consent") });
    expect(credential.status).toBe(200);
    expect((await reading.call("POST", "/externalauth/teams/verify-setup", { credential_id: credential.body.credential_id, scope: "ORG" })).body.success).toBe(true);
    const sourceId = await reading.createSource({ name: "Teams incremental", credentialId: credential.body.credential_id, integration_name: "teams", source_metadata: { teams_extraction_scope: "ORG" } });
    ({ connectorId, root } = await reading.localConnector(sourceId, "teams", { lookbackDays: 30, frequency: "hourly" }));
  });
  afterAll(async () => {
    await ms?.close();
  });

  it("the first sync reads the 30-day window through one delta round per organizer; the next hour's, with nothing new, follows the saved links and downloads nothing", async () => {
    expect(inRange(at(-30 * 24), ANCHOR)).toHaveLength(60);
    ms.requests.length = 0;
    const first = await syncConnector(services(), connectorId, ANCHOR);
    expect(first).toMatchObject({ records: 60, incremental: false, items: { new: 60, changed: 0, skipped: 0 } });
    expect(downloads()).toHaveLength(60);
    // Each organizer's round starts at the window's start and takes two pages of 10; no windowed listing.
    expect(deltaCalls()).toHaveLength(6);
    expect(deltaCalls().filter((r) => !r.query?.$skiptoken)).toEqual(
      ms.users.map((u) => expect.objectContaining({ path: `/v1.0/users/${u.id}/onlineMeetings/getAllTranscripts(meetingOrganizerUserId='${u.id}',startDateTime=${at(-30 * 24).toISOString()})/delta` })),
    );
    expect(windowListings()).toHaveLength(0);
    const saved = await state();
    expect(saved.map((s) => s.stream)).toEqual(["meetings", "transcript_utterances"]);
    expect(saved.every((s) => s.synced_to.getTime() === ANCHOR.getTime() && s.token === saved[0]!.token)).toBe(true);
    const links = await savedLinks();
    expect(Object.keys(links).sort()).toEqual(ms.users.map((u) => u.id).sort());
    expect(Object.values(links).every((link) => link.startsWith(ms.graphBaseUrl) && deltaTokenOf(link))).toBe(true);

    ms.requests.length = 0;
    const second = await syncConnector(services(), connectorId, at(1));
    expect(second).toMatchObject({ records: 0, incremental: true, items: { new: 0, changed: 0, skipped: 0 } });
    expect(downloads()).toHaveLength(0);
    expect(meetingReads()).toHaveLength(0);
    expect(windowListings()).toHaveLength(0);
    // One request per organizer, its saved link, and the users' listing: nothing else of Graph.
    expect(deltaCalls().map((r) => r.query?.$deltatoken)).toEqual(ms.users.map((u) => deltaTokenOf(links[u.id]!)));
    expect(graphCalls()).toHaveLength(1 + ms.users.length);
    expect((await state()).every((s) => s.synced_to.getTime() === at(1).getTime())).toBe(true);
    expect(Object.keys(await savedLinks())).toHaveLength(ms.users.length);
  });

  it("a new transcript lands with one download; one Graph makes ready late, for a meeting days before the first sync, lands on the next", async () => {
    const fresh = ms.addTranscript({ organizerId: ms.users[0]!.id, created: at(1.5) });
    ms.requests.length = 0;
    const third = await syncConnector(services(), connectorId, at(2));
    expect(third).toMatchObject({ records: 1, incremental: true, items: { new: 1, changed: 0, skipped: 0 } });
    expect(downloads().map((r) => r.path)).toEqual([expect.stringContaining(`/transcripts/${encodeURIComponent(fresh.id)}/content`)]);
    expect(meetingReads()).toHaveLength(1);
    expect(deltaCalls()).toHaveLength(3);

    // Alex's meeting three days before ANCHOR, transcribed once more, ready only now: long before this sync's window
    // (the last end less the 24 h overlap), which a windowed listing would not reach; the delta link does.
    const meeting = ms.transcripts.find((t) => t.organizerId === ms.users[1]!.id && t.subject.endsWith("review 2"))!;
    const late = ms.addTranscript({ organizerId: ms.users[1]!.id, meetingId: meeting.meetingId, created: new Date(meeting.created.getTime() + 45 * 60_000) });
    expect(late.created.getTime()).toBeLessThan(at(2 - 24).getTime());
    ms.requests.length = 0;
    const fourth = await syncConnector(services(), connectorId, at(3));
    expect(fourth).toMatchObject({ records: 1, items: { new: 1, changed: 0, skipped: 0 } });
    expect(downloads().map((r) => r.path)).toEqual([expect.stringContaining(`/transcripts/${encodeURIComponent(late.id)}/content`)]);
    expect(windowListings()).toHaveLength(0);

    // Every transcript is at the destination once; the late one under its meeting's subject.
    const [rows] = await warehouse<{ n: number; d: number }>(root, "SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d FROM meetings");
    expect(rows).toEqual({ n: 62, d: 62 });
    const [row] = await warehouse<{ title: string }>(root, `SELECT title FROM meetings WHERE meeting_id = '${safeId(late.id)}'`);
    expect(row!.title).toBe(meeting.subject);
  });

  it("saved links Graph no longer holds (410 Gone, syncStateNotFound) fall back to the window's listing; the next sync starts new rounds", async () => {
    ms.expireDeltaLinks();
    const meanwhile = ms.addTranscript({ organizerId: ms.users[2]!.id, created: at(3.5) });
    ms.requests.length = 0;
    const fifth = await syncConnector(services(), connectorId, at(4));
    expect(deltaCalls()).toHaveLength(3);
    expect(deltaCalls().every((r) => r.query?.$deltatoken)).toBe(true);
    // Each organizer's window instead: from the last sync's end less the 24 h overlap, to this one's end.
    const from = at(3 - 24);
    expect(windowListings().map((r) => r.path)).toEqual(ms.users.map((u) => expect.stringContaining(`(meetingOrganizerUserId='${u.id}',startDateTime=${from.toISOString()},endDateTime=${at(4).toISOString()})`)));
    const overlap = inRange(from, at(4)).filter((t) => t !== meanwhile);
    expect(overlap.length).toBeGreaterThan(3);
    // What landed there is skipped without a request; only the new one is downloaded.
    expect(fifth).toMatchObject({ records: 1, items: { new: 1, changed: 0, skipped: overlap.length } });
    expect(downloads()).toHaveLength(1);
    expect(meetingReads()).toHaveLength(1);
    expect(await savedLinks()).toEqual({});

    ms.requests.length = 0;
    const sixth = await syncConnector(services(), connectorId, at(5));
    expect(sixth).toMatchObject({ records: 0, items: { new: 0, changed: 0, skipped: inRange(at(4 - 24), at(5)).length } });
    expect(downloads()).toHaveLength(0);
    expect(windowListings()).toHaveLength(0);
    expect(deltaCalls().map((r) => [r.query?.$deltatoken, r.path.endsWith(`,startDateTime=${at(4 - 24).toISOString()})/delta`)])).toEqual(ms.users.map(() => [undefined, true]));
    expect(Object.keys(await savedLinks()).sort()).toEqual(ms.users.map((u) => u.id).sort());
  });

  it("a sync that fails midway leaves the state as it was, and the retry follows the same links; a backfill leaves the state alone", async () => {
    const before = await state();
    const links = await savedLinks();
    ms.addTranscript({ organizerId: ms.users[0]!.id, created: at(5.5) });
    ms.fail({ path: /\/content$/, status: 500 });
    ms.requests.length = 0;
    await expect(syncConnector(services(), connectorId, at(6))).rejects.toThrow(/Microsoft Graph answered 500/);
    expect(downloads()).toHaveLength(1);
    expect(await state()).toEqual(before);

    ms.requests.length = 0;
    const retried = await syncConnector(services(), connectorId, at(6));
    expect(retried).toMatchObject({ records: 1, items: { new: 1, changed: 0, skipped: 0 } });
    expect(downloads()).toHaveLength(1);
    expect(deltaCalls().map((r) => r.query?.$deltatoken)).toEqual(ms.users.map((u) => deltaTokenOf(links[u.id]!)));
    const after = await state();
    expect(after.every((s) => s.synced_to.getTime() === at(6).getTime())).toBe(true);
    expect(await savedLinks()).not.toEqual(links);

    ms.requests.length = 0;
    const backfill = await syncConnector(services(), connectorId, at(7), { range: { from: at(-2 * 24), to: ANCHOR } });
    expect(backfill.incremental).toBe(false);
    expect(backfill.records).toBe(inRange(at(-2 * 24), ANCHOR).length);
    expect(downloads()).toHaveLength(backfill.records);
    expect(await state()).toEqual(after);
  });
});
