import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { SOURCE_MESSAGES } from "../../contract/sources.js";
import { PermanentReadError } from "../../backend/integrations/sources/index.js";
import { syncConnector } from "../../backend/sync/index.js";
import type { Meeting } from "../../backend/integrations/sources/records.js";
import { MEET_REFUSALS, MEET_SCOPE } from "../../backend/integrations/sources/meet/auth.js";
import { directoryId, speakerName, type FakeConference } from "../fakes/meet.js";
import { startReadingBackend, warehouse, type ReadingBackend } from "../support/reading.js";
import { startMeetFakes, type MeetFakes } from "../support/meet.js";
import { userPostgresDatabase } from "../support/user-postgres.js";

/**
 * Google Meet against the fake Google (Directory) and the fake Meet (REST API v2 and its token endpoint): the setup
 * calls (the service account's callback with the delegation steps, the groups, the test connection and each refusal as
 * a sentence), create, the reader (users in scope, conference records by start time, participants, transcripts and
 * their entries, every page, a conference several users see read once), and syncs to a local destination and to
 * PostgreSQL.
 */
const APP_URL = "http://localhost:3999";
const DAY = 86_400_000;
const ANCHOR = new Date("2026-03-10T00:00:00Z");
const ADMIN = "admin@acme.example";
const SUPPORT_GROUP = "01egqt2p2qcpl9f"; // the fake Google's "Support": admin@acme.example only

let reading: ReadingBackend;
let fakes: MeetFakes;
const saved: Record<string, string | undefined> = {};

const call = (method: string, route: string, body?: unknown) => reading.call(method, route, body);
const lastDays = (days: number) => ({ from: new Date(ANCHOR.getTime() - days * DAY), to: ANCHOR });
const meetings = async (sourceId: string, window: { from: Date; to: Date }) => (await reading.read(sourceId, window)) as Meeting[];
const conference = (seed: "renewal" | "pricing" | "standup" | "kickoff"): FakeConference => fakes.meet.conferences[["renewal", "pricing", "standup", "kickoff"].indexOf(seed)]!;

async function credential(): Promise<string> {
  const response = await call("POST", "/externalauth/meet/callback", {});
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.credential_id;
}

/** A verified credential and a source made with it. */
async function createSource(name: string, metadata: Record<string, unknown>): Promise<string> {
  const credentialId = await credential();
  const groupIds = metadata.meet_extraction_scope === "GROUP" ? [metadata.meet_group_id] : undefined;
  const test = await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: metadata.admin_email, ...(groupIds ? { group_ids: groupIds } : {}) });
  expect(test.body).toMatchObject({ status: "success" });
  return reading.createSource({ name, credentialId, integration_name: "meet", source_metadata: metadata });
}

async function readError(sourceId: string): Promise<Error> {
  try {
    await meetings(sourceId, lastDays(7));
  } catch (error) {
    return error as Error;
  }
  throw new Error("the read did not fail");
}

beforeAll(async () => {
  reading = await startReadingBackend(APP_URL);
  fakes = await startMeetFakes({ anchor: ANCHOR, maxPageSize: 2 });
}, 60_000);
beforeEach(() => {
  for (const [name, value] of Object.entries(fakes.env)) {
    if (!(name in saved)) saved[name] = process.env[name];
    process.env[name] = value;
  }
  fakes.meet.setDelegationGranted(true);
  fakes.google.setDelegationGranted(true);
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await fakes?.close();
  await reading?.stop();
});

describe("Google Meet setup calls", () => {
  it("says which variable to set when the service account is not configured", async () => {
    delete process.env.GMAIL_SERVICE_ACCOUNT_KEY;
    const response = await call("POST", "/externalauth/meet/callback", {});
    expect(response).toEqual({
      status: 409,
      body: { message: "Google Meet is not configured on this server. Set GMAIL_SERVICE_ACCOUNT_KEY in the backend's environment to enable it." },
    });
  });

  it("the callback records Tributary's service account and answers the delegation steps for Meet's scopes, never the key", async () => {
    const response = await call("POST", "/externalauth/meet/callback", {});
    expect(response.status).toBe(200);
    const text = JSON.stringify(response.body);
    expect(text).not.toContain("PRIVATE KEY");
    expect(response.body.setup_verified).toBe(false);
    const codes = response.body.instructions.steps.map((s: { code_block?: string }) => s.code_block ?? "");
    expect(codes).toContain(fakes.google.key.client_id);
    expect(codes.join("\n")).toContain(MEET_SCOPE);
    expect(response.body.instructions.steps.map((s: { title: string }) => s.title)).toContain("Turn on Meet transcripts");
    const { rows } = await reading.pool.query("SELECT metadata, secret FROM credentials WHERE id = $1", [response.body.credential_id]);
    expect(rows[0].secret).toBeNull();
    expect(rows[0].metadata).toMatchObject({ mode: "service_account", service_account_email: fakes.google.key.client_email, client_id: fakes.google.key.client_id });
  });

  it("get-groups lists the Workspace's groups as the admin; a bad body is a 400 with a sentence", async () => {
    const credentialId = await credential();
    const groups = await call("POST", "/externalauth/meet/get-groups", { credential_id: credentialId, admin_email: ADMIN });
    expect(groups).toEqual({
      status: 200,
      body: {
        groups: [
          { id: "03x8tuzt1h1n4bb", name: "Sales", email: "sales@acme.example" },
          { id: SUPPORT_GROUP, name: "Support", email: "support@acme.example" },
        ],
      },
    });
    expect(await call("POST", "/externalauth/meet/get-groups", { credential_id: credentialId })).toEqual({ status: 400, body: { message: SOURCE_MESSAGES.adminEmailRequired } });
    expect(await call("POST", "/externalauth/meet/get-groups", { credential_id: credentialId, admin_email: "nope" })).toEqual({ status: 400, body: { message: SOURCE_MESSAGES.adminEmailInvalid } });
    expect((await call("POST", "/externalauth/meet/get-groups", { credential_id: "00000000-0000-4000-8000-000000000000", admin_email: ADMIN })).status).toBe(404);
  });

  it("test_connection: a delegation not granted, an admin of another domain, then success; only a verified setup is created", async () => {
    const credentialId = await credential();
    const metadata = { meet_extraction_scope: "ORG", admin_email: ADMIN };
    const create = () => call("POST", "/sources/create", { name: "Meet calls", credentialId, integration_name: "meet", source_metadata: metadata });
    expect(await create()).toMatchObject({ status: 400, body: { message: SOURCE_MESSAGES.mustVerify } });

    fakes.meet.setDelegationGranted(false);
    const refused = await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: ADMIN });
    expect(refused).toEqual({ status: 200, body: { status: "failed", message: MEET_REFUSALS.notGranted(ADMIN) } });
    expect(refused.body.message).toBe(
      "Google refused to let Tributary act as admin@acme.example: the Workspace has not granted Tributary's service account domain-wide delegation for Google Meet (https://www.googleapis.com/auth/meetings.space.readonly). A super administrator must grant it in the Admin console (Security → Access and data control → API controls → Domain-wide delegation), then test again.",
    );
    fakes.meet.setDelegationGranted(true);

    const stranger = await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: "admin@globex.example" });
    expect(stranger).toEqual({
      status: 200,
      body: {
        status: "failed",
        message: "Google does not know admin@globex.example as a user of the Workspace that granted Tributary domain-wide delegation: enter the e-mail of an administrator in the Workspace's own domain.",
      },
    });
    expect(await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId })).toEqual({ status: 400, body: { message: SOURCE_MESSAGES.adminEmailRequired } });
    expect(await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: ADMIN, group_ids: ["nope"] })).toEqual({
      status: 200,
      body: { status: "failed", message: "Google has no group nope in this Workspace." },
    });

    fakes.meet.requests.length = 0;
    const ok = await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: ADMIN });
    expect(ok).toEqual({ status: 200, body: { status: "success", message: "Connected: Tributary can read admin@acme.example's Google Meet conference records through domain-wide delegation." } });
    // A token for the admin with Meet's scope, and one conferenceRecords.list.
    expect(fakes.meet.requests.map((r) => [r.path, r.subject])).toEqual([
      ["/token", ADMIN],
      ["/v2/conferenceRecords", ADMIN],
    ]);
    expect(fakes.meet.requests[1]!.query).toEqual({ pageSize: "1" });

    // Verified for this admin and scope: another admin, or one group, is not covered.
    const other = await call("POST", "/sources/create", { name: "Other", credentialId, integration_name: "meet", source_metadata: { ...metadata, admin_email: "sam@acme.example" } });
    expect(other.body.message).toBe(SOURCE_MESSAGES.mustVerify);
    const group = await call("POST", "/sources/create", { name: "Group", credentialId, integration_name: "meet", source_metadata: { meet_extraction_scope: "GROUP", admin_email: ADMIN, meet_group_id: SUPPORT_GROUP } });
    expect(group.body.message).toBe(SOURCE_MESSAGES.mustVerify);
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "active", integration_name: "meet", source_metadata: { meet_extraction_scope: "ORG", admin_email: ADMIN } });
    const noGroup = await call("POST", "/sources/create", { name: "Group", credentialId, integration_name: "meet", source_metadata: { meet_extraction_scope: "GROUP", admin_email: ADMIN } });
    expect(noGroup.body.message).toBe(SOURCE_MESSAGES.gmailGroupRequired);
  });

  it("a GROUP setup is verified with its group; get-groups as someone who is not an admin is Google's refusal in a sentence", async () => {
    const credentialId = await credential();
    const notAdmin = await call("POST", "/externalauth/meet/get-groups", { credential_id: credentialId, admin_email: "sam@acme.example" });
    expect(notAdmin).toEqual({ status: 502, body: { message: "Google refused to list the Workspace's groups: Not Authorized to access this resource/api." } });
    const metadata = { meet_extraction_scope: "GROUP", admin_email: ADMIN, meet_group_id: SUPPORT_GROUP, meet_group_email: "support@acme.example", meet_group_name: "Support" };
    const test = await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: ADMIN, group_ids: [SUPPORT_GROUP] });
    expect(test.body.status).toBe("success");
    const created = await call("POST", "/sources/create", { name: "Support calls", credentialId, integration_name: "meet", source_metadata: metadata });
    expect(created.status).toBe(201);
    expect(created.body.source_metadata).toMatchObject(metadata);
  });

  it("a revoked delegation: the test says so, the source turns 'error', and a sync's read fails for good with that sentence", async () => {
    const sourceId = await createSource("Revoked calls", { meet_extraction_scope: "ORG", admin_email: ADMIN });
    const { rows } = await reading.pool.query("SELECT credential_id FROM sources WHERE id = $1", [sourceId]);
    const credentialId = rows[0].credential_id as string;
    fakes.meet.revoke();
    const error = await readError(sourceId);
    expect(error).toBeInstanceOf(PermanentReadError);
    expect(error.message).toBe(MEET_REFUSALS.revoked(ADMIN));
    const test = await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: ADMIN });
    expect(test.body).toEqual({ status: "failed", message: MEET_REFUSALS.revoked(ADMIN) });
    // Still revoked, said the same way, after a failed test.
    expect((await call("POST", "/externalauth/meet/test_connection", { credential_id: credentialId, admin_email: ADMIN })).body.message).toBe(MEET_REFUSALS.revoked(ADMIN));
    expect((await reading.sourceRow(sourceId)).status).toBe("error");
    expect(MEET_REFUSALS.revoked(ADMIN)).toBe(
      "Google no longer lets Tributary act as admin@acme.example: the Workspace's domain-wide delegation for Google Meet was revoked. A super administrator must grant it again in the Admin console (Security → Access and data control → API controls → Domain-wide delegation).",
    );
  });
});

describe("Google Meet reading", () => {
  let orgSource: string;
  let groupSource: string;

  beforeAll(async () => {
    Object.assign(process.env, fakes.env);
    fakes.meet.setDelegationGranted(true); // the setup calls' last test revoked it
    orgSource = await createSource("All Meet calls", { meet_extraction_scope: "ORG", admin_email: ADMIN });
    groupSource = await createSource("Support calls", {
      meet_extraction_scope: "GROUP",
      admin_email: ADMIN,
      meet_group_id: SUPPORT_GROUP,
      meet_group_email: "support@acme.example",
      meet_group_name: "Support",
    });
  });

  it("reads every user's conferences in the window once, with participants and transcript lines, paging every list", async () => {
    fakes.meet.requests.length = 0;
    fakes.google.requests.length = 0;
    const window = lastDays(7);
    const got = await meetings(orgSource, window);
    const [renewal, pricing, standup] = [conference("renewal"), conference("pricing"), conference("standup")];
    // admin's conferences, then lee's, then sam's (newest first each); those seen before are not read again.
    expect(got.map((m) => m.id)).toEqual([renewal.id, pricing.id, standup.id]);
    const [r, p, s] = got as [Meeting, Meeting, Meeting];
    expect(r.title).toBe(`Google Meet ${renewal.space.meetingCode}`);
    expect(r.startedAt).toEqual(renewal.startTime);
    expect(r.durationMs).toBe(30 * 60_000);
    expect(r.account).toBe(ADMIN);
    expect(r.host).toMatchObject({ id: directoryId(ADMIN), name: "Alex Admin", email: ADMIN, affiliation: "Internal" });
    const expectedLines = renewal.transcripts.flat();
    expect(r.utterances.map((u) => [u.index, u.speaker.name, u.text, u.startMs, u.endMs])).toEqual(
      expectedLines.map((line, index) => [index, speakerName(line.speaker), line.text, line.at * 1000, (line.at + line.seconds) * 1000]),
    );
    expect(r.utterances.find((u) => u.speaker.name === "Sam Seller")!.speaker).toMatchObject({ id: directoryId("sam@acme.example"), email: "sam@acme.example", affiliation: "Internal" });
    expect(r.utterances.find((u) => u.speaker.name === "Dana Buyer")!.speaker).toMatchObject({ email: "", affiliation: "External" });
    // Everyone who took part, the phone user who never spoke too.
    expect(r.participants.map((x) => [x.name, x.affiliation]).sort()).toEqual([
      ["+1 415-555-0100", "External"],
      ["Alex Admin", "Internal"],
      ["Dana Buyer", "External"],
      ["Sam Seller", "Internal"],
    ]);
    expect(p.utterances).toHaveLength(12);
    expect(p.host.name).toBe("Lee Engineer");
    expect(p.participants.map((x) => x.name).sort()).toEqual(["Anonymous Jaguar", "Lee Engineer", "Sam Seller"]);
    expect(p.utterances.filter((u) => u.speaker.name === "Anonymous Jaguar").every((u) => u.speaker.affiliation === "External")).toBe(true);
    expect(s.utterances).toEqual([]);
    expect(s.participants.map((x) => x.name).sort()).toEqual(["Lee Engineer", "Sam Seller"]);

    // The admin lists the users; then each user's records are read as that user (domain-wide delegation).
    expect(fakes.google.requests.filter((x) => x.path === "/token").map((x) => x.subject)).toEqual([ADMIN]);
    expect(fakes.meet.requests.filter((x) => x.path === "/token").map((x) => x.subject)).toEqual([ADMIN, "lee@acme.example", "sam@acme.example"]);
    const lists = fakes.meet.requests.filter((x) => x.path === "/v2/conferenceRecords");
    expect(lists[0]!.query.filter).toBe(`start_time>="${window.from.toISOString()}" AND start_time<"${window.to.toISOString()}"`);
    // Pages of two: sam's three conferences twice, the participants (4, 3, 2) twice, twice and once, the pricing call's 12 lines six times.
    expect(lists.filter((x) => x.query.pageToken).map((x) => x.subject)).toEqual(["sam@acme.example"]);
    expect(fakes.meet.count("participants")).toBe(2 + 2 + 1);
    expect(fakes.meet.requests.filter((x) => x.path.endsWith("/entries") && x.path.startsWith(`/v2/${pricing.name}`))).toHaveLength(6);
    // Each conference read once, though sam saw the renewal and the stand-up too.
    expect(fakes.meet.count("spaces")).toBe(3);
    expect(fakes.meet.requests.every((x) => x.status === 200)).toBe(true);
  });

  it("the window filters (from its start, to before its end; an 8-day-old call only in a longer window), a second read gives the same ids, a GROUP source its members' only", async () => {
    const week = (await meetings(orgSource, lastDays(7))).map((m) => m.id);
    expect((await meetings(orgSource, lastDays(7))).map((m) => m.id)).toEqual(week);
    expect((await meetings(orgSource, lastDays(0.5))).map((m) => m.id)).toEqual([conference("renewal").id]);
    // The window's start is in it, its end is not: the pricing call started exactly a day before the anchor.
    expect((await meetings(orgSource, lastDays(1))).map((m) => m.id)).toEqual([conference("renewal").id, conference("pricing").id]);
    expect((await meetings(orgSource, { from: new Date(ANCHOR.getTime() - 2 * DAY), to: conference("pricing").startTime })).map((m) => m.id)).toEqual([conference("standup").id]);
    expect((await meetings(orgSource, lastDays(9))).map((m) => m.id)).toEqual([...week.slice(0, 1), conference("kickoff").id, ...week.slice(1)]);
    fakes.meet.requests.length = 0;
    // Support is the admin alone: the calls the admin organized or joined.
    expect((await meetings(groupSource, lastDays(7))).map((m) => m.id)).toEqual([conference("renewal").id]);
    expect(new Set(fakes.meet.requests.filter((x) => x.path === "/token").map((x) => x.subject))).toEqual(new Set([ADMIN]));
  });

  it("a 500 is transient; a 429 waits out its Retry-After; a 403 is permanent, in Google's words", async () => {
    fakes.meet.fail({ path: "/v2/conferenceRecords", status: 500 });
    const transient = await readError(orgSource);
    expect(transient).not.toBeInstanceOf(PermanentReadError);
    expect(transient.message).toBe(`Google answered 500 while trying to list the Google Meet conference records of ${ADMIN}; the sync will try again.`);
    fakes.meet.fail({ path: "/v2/conferenceRecords", status: 429, retryAfter: 0 });
    expect(await meetings(orgSource, lastDays(7))).toHaveLength(3);
    fakes.meet.fail({ path: /\/participants$/, status: 403 });
    const forbidden = await readError(orgSource);
    expect(forbidden).toBeInstanceOf(PermanentReadError);
    expect(forbidden.message).toBe(`Google refused to list the participants of a Google Meet conference of ${ADMIN}: The caller does not have permission.`);
  });

  it("a connector's run writes each conference once to a local destination: rows of meetings and transcript lines, and .vtt and .txt files", async () => {
    const expected = await meetings(orgSource, lastDays(7));
    const { connectorId, root } = await reading.localConnector(orgSource, "meet", { lookbackDays: 7 });
    const first = await syncConnector(reading.services(), connectorId, ANCHOR);
    const second = await syncConnector(reading.services(), connectorId, ANCHOR, { range: lastDays(7) });
    expect([first.records, second.records]).toEqual([3, 3]);
    const rows = await warehouse<{ meeting_id: string; platform: string; title: string; host_id: string }>(root, "SELECT meeting_id, platform, title, host_id FROM meetings ORDER BY started_at DESC");
    expect(rows).toEqual(expected.map((m) => ({ meeting_id: m.id, platform: "meet", title: m.title, host_id: m.host.id })));
    const lines = await warehouse<{ meeting_id: string; speaker_name: string; text: string; affiliation: string }>(
      root,
      "SELECT meeting_id, speaker_name, text, affiliation FROM transcript_utterances ORDER BY meeting_id, utterance_index",
    );
    const want = expected.flatMap((m) => m.utterances.map((u) => ({ meeting_id: m.id, speaker_name: u.speaker.name, text: u.text, affiliation: u.speaker.affiliation })));
    expect(lines).toEqual(want.sort((a, b) => (a.meeting_id < b.meeting_id ? -1 : a.meeting_id > b.meeting_id ? 1 : 0)));
    const renewal = expected[0]!;
    const base = path.join(root, "files", "meet", orgSource, renewal.startedAt.toISOString().slice(0, 10), renewal.id);
    for (const m of expected) {
      const file = path.join(root, "files", "meet", orgSource, m.startedAt.toISOString().slice(0, 10), m.id);
      expect(existsSync(`${file}.vtt`) && existsSync(`${file}.txt`), file).toBe(true);
    }
    expect(readFileSync(`${base}.vtt`, "utf8")).toContain("00:00:05.000 --> ");
    expect(readFileSync(`${base}.txt`, "utf8")).toContain("Dana Buyer: Great, we love the product");
  });

  it("a connector's run writes the conferences to a PostgreSQL destination", async () => {
    const { target, drop } = await userPostgresDatabase(inject("pgAdminUrl"), "meet");
    try {
      const fields = { host: target.host, port: String(target.port), database: target.database, schema: target.schema, user: target.user };
      const tested = await call("POST", "/externalauth/postgres/test_connection", { ...fields, password: target.password });
      expect(tested.status, JSON.stringify(tested.body)).toBe(200);
      const destination = await call("POST", "/destinations/create", { name: "Meet warehouse", integration_name: "postgres", ...fields, credential_id: tested.body.credential_id, validation_token: tested.body.validation_token });
      expect(destination.status, JSON.stringify(destination.body)).toBe(201);
      const connector = await call("POST", "/connectors/create", {
        first_sync: false,
        name: "Meet to PostgreSQL",
        frequency: "daily",
        source_id: orgSource,
        platform: "meet",
        destination_ids: [destination.body.destination.id],
        lookback_days: 7,
      });
      expect(connector.status, JSON.stringify(connector.body)).toBe(201);
      const run = await syncConnector(reading.services(), connector.body.id, ANCHOR);
      expect(run.records).toBe(3);
      const client = new pg.Client({ ...target });
      await client.connect();
      try {
        const rows = (await client.query("SELECT meeting_id, platform, participants FROM tributary.meetings ORDER BY started_at DESC")).rows;
        expect(rows.map((r) => [r.meeting_id, r.platform])).toEqual([conference("renewal"), conference("pricing"), conference("standup")].map((c) => [c.id, "meet"]));
        expect(rows[0].participants.map((p: { name: string }) => p.name).sort()).toEqual(["+1 415-555-0100", "Alex Admin", "Dana Buyer", "Sam Seller"]);
        const lines = (await client.query("SELECT meeting_id, count(*)::int AS n FROM tributary.transcript_utterances GROUP BY meeting_id ORDER BY n")).rows;
        expect(lines).toEqual([
          { meeting_id: conference("renewal").id, n: 7 },
          { meeting_id: conference("pricing").id, n: 12 },
        ]);
      } finally {
        await client.end();
      }
    } finally {
      await drop();
    }
  });
});
