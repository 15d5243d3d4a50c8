import { existsSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import { messageFiles, messageRow, PermanentReadError, READABLE_INTEGRATIONS, type EmailMessage } from "../../backend/integrations/sources/index.js";
import { parseVtt, safeId } from "../../backend/integrations/sources/kit/index.js";
import { syncConnector } from "../../backend/sync/index.js";
import type { Meeting } from "../../backend/integrations/sources/records.js";
import { startFakeZoom, type FakeZoom, type FakeZoomRecording } from "../fakes/zoom.js";
import { startFakeMicrosoft, type FakeMicrosoft } from "../fakes/graph.js";
import { startFakeGoogle, type FakeGoogle } from "../fakes/google-admin.js";
import { consentPage, startReadingBackend, warehouse, type ReadingBackend } from "../support/reading.js";

/**
 * Reading real sources against the provider fakes: each source is created
 * through the real API flow (OAuth / admin consent / delegation), then
 * readRecords runs over a window with the backend's own secret key.
 */
const APP_URL = "http://localhost:3999";
const DAY = 86_400_000;
/** The fakes place their meetings and messages a few days before this UTC midnight. */
const ANCHOR = new Date("2026-03-10T00:00:00Z");

let reading: ReadingBackend;
let pool: pg.Pool;

beforeAll(async () => {
  reading = await startReadingBackend(APP_URL);
  ({ pool } = reading);
}, 60_000);
afterAll(async () => {
  await reading?.stop();
});

const call = (method: string, route: string, body?: unknown) => reading.call(method, route, body);
const createSource = (body: Record<string, unknown>) => reading.createSource(body);
const sourceRow = (id: string) => reading.sourceRow(id);
const read = (sourceId: string, window: { from: Date; to: Date }, options?: { meetingsPerDay?: number }) => reading.read(sourceId, window, options);

async function readError(sourceId: string, window: { from: Date; to: Date }): Promise<Error> {
  try {
    await read(sourceId, window);
  } catch (error) {
    return error as Error;
  }
  throw new Error("the read did not fail");
}

/** The records, each checked to be a meeting (it has a transcript) or an e-mail (it has a thread). */
const has = (record: unknown, field: string) => typeof record === "object" && record !== null && field in record;
const meetings = (records: unknown[]): Meeting[] => records.map((r) => (has(r, "utterances") ? (r as Meeting) : expect.unreachable(`a record that is not a meeting: ${JSON.stringify(r)}`)));
const messages = (records: unknown[]): EmailMessage[] => records.map((r) => (has(r, "thread_id") ? (r as EmailMessage) : expect.unreachable(`a record that is not an e-mail: ${JSON.stringify(r)}`)));
const lastDays = (days: number) => ({ from: new Date(ANCHOR.getTime() - days * DAY), to: ANCHOR });
const credentialSecret = async (sourceId: string) => (await pool.query("SELECT c.secret FROM credentials c JOIN sources s ON s.credential_id = c.id WHERE s.id = $1", [sourceId])).rows[0].secret as string;
const sourceStatus = async (sourceId: string) => (await pool.query("SELECT status FROM sources WHERE id = $1", [sourceId])).rows[0].status as string | null;

/**
 * A connector from the source to a new local destination, synced twice over the
 * `days` before ANCHOR by the sync engine itself; answers the first run's result
 * and the destination's folder.
 */
async function syncToLocal(sourceId: string, platform: string, days: number) {
  const { connectorId, root } = await reading.localConnector(sourceId, platform, { lookbackDays: days });
  const first = await syncConnector(reading.services(), connectorId, ANCHOR);
  // Again over the same window (as a backfill of it, which reads its whole range whatever the last sync read): nothing
  // may be there twice.
  const second = await syncConnector(reading.services(), connectorId, ANCHOR, { range: { from: new Date(ANCHOR.getTime() - days * DAY), to: ANCHOR } });
  expect(second.records).toBe(first.records);
  return { first, root };
}


describe("the reader module", () => {
  it("reads every integration the product offers", () => {
    expect(READABLE_INTEGRATIONS).toEqual(["datagen", "zoom", "teams", "gmail", "meet", "outlook"]);
  });

  it("parses Zoom's and Teams' WebVTT", () => {
    expect(parseVtt("WEBVTT\n\n1\n00:00:01.200 --> 00:00:03.700\nJill Chill: Hello: all\n\n2\n00:01:02.000 --> 00:01:04.500\nno speaker here\n")).toEqual([
      { startMs: 1200, endMs: 3700, speaker: "Jill Chill", text: "Hello: all" },
      { startMs: 62000, endMs: 64500, speaker: null, text: "no speaker here" },
    ]);
    expect(parseVtt("WEBVTT\r\n\r\nNOTE a comment\r\n\r\n6a1d/12-0\r\n01:00:00.000 --> 01:00:02.010\r\n<v Adele Vance>Fish &amp; chips</v>\r\n")).toEqual([
      { startMs: 3_600_000, endMs: 3_602_010, speaker: "Adele Vance", text: "Fish & chips" },
    ]);
  });

  it("turns provider ids into file-safe ids, the same every time", () => {
    expect(safeId("4444AAAiAAAAAiAiAiiAii==")).toBe("4444AAAiAAAAAiAiAiiAii");
    expect(safeId("ab/+cd==")).toBe("ab_-cd");
    expect(safeId("18c2f0a1b2c3d4e5")).toBe("18c2f0a1b2c3d4e5");
    expect(safeId("a b")).toMatch(/^[\w-]{32}$/);
    expect(safeId("a b")).toBe(safeId("a b"));
  });

  it("lays an e-mail out as .json and .txt under its day, and as an email_messages row", () => {
    const m: EmailMessage = {
      id: "18c2f0a1b2c3d4e5",
      thread_id: "18c2f0a1b2c3d4e0",
      from: "Sam <sam@acme.example>",
      to: ["lee@acme.example"],
      cc: [],
      subject: "Hi",
      sent_at: new Date("2026-03-08T09:30:00Z"),
      snippet: "Hello",
      body_text: "Hello there",
      labels: ["INBOX"],
      mailbox: "sam@acme.example",
    };
    const files = messageFiles("gmail", "src-1", m);
    expect(files.map((f) => [f.path, f.contentType])).toEqual([
      ["gmail/src-1/2026-03-08/18c2f0a1b2c3d4e5.json", "application/json"],
      ["gmail/src-1/2026-03-08/18c2f0a1b2c3d4e5.txt", "text/plain"],
    ]);
    expect(JSON.parse(files[0]!.body)).toMatchObject({ id: m.id, sent_at: "2026-03-08T09:30:00.000Z", to: ["lee@acme.example"] });
    expect(files[1]!.body).toBe("From: Sam <sam@acme.example>\nTo: lee@acme.example\nSubject: Hi\nDate: 2026-03-08T09:30:00.000Z\n\nHello there\n");
    expect(messageRow("src-1", m)).toMatchObject({ message_id: m.id, source_id: "src-1", thread_id: m.thread_id, mailbox: m.mailbox, from_address: m.from, to_addresses: m.to, sent_at: m.sent_at, body_text: "Hello there" });
  });
});

describe("datagen", () => {
  it("reads the generator's meetings, as the job did", async () => {
    const credential = await call("POST", "/externalauth/datagen/callback", {});
    const id = await createSource({ name: "Gen", credentialId: credential.body.credential_id, integration_name: "datagen", source_metadata: { company: "Acme Rockets", format: "zoom" } });
    const window = lastDays(2);
    const records = await read(id, window, { meetingsPerDay: 3 });
    const expected = [...generateMeetings({ sourceId: id, company: "Acme Rockets", ...window, meetingsPerDay: 3 })];
    expect(expected.length).toBeGreaterThan(2);
    expect(meetings(records).map((m) => m.id)).toEqual(expected.map((m) => m.id));
    expect(meetings(records)[0]!.utterances).toEqual(expected[0]!.utterances);
  });
});

describe("Zoom", () => {
  let zoom: FakeZoom;
  let orgSource: string;
  let groupSource: string;

  const expectedZoom = (window: { from: Date; to: Date }, hosts?: string[]) =>
    zoom.users
      .filter((u) => !hosts || hosts.includes(u.id))
      .flatMap((u) =>
        zoom.recordings
          .filter((r) => r.hostId === u.id && r.cues && r.start >= window.from && r.start < window.to)
          .sort((a, b) => b.start.getTime() - a.start.getTime()),
      );

  async function connect(): Promise<string> {
    const { body } = await call("GET", "/externalauth/zoom/auth_url");
    const back = await consentPage(body.auth_url, "/oauth/authorize", "allow");
    const response = await call("POST", "/externalauth/zoom/callback", { code: back.searchParams.get("code") });
    expect(response.status).toBe(200);
    return response.body.credential_id;
  }

  beforeAll(async () => {
    zoom = await startFakeZoom({ anchor: ANCHOR, maxPageSize: 2 });
    Object.assign(process.env, { ZOOM_CLIENT_ID: zoom.clientId, ZOOM_CLIENT_SECRET: zoom.clientSecret, ZOOM_OAUTH_BASE_URL: zoom.oauthBaseUrl, ZOOM_API_BASE_URL: zoom.apiBaseUrl });
    orgSource = await createSource({ name: "Zoom org", credentialId: await connect(), integration_name: "zoom", source_metadata: { zoom_extraction_scope: "ORG" } });
    groupSource = await createSource({
      name: "Zoom sales",
      credentialId: await connect(),
      integration_name: "zoom",
      source_metadata: { zoom_extraction_scope: "GROUP", zoom_group_id: "grp_sales", zoom_group_name: "Sales" },
    });
  });
  afterAll(async () => {
    await zoom?.close();
  });

  it("reads every user's transcribed recordings in the window, paging through users and recordings", async () => {
    zoom.requests.length = 0;
    const window = lastDays(5);
    const got = meetings(await read(orgSource, window));
    const expected: FakeZoomRecording[] = expectedZoom(window);
    // 3 users × recordings 1 and 2 days back (the one 4 days back has no transcript, the one 9 days back is outside).
    expect(got).toHaveLength(6);
    expect(got.map((m) => m.id)).toEqual(expected.map((r) => safeId(r.uuid)));
    expect(got.some((m) => m.id !== expected.find((r) => safeId(r.uuid) === m.id)!.uuid)).toBe(true); // some UUIDs hold "/", "+" or "="
    for (const [i, m] of got.entries()) {
      const r = expected[i]!;
      expect(m.title).toBe(r.topic);
      expect(m.startedAt.toISOString()).toBe(r.start.toISOString());
      expect(m.utterances.map((u) => [u.speaker.name, u.text, u.startMs, u.endMs])).toEqual(r.cues!.map((c) => [c.speaker, c.text, c.startMs, c.endMs]));
      expect(m.host.name).toBe(r.topic.split(" / ")[0]);
      expect(m.host.affiliation).toBe("Internal");
      expect(m.utterances.find((u) => u.speaker.name.startsWith("Dana"))!.speaker.affiliation).toBe("External");
    }
    expect(got[0]!.utterances).toHaveLength(3);
    expect(got[0]!.utterances[0]!.text).toBe("Welcome everyone, let's get started.");
    // Paging: the fake serves at most 2 per page.
    expect(zoom.requests.filter((r) => r.path === "/v2/users" && r.query?.next_page_token)).toHaveLength(1);
    expect(zoom.requests.filter((r) => r.path.endsWith("/recordings") && r.query?.next_page_token).length).toBeGreaterThanOrEqual(3);
    expect(zoom.requests.filter((r) => r.path.startsWith("/rec/download/"))).toHaveLength(6);
  });

  it("the window filters, and a second read gives the very same ids", async () => {
    const narrow = meetings(await read(orgSource, lastDays(5))).map((m) => m.id);
    const wide = meetings(await read(orgSource, lastDays(10))).map((m) => m.id);
    expect(wide).toHaveLength(9);
    expect(wide.filter((id) => narrow.includes(id))).toEqual(narrow);
    const oneDay = meetings(await read(orgSource, { from: new Date(ANCHOR.getTime() - DAY), to: ANCHOR }));
    expect(oneDay).toHaveLength(3);
    expect(oneDay.every((m) => m.startedAt >= new Date(ANCHOR.getTime() - DAY))).toBe(true);
    expect(meetings(await read(orgSource, lastDays(5))).map((m) => m.id)).toEqual(narrow);
    // 90 days: Zoom lists at most a month per request (the fake refuses more), so the reader asks month by month.
    zoom.requests.length = 0;
    expect(meetings(await read(orgSource, lastDays(90)))).toHaveLength(9);
    const jillRanges = new Set(zoom.requests.filter((r) => r.path === "/v2/users/KDcuGIm1QgePTO8WbOqwIQ/recordings").map((r) => `${r.query!.from}..${r.query!.to}`));
    expect([...jillRanges]).toEqual(["2025-12-09..2026-01-07", "2026-01-08..2026-02-06", "2026-02-07..2026-03-08", "2026-03-09..2026-03-10"]);
  });

  it("a Zoom connector's run writes each transcript once, as .vtt and .txt files and as rows", async () => {
    const expected = meetings(await read(orgSource, lastDays(7)));
    expect(expected.length).toBeGreaterThan(0);
    const { first, root } = await syncToLocal(orgSource, "zoom", 7);
    expect(first.records).toBe(expected.length);
    const rows = await warehouse<{ meeting_id: string; platform: string }>(root, "SELECT meeting_id, platform FROM meetings ORDER BY meeting_id");
    expect(rows.map((r) => r.meeting_id)).toEqual(expected.map((m) => m.id).sort());
    expect(new Set(rows.map((r) => r.platform))).toEqual(new Set(["zoom"]));
    const [lines] = await warehouse<{ n: number; d: number }>(root, "SELECT count(*)::INT AS n, count(DISTINCT utterance_id)::INT AS d FROM transcript_utterances");
    expect(lines).toEqual({ n: expected.reduce((n, m) => n + m.utterances.length, 0), d: expected.reduce((n, m) => n + m.utterances.length, 0) });
    for (const m of expected) {
      const base = path.join(root, "files", "zoom", orgSource, m.startedAt.toISOString().slice(0, 10), m.id);
      expect(existsSync(`${base}.vtt`) && existsSync(`${base}.txt`), base).toBe(true);
    }
  });

  it("a GROUP source reads only the group's members", async () => {
    const got = meetings(await read(groupSource, lastDays(5)));
    expect(got.map((m) => m.id)).toEqual(expectedZoom(lastDays(5), ["KDcuGIm1QgePTO8WbOqwIQ", "z8yCxjabR0e3Rh1yZ-r7Ew"]).map((r) => safeId(r.uuid)));
    expect(got).toHaveLength(4);
    const gone = await createSource({
      name: "Zoom gone",
      credentialId: await connect(),
      integration_name: "zoom",
      source_metadata: { zoom_extraction_scope: "GROUP", zoom_group_id: "grp_gone", zoom_group_name: "Gone" },
    });
    const error = await readError(gone, lastDays(5));
    expect(error).toBeInstanceOf(PermanentReadError);
    expect(error.message).toBe("The Zoom group Gone no longer exists. Edit the source to choose another group.");
  });

  it("an access token Zoom no longer accepts is refreshed with the refresh token and re-sealed", async () => {
    const before = await credentialSecret(orgSource);
    zoom.expireAccessTokens();
    zoom.requests.length = 0;
    expect(meetings(await read(orgSource, lastDays(5)))).toHaveLength(6);
    expect(zoom.requests.filter((r) => r.grantType === "refresh_token")).toHaveLength(1);
    const after = await credentialSecret(orgSource);
    expect(after).not.toBe(before);
    expect(after).not.toMatch(/zat_|zrt_/);
    // The stored token works: the next read needs no refresh.
    zoom.requests.length = 0;
    await read(orgSource, lastDays(1));
    expect(zoom.requests.filter((r) => r.grantType)).toEqual([]);
  });

  it("reads that refresh the same tokens at once refresh them once, and all go on (Zoom revokes a used refresh token)", async () => {
    zoom.setAccessTokenTtl(30); // within a minute of expiry: a read refreshes before its first call
    const sourceId = await createSource({ name: "Zoom, read twice", credentialId: await connect(), integration_name: "zoom", source_metadata: { zoom_extraction_scope: "ORG" } });
    zoom.setAccessTokenTtl(3599);
    zoom.requests.length = 0;
    const refreshes = () => zoom.requests.filter((r) => r.grantType === "refresh_token").length;
    // Two runs (two connectors of one source) find the tokens about to expire.
    const [first, second] = await Promise.all([read(sourceId, lastDays(5)), read(sourceId, lastDays(5))]);
    expect(meetings(first)).toHaveLength(6);
    expect(meetings(second)).toHaveLength(6);
    expect(refreshes()).toBe(1);
    // Zoom refuses the access token both hold: one refreshes, the other takes the tokens it stored.
    zoom.expireAccessTokens();
    zoom.requests.length = 0;
    const [third, fourth] = await Promise.all([read(sourceId, lastDays(5)), read(sourceId, lastDays(5))]);
    expect(meetings(third)).toHaveLength(6);
    expect(meetings(fourth)).toHaveLength(6);
    expect(refreshes()).toBe(1);
    expect((await sourceRow(sourceId)).status).toBe("active");
  });

  it("a 500 is a transient error; a 429 waits out its Retry-After, or fails the attempt when that is too long", async () => {
    zoom.fail({ path: /\/recordings$/, status: 500 });
    const transient = await readError(orgSource, lastDays(5));
    expect(transient).not.toBeInstanceOf(PermanentReadError);
    expect(transient.message).toMatch(/^Zoom answered 500 while trying to list the cloud recordings of jill@example.com \(Internal Error\); the sync will try again\.$/);

    zoom.fail({ path: /\/recordings$/, status: 429, retryAfter: 1 });
    const started = Date.now();
    expect(meetings(await read(orgSource, lastDays(5)))).toHaveLength(6);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);

    zoom.fail({ path: /\/recordings$/, status: 429, retryAfter: 3600 });
    const limited = await readError(orgSource, lastDays(5));
    expect(limited).not.toBeInstanceOf(PermanentReadError);
    expect(limited.message).toBe("Zoom is limiting Tributary's requests (429, retry after 3600 s); the sync will try again later.");
  });

  it("a missing scope (403) is permanent, names what to fix, and marks the source 'error' until a read succeeds", async () => {
    zoom.fail({ path: /\/recordings$/, status: 403, body: { code: 4711, message: "Invalid access token, does not contain scopes:[cloud_recording:read:list_user_recordings:admin]" } });
    const error = await readError(orgSource, lastDays(5));
    expect(error).toBeInstanceOf(PermanentReadError);
    expect(error.message).toBe(
      "Zoom refused to list the cloud recordings of jill@example.com (Invalid access token, does not contain scopes:[cloud_recording:read:list_user_recordings:admin]). The Zoom app needs the scopes user:read:list_users:admin, group:read:list_members:admin, cloud_recording:read:list_user_recordings:admin, cloud_recording:read:recording:admin: have an account admin approve them, then authenticate the Zoom source again.",
    );
    expect(await sourceStatus(orgSource)).toBe("error");
    await read(orgSource, lastDays(1));
    expect(await sourceStatus(orgSource)).toBe("active");
  });

  it("a revoked authorization (the refresh is refused too) is permanent", async () => {
    zoom.revokeAll();
    const error = await readError(groupSource, lastDays(5));
    expect(error).toBeInstanceOf(PermanentReadError);
    expect(error.message).toBe("Zoom no longer accepts Tributary's authorization (Zoom refused the token refresh: Invalid Token!). Authenticate the Zoom source again.");
  });
});

describe("Microsoft Teams", () => {
  let ms: FakeMicrosoft;
  let orgSource: string;
  let teamSource: string;

  const expectedTeams = (window: { from: Date; to: Date }, organizers?: string[]) =>
    ms.users.filter((u) => !organizers || organizers.includes(u.id)).flatMap((u) => ms.transcripts.filter((t) => t.organizerId === u.id && t.created >= window.from && t.created < window.to));

  async function connect(): Promise<string> {
    const { body } = await call("GET", "/externalauth/teams/auth_url");
    const back = await consentPage(body.auth_url, "/organizations/v2.0/adminconsent", "accept");
    const response = await call("POST", "/externalauth/teams/callback", { tenant: back.searchParams.get("tenant"), admin_consent: back.searchParams.get("admin_consent") });
    expect(response.status).toBe(200);
    return response.body.credential_id;
  }

  beforeAll(async () => {
    ms = await startFakeMicrosoft({ anchor: ANCHOR, maxPageSize: 2 });
    Object.assign(process.env, { TEAMS_CLIENT_ID: ms.clientId, TEAMS_CLIENT_SECRET: ms.clientSecret, MICROSOFT_LOGIN_BASE_URL: ms.loginBaseUrl, MICROSOFT_GRAPH_BASE_URL: ms.graphBaseUrl });
    ms.grantPolicy("global");
    const orgCredential = await connect();
    expect((await call("POST", "/externalauth/teams/verify-setup", { credential_id: orgCredential, scope: "ORG" })).body.success).toBe(true);
    orgSource = await createSource({ name: "Teams org", credentialId: orgCredential, integration_name: "teams", source_metadata: { teams_extraction_scope: "ORG" } });
    const teamCredential = await connect();
    const team = ms.teams[0]!;
    expect((await call("POST", "/externalauth/teams/verify-setup", { credential_id: teamCredential, scope: "TEAM", team_id: team.id })).body.success).toBe(true);
    teamSource = await createSource({ name: "Teams sales", credentialId: teamCredential, integration_name: "teams", source_metadata: { teams_extraction_scope: "TEAM", team_id: team.id, team_name: team.displayName } });
  });
  afterAll(async () => {
    await ms?.close();
  });

  it("reads the transcripts of every organizer's meetings in the window through getAllTranscripts, paging with @odata.nextLink", async () => {
    ms.requests.length = 0;
    const window = lastDays(7);
    const got = meetings(await read(orgSource, window));
    const expected = expectedTeams(window);
    // 3 organizers × meetings 1, 3 (transcribed twice) and 6 days back; the one 12 days back is outside.
    expect(got).toHaveLength(12);
    expect(got.map((m) => m.id)).toEqual(expected.map((t) => safeId(t.id)));
    for (const [i, m] of got.entries()) {
      const t = expected[i]!;
      expect(m.title).toBe(t.subject);
      expect(m.startedAt.toISOString()).toBe(t.created.toISOString());
      expect(m.durationMs).toBe(t.ended.getTime() - t.created.getTime());
      expect(m.utterances.map((u) => [u.speaker.name, u.text, u.startMs, u.endMs])).toEqual(t.cues.map((c) => [c.speaker, c.text, c.startMs, c.endMs]));
    }
    const adele = got[0]!;
    expect(adele.host).toMatchObject({ name: "Adele Vance", email: "adele@contoso.example", affiliation: "Internal" });
    expect(adele.participants.map((p) => [p.name, p.affiliation])).toEqual([
      ["Adele Vance", "Internal"],
      ["Kim Guest (Fabrikam)", "External"],
    ]);
    expect(got.flatMap((m) => m.utterances).some((u) => u.text === "Can we review the Q3 numbers & the roadmap?")).toBe(true);
    // The restarted transcription: one meeting, two transcripts, two records with the meeting's subject.
    expect(got.filter((m) => m.title === "Adele Vance: Fabrikam review 2")).toHaveLength(2);
    expect(ms.requests.filter((r) => r.path === "/v1.0/users" && r.query?.$skiptoken)).toHaveLength(1);
    expect(ms.requests.filter((r) => r.path.includes("getAllTranscripts") && r.query?.$skiptoken)).toHaveLength(3);
    expect(ms.requests.filter((r) => r.path.endsWith("/content") && r.query?.$format === "text/vtt")).toHaveLength(12);
  });

  it("the window filters, a second read gives the same ids, and a TEAM source reads only the team's members", async () => {
    const first = meetings(await read(orgSource, lastDays(7))).map((m) => m.id);
    expect(meetings(await read(orgSource, lastDays(7))).map((m) => m.id)).toEqual(first);
    expect(meetings(await read(orgSource, lastDays(2))).map((m) => m.id)).toEqual(expectedTeams(lastDays(2)).map((t) => safeId(t.id)));
    expect(meetings(await read(orgSource, lastDays(2)))).toHaveLength(3);
    expect(meetings(await read(orgSource, lastDays(14)))).toHaveLength(15);
    const team = meetings(await read(teamSource, lastDays(7)));
    expect(team.map((m) => m.id)).toEqual(expectedTeams(lastDays(7), ms.teams[0]!.members).map((t) => safeId(t.id)));
    expect(team).toHaveLength(8);
  });

  it("an expired app token (401) is replaced by a new one from msal and the request tried again", async () => {
    ms.fail({ path: /getAllTranscripts/, status: 401, body: { error: { code: "InvalidAuthenticationToken", message: "Lifetime validation failed, the token is expired." } } });
    ms.requests.length = 0;
    expect(meetings(await read(orgSource, lastDays(7)))).toHaveLength(12);
    expect(ms.requests.filter((r) => r.path === `/${ms.tenantId}/oauth2/v2.0/token`)).toHaveLength(2);
  });

  it("a 500 is transient; a missing application access policy (403) is permanent and says what to do", async () => {
    ms.fail({ path: /\/content$/, status: 500 });
    const transient = await readError(orgSource, lastDays(7));
    expect(transient).not.toBeInstanceOf(PermanentReadError);
    expect(transient.message).toBe("Microsoft Graph answered 500 while trying to read a meeting transcript of adele@contoso.example (An internal server error occurred); the sync will try again.");

    ms.revokePolicies();
    const error = await readError(teamSource, lastDays(7));
    expect(error).toBeInstanceOf(PermanentReadError);
    expect(error.message).toBe(
      "Microsoft Graph refused to list the meeting transcripts of adele@contoso.example (No application access policy found for this app). A Teams administrator must grant Tributary's application access policy to the users in scope (see the source's setup instructions), and the app needs the OnlineMeetings.Read.All and OnlineMeetingTranscript.Read.All permissions with admin consent.",
    );
    expect(await sourceStatus(teamSource)).toBe("error");
    ms.grantPolicy("global");
  });
});

describe("Gmail", () => {
  let google: FakeGoogle;
  let groupSource: string;
  let orgSource: string;
  let individualSource: string;

  const expectedMail = (window: { from: Date; to: Date }, mailboxes: string[]) =>
    [...mailboxes].sort().flatMap((box) =>
      google.messages.filter((m) => m.mailbox === box && m.internalDate >= window.from && m.internalDate < window.to).sort((a, b) => b.internalDate.getTime() - a.internalDate.getTime()),
    );

  async function serviceAccountCredential(): Promise<string> {
    const response = await call("POST", "/externalauth/gmail/callback", { mode: "service_account" });
    expect(response.status).toBe(200);
    return response.body.credential_id;
  }

  beforeAll(async () => {
    google = await startFakeGoogle({ anchor: ANCHOR, maxPageSize: 2 });
    Object.assign(process.env, {
      GMAIL_SERVICE_ACCOUNT_KEY: google.serviceAccountKey,
      GOOGLE_TOKEN_URL: google.tokenUrl,
      GOOGLE_ADMIN_BASE_URL: google.url,
      GMAIL_API_BASE_URL: google.url,
      GMAIL_OAUTH_CLIENT_ID: google.oauthClientId,
      GMAIL_OAUTH_CLIENT_SECRET: google.oauthClientSecret,
      GOOGLE_OAUTH_AUTH_URL: google.authUrl,
    });
    groupSource = await createSource({
      name: "Sales mail",
      credentialId: await serviceAccountCredential(),
      integration_name: "gmail",
      source_metadata: { gmail_extraction_scope: "GROUP", admin_email: "admin@acme.example", gmail_group_id: "03x8tuzt1h1n4bb", gmail_group_email: "sales@acme.example", gmail_group_name: "Sales" },
    });
    orgSource = await createSource({ name: "All mail", credentialId: await serviceAccountCredential(), integration_name: "gmail", source_metadata: { gmail_extraction_scope: "ORG", admin_email: "admin@acme.example" } });
    // INDIVIDUAL: Sam signs in with Google; the access token lives a minute, so every use refreshes it first.
    google.setAccessTokenTtl(60);
    const { body } = await call("GET", "/externalauth/gmail/auth_url");
    const back = await consentPage(body.auth_url, "/o/oauth2/v2/auth", "allow");
    const signedIn = await call("POST", "/externalauth/gmail/callback", { code: back.searchParams.get("code") });
    expect(signedIn.status).toBe(200);
    expect((await call("POST", "/externalauth/gmail/test_connection", { credential_id: signedIn.body.credential_id })).body.status).toBe("success");
    individualSource = await createSource({ name: "Sam's mail", credentialId: signedIn.body.credential_id, integration_name: "gmail", source_metadata: { gmail_extraction_scope: "INDIVIDUAL", gmail_auth_mode: "individual" } });
  });
  afterAll(async () => {
    await google?.close();
  });

  it("reads the group members' mailboxes through domain-wide delegation, every MIME shape decoded, paging messages and members", async () => {
    google.requests.length = 0;
    const window = lastDays(5);
    const got = messages(await read(groupSource, window));
    const expected = expectedMail(window, ["sam@acme.example", "lee@acme.example"]);
    // 2 members × messages 6 hours and 1, 2, 3 days back (the one 8 days back is outside).
    expect(got).toHaveLength(8);
    expect(got.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    for (const [i, m] of got.entries()) {
      const e = expected[i]!;
      expect(m).toEqual({
        id: e.id,
        thread_id: e.threadId,
        from: e.from,
        to: e.to,
        cc: e.cc,
        subject: e.subject,
        sent_at: e.internalDate,
        snippet: e.text.replace(/\s+/g, " ").slice(0, 60),
        body_text: e.text,
        labels: e.labelIds,
        mailbox: e.mailbox,
      });
    }
    const lee = got.filter((m) => m.mailbox === "lee@acme.example");
    expect(lee.map((m) => m.body_text)).toEqual([
      "Hi lee,\n\nThe renewal quote is attached to the thread. Let me know by Friday.\n\nThanks",
      "Hello lee\nAgenda:\n- Pricing & seats\n- Security review\nSee you <soon>",
      "lee, the signed order form is in the PDF.",
      "Café meeting moved to 3pm, lee.",
    ]);
    expect(lee[1]!.to).toEqual(['"Buyer, Globex" <customer1@globex.example>', "ops@globex.example"]);
    expect(lee[1]!.cc).toEqual(["finance@acme.example"]);
    expect(lee[1]!.thread_id).toBe(lee[0]!.id);
    // Delegation: the admin lists the members, then each mailbox is read as its owner.
    expect(google.requests.filter((r) => r.path === "/token").map((r) => r.subject)).toEqual(["admin@acme.example", "lee@acme.example", "sam@acme.example"]);
    expect(google.requests.filter((r) => r.path.endsWith("/messages") && r.query?.pageToken)).toHaveLength(2);
    const q = google.requests.find((r) => r.path.endsWith("/messages"))!.query!.q!;
    expect(q).toBe(`after:${window.from.getTime() / 1000 - 1} before:${window.to.getTime() / 1000 + 1}`);
  });

  it("a Gmail connector's run writes each message once, as .json and .txt files and as email_messages rows", async () => {
    const expected = messages(await read(groupSource, lastDays(7)));
    expect(expected.length).toBeGreaterThan(0);
    const { first, root } = await syncToLocal(groupSource, "gmail", 7);
    expect(first.records).toBe(expected.length);
    const rows = await warehouse<{ message_id: string }>(root, "SELECT message_id FROM email_messages ORDER BY message_id");
    expect(rows.map((r) => r.message_id)).toEqual(expected.map((m) => m.id).sort());
    expect(await warehouse(root, "SELECT table_name FROM information_schema.tables WHERE table_name IN ('meetings', 'transcript_utterances')")).toEqual([]);
  });

  it("an ORG source reads every user of the Workspace; the window filters; a second read gives the same ids", async () => {
    const all = ["admin@acme.example", "sam@acme.example", "lee@acme.example"];
    const got = messages(await read(orgSource, lastDays(5)));
    expect(got.map((m) => m.id)).toEqual(expectedMail(lastDays(5), all).map((m) => m.id));
    expect(got).toHaveLength(12);
    expect(messages(await read(orgSource, lastDays(5))).map((m) => m.id)).toEqual(got.map((m) => m.id));
    const recent = messages(await read(orgSource, lastDays(1)));
    expect(recent).toHaveLength(6); // 6 hours and 1 day (plus a few minutes) back, in each of the 3 mailboxes
    expect(recent.every((m) => m.sent_at >= new Date(ANCHOR.getTime() - DAY))).toBe(true);
    expect(messages(await read(orgSource, lastDays(10)))).toHaveLength(15);
    const files = messageFiles("gmail", orgSource, got[0]!);
    expect(files[0]!.path).toBe(`gmail/${orgSource}/${got[0]!.sent_at.toISOString().slice(0, 10)}/${got[0]!.id}.json`);
  });

  it("INDIVIDUAL reads the signed-in user's own mailbox, refreshing the expired access token and storing the new one", async () => {
    const before = await credentialSecret(individualSource);
    google.setAccessTokenTtl(3599);
    google.requests.length = 0;
    const got = messages(await read(individualSource, lastDays(5)));
    expect(got.map((m) => m.id)).toEqual(expectedMail(lastDays(5), ["sam@acme.example"]).map((m) => m.id));
    expect(got.every((m) => m.mailbox === "sam@acme.example")).toBe(true);
    expect(google.requests.filter((r) => r.grantType === "refresh_token")).toHaveLength(1);
    expect(google.requests.filter((r) => r.path.startsWith("/gmail/v1/users/me/messages")).length).toBeGreaterThan(4);
    const after = await credentialSecret(individualSource);
    expect(after).not.toBe(before);
    expect(after).not.toMatch(/ya29|1\/\/0g/);
    // The new token lives an hour: the next read uses it as it is.
    google.requests.length = 0;
    await read(individualSource, lastDays(1));
    expect(google.requests.filter((r) => r.grantType)).toEqual([]);
  });

  it("a 500 is transient (the client's own retries are off); a 429 waits out its Retry-After", async () => {
    google.fail({ path: /\/messages\/[^/]+$/, status: 500 });
    const transient = await readError(groupSource, lastDays(5));
    expect(transient).not.toBeInstanceOf(PermanentReadError);
    expect(transient.message).toBe("Google answered 500 while trying to read a message of the mailbox lee@acme.example (Internal error encountered); the sync will try again.");
    google.fail({ path: /\/messages$/, status: 429, retryAfter: 1 });
    const started = Date.now();
    expect(messages(await read(groupSource, lastDays(5)))).toHaveLength(8);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("a missing scope (403) or a withdrawn delegation is permanent and says what to fix", async () => {
    google.fail({ path: /\/messages$/, status: 403, body: { error: { code: 403, message: "Request had insufficient authentication scopes.", status: "PERMISSION_DENIED" } } });
    const scope = await readError(groupSource, lastDays(5));
    expect(scope).toBeInstanceOf(PermanentReadError);
    expect(scope.message).toBe(
      "Google refused to list the messages of the mailbox lee@acme.example (Request had insufficient authentication scopes). A Workspace super administrator must grant Tributary's service account domain-wide delegation for https://www.googleapis.com/auth/gmail.readonly (Admin console → Security → API controls → Domain-wide delegation), and lee@acme.example must still be an active user of the Workspace.",
    );
    google.setDelegationGranted(false);
    const withdrawn = await readError(orgSource, lastDays(5));
    expect(withdrawn).toBeInstanceOf(PermanentReadError);
    expect(withdrawn.message).toMatch(/^Google refused to list the Workspace's users \(Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested\)\. A Workspace super administrator must grant Tributary's service account domain-wide delegation for https:\/\/www\.googleapis\.com\/auth\/admin\.directory\.user\.readonly /);
    expect(await sourceStatus(orgSource)).toBe("error");
    google.setDelegationGranted(true);
  });
});
