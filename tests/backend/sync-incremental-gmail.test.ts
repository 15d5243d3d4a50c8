import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncConnector } from "../../backend/sync/index.js";
import { FAKE_GOOGLE_DEFAULTS, startFakeGoogle, type FakeGoogle } from "../fakes/google-admin.js";
import type { FakeGmailMessage } from "../fakes/gmail.js";
import { startReadingBackend, warehouse, type ReadingBackend } from "../support/reading.js";

/**
 * Issue 52 for Gmail: the first sync of a connector lists its lookback window; a later one reads each mailbox's change
 * feed (users.history.list) from the history id the last one saved, and fetches (users.messages.get) only the messages
 * added since that did not land. A history id Gmail no longer keeps (404) and a new group member are listed as on a
 * first sync. The fake Google counts the requests; the sync engine runs as a worker runs it.
 */
const APP_URL = "http://localhost:3997";
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The fake places its fixture's messages a few days before this UTC midnight. */
const ANCHOR = new Date("2026-03-10T00:00:00Z");
const at = (hours: number) => new Date(ANCHOR.getTime() + hours * HOUR);

const SAM = "sam@acme.example";
const LEE = "lee@acme.example";
const KIM = "kim@acme.example";
/** Sales has Sam and Lee; Kim joins it later. The test's own copy: the fake reads its members as they are now. */
const sales = { id: "03x8tuzt1h1n4bb", email: "sales@acme.example", name: "Sales", directMembersCount: "2", members: [SAM, LEE] };

let reading: ReadingBackend;
let google: FakeGoogle;
let connectorId: string;
let root: string;

const services = () => reading.services();
const gmailRequests = (kind: "fetch" | "list" | "history" | "profile") =>
  google.requests.filter((r) => {
    const path = r.path;
    if (!path.startsWith("/gmail/v1/users/")) return false;
    if (kind === "fetch") return /\/messages\/[^/]+$/.test(path);
    if (kind === "list") return path.endsWith("/messages");
    if (kind === "history") return path.endsWith("/history");
    return path.endsWith("/profile");
  });
const mailboxOf = (r: { path: string }) => decodeURIComponent(r.path.split("/")[4]!);
const state = async () =>
  (await reading.pool.query<{ stream: string; synced_to: Date; token: string | null; landed: Record<string, unknown> }>("SELECT stream, synced_to, token, landed FROM connector_stream_states WHERE connector_id = $1 ORDER BY stream", [connectorId])).rows;
const marks = async () => JSON.parse((await state())[0]!.token!) as Record<string, { historyId: string; pending?: string[] }>;
const members = () => sales.members;
/** The members' messages Gmail lists (no spam) sent in [from, to). */
const mailIn = (from: Date, to: Date) => google.messages.filter((m) => members().includes(m.mailbox) && !m.labelIds.includes("SPAM") && m.internalDate >= from && m.internalDate < to);

beforeAll(async () => {
  reading = await startReadingBackend(APP_URL);
  google = await startFakeGoogle({ anchor: ANCHOR, maxPageSize: 10, users: [...FAKE_GOOGLE_DEFAULTS.users, { email: KIM, admin: false }], groups: [sales] });
  Object.assign(process.env, { GMAIL_SERVICE_ACCOUNT_KEY: google.serviceAccountKey, GOOGLE_TOKEN_URL: google.tokenUrl, GOOGLE_ADMIN_BASE_URL: google.url, GMAIL_API_BASE_URL: google.url });
  // 80 messages more in the month before ANCHOR, 40 in each member's mailbox, on top of the fixture's 5 each.
  for (const [m, mailbox] of [SAM, LEE].entries()) {
    for (let i = 0; i < 40; i++) google.addMessage(mailbox, new Date(ANCHOR.getTime() - 30 * DAY + HOUR + Math.floor((i * (30 * DAY - 2 * HOUR)) / 40) + m * 60_000));
  }
  const credential = await reading.call("POST", "/externalauth/gmail/callback", { mode: "service_account" });
  expect(credential.status).toBe(200);
  const sourceId = await reading.createSource({
    name: "Sales mail incremental",
    credentialId: credential.body.credential_id,
    integration_name: "gmail",
    source_metadata: { gmail_extraction_scope: "GROUP", admin_email: "admin@acme.example", gmail_group_id: sales.id, gmail_group_email: sales.email, gmail_group_name: sales.name },
  });
  ({ connectorId, root } = await reading.localConnector(sourceId, "gmail", { lookbackDays: 30, frequency: "hourly" }));
}, 60_000);
afterAll(async () => {
  await google?.close();
  await reading?.stop();
});

describe("Gmail", () => {
  it("the first sync lists the 30-day window; the next hour's, with nothing new, reads the change feed and fetches no message", async () => {
    const month = mailIn(new Date(ANCHOR.getTime() - 30 * DAY), ANCHOR);
    expect(month).toHaveLength(90);
    google.requests.length = 0;
    const first = await syncConnector(services(), connectorId, ANCHOR);
    expect(first).toMatchObject({ records: 90, incremental: false, items: { new: 90, changed: 0, skipped: 0 } });
    expect(gmailRequests("fetch")).toHaveLength(90);
    expect(gmailRequests("history")).toHaveLength(0);
    // Each member's profile gives the history id to start from next time.
    expect(gmailRequests("profile").map(mailboxOf).sort()).toEqual([LEE, SAM]);
    const saved = await state();
    expect(saved.map((s) => s.stream)).toEqual(["email_messages"]);
    expect(saved[0]!.synced_to.getTime()).toBe(ANCHOR.getTime());
    const firstMarks = await marks();
    expect(Object.keys(firstMarks).sort()).toEqual([LEE, SAM]);
    expect(Object.values(firstMarks).every((m) => /^\d+$/.test(m.historyId) && !m.pending)).toBe(true);

    google.requests.length = 0;
    const second = await syncConnector(services(), connectorId, at(1));
    expect(second).toMatchObject({ records: 0, incremental: true, items: { new: 0, changed: 0, skipped: 0 } });
    expect(gmailRequests("fetch")).toHaveLength(0);
    expect(gmailRequests("list")).toHaveLength(0);
    expect(gmailRequests("profile")).toHaveLength(0);
    // One change-feed read per member, from the history id the first sync saved.
    const history = gmailRequests("history");
    expect(history.map(mailboxOf).sort()).toEqual([LEE, SAM]);
    for (const r of history) {
      expect(r.query).toMatchObject({ startHistoryId: firstMarks[mailboxOf(r)]!.historyId, historyTypes: "messageAdded" });
    }
    expect((await state())[0]!.synced_to.getTime()).toBe(at(1).getTime());
  });

  it("a new message lands with one fetch; one sent after the sync's end lands with the next; spam is left out; the feed is paged", async () => {
    const fresh = google.addMessage(SAM, at(1.5));
    google.requests.length = 0;
    const third = await syncConnector(services(), connectorId, at(2));
    expect(third).toMatchObject({ records: 1, items: { new: 1, changed: 0, skipped: 0 } });
    expect(gmailRequests("fetch").map((r) => [mailboxOf(r), r.path.split("/").pop()])).toEqual([[SAM, fresh.id]]);
    expect(gmailRequests("list")).toHaveLength(0);

    // Lee gets one message sent within the next sync's window and one sent after its end; Sam gets spam.
    const early = google.addMessage(LEE, at(2.5));
    const late = google.addMessage(LEE, at(3.5));
    google.addMessage(SAM, at(2.2), { labelIds: ["SPAM"] });
    google.requests.length = 0;
    const fourth = await syncConnector(services(), connectorId, at(3));
    expect(fourth).toMatchObject({ records: 1, items: { new: 1 } });
    // The spam is not fetched; the late message is, and kept for the next sync, whose change feed starts after it.
    expect(gmailRequests("fetch").map((r) => r.path.split("/").pop()).sort()).toEqual([early.id, late.id].sort());
    expect((await marks())[LEE]!.pending).toEqual([late.id]);
    google.requests.length = 0;
    const fifth = await syncConnector(services(), connectorId, at(4));
    expect(fifth).toMatchObject({ records: 1, items: { new: 1 } });
    expect(gmailRequests("fetch").map((r) => r.path.split("/").pop())).toEqual([late.id]);
    expect((await marks())[LEE]!.pending).toBeUndefined();

    // 12 new messages: more than one page of the change feed (the fake's pages hold 10), each fetched once.
    const burst: FakeGmailMessage[] = [];
    for (let i = 0; i < 12; i++) burst.push(google.addMessage(SAM, new Date(at(4).getTime() + (i + 1) * 60_000)));
    google.requests.length = 0;
    const sixth = await syncConnector(services(), connectorId, at(5));
    expect(sixth).toMatchObject({ records: 12, items: { new: 12 } });
    expect(gmailRequests("fetch")).toHaveLength(12);
    expect(gmailRequests("history").filter((r) => mailboxOf(r) === SAM)).toHaveLength(2);

    // Every message is at the destination once.
    const [rows] = await warehouse<{ n: number; d: number }>(root, "SELECT count(*)::INT AS n, count(DISTINCT message_id)::INT AS d FROM email_messages");
    expect(rows).toEqual({ n: 90 + 1 + 2 + 12, d: 90 + 1 + 2 + 12 });
  });

  it("an expired history id falls back to listing the window, fetching nothing that landed; a message sent after its end lands with the next sync", async () => {
    google.expireHistory();
    const fresh = google.addMessage(SAM, at(5.5));
    // Sent after the sync's end but at Gmail before the sync reads Sam's profile: not in the next change feed.
    const afterEnd = google.addMessage(SAM, at(6.5));
    const window = { from: at(5 - 24), to: at(6) };
    const landed = mailIn(window.from, window.to).filter((m) => m !== fresh);
    expect(landed.length).toBeGreaterThan(15);
    google.requests.length = 0;
    const fallback = await syncConnector(services(), connectorId, at(6));
    expect(fallback).toMatchObject({ records: 1, incremental: true, items: { new: 1, changed: 0, skipped: landed.length } });
    expect(gmailRequests("fetch").map((r) => r.path.split("/").pop())).toEqual([fresh.id]);
    // Each member: the change feed (404), the profile, the window's listing and the listing of what came after its end.
    expect(gmailRequests("history").map(mailboxOf).sort()).toEqual([LEE, SAM]);
    expect(gmailRequests("profile").map(mailboxOf).sort()).toEqual([LEE, SAM]);
    expect([...new Set(gmailRequests("list").filter((r) => r.query!.q!.includes("before:")).map(mailboxOf))].sort()).toEqual([LEE, SAM]);
    expect(gmailRequests("list").filter((r) => !r.query!.q!.includes("before:")).map(mailboxOf).sort()).toEqual([LEE, SAM]);
    expect((await marks())[SAM]!.pending).toEqual([afterEnd.id]);

    google.requests.length = 0;
    const next = await syncConnector(services(), connectorId, at(7));
    expect(next).toMatchObject({ records: 1, items: { new: 1 } });
    expect(gmailRequests("fetch").map((r) => r.path.split("/").pop())).toEqual([afterEnd.id]);
    expect(gmailRequests("list")).toHaveLength(0);
  });

  it("a new group member's mailbox is listed while the others read their change feed", async () => {
    const kims = google.addMessage(KIM, at(7.5));
    sales.members.push(KIM);
    google.requests.length = 0;
    const synced = await syncConnector(services(), connectorId, at(8));
    // Kim's messages in the window (since the last sync's end less 24 h): the fixture's of 6 hours before ANCHOR and the new one.
    const kimsWindow = google.messages.filter((m) => m.mailbox === KIM && m.internalDate >= at(7 - 24) && m.internalDate < at(8));
    expect(kimsWindow.map((m) => m.id)).toContain(kims.id);
    expect(kimsWindow).toHaveLength(2);
    expect(synced).toMatchObject({ records: 2, items: { new: 2, skipped: 0 } });
    expect(gmailRequests("fetch").every((r) => mailboxOf(r) === KIM)).toBe(true);
    expect(gmailRequests("fetch")).toHaveLength(2);
    expect([...new Set(gmailRequests("list").map(mailboxOf))]).toEqual([KIM]);
    expect(gmailRequests("history").map(mailboxOf).sort()).toEqual([LEE, SAM]);
    expect(Object.keys(await marks()).sort()).toEqual([KIM, LEE, SAM]);
  });

  it("a sync that fails midway leaves the state where it was, and the next one fetches what it missed", async () => {
    const before = await state();
    const missed = google.addMessage(LEE, at(8.5));
    google.fail({ path: /\/gmail\/v1\/users\/[^/]+\/messages\/[^/]+$/, status: 500 });
    await expect(syncConnector(services(), connectorId, at(9))).rejects.toThrow(/Google answered 500 while trying to read a message of the mailbox lee@acme\.example/);
    expect(await state()).toEqual(before);
    google.requests.length = 0;
    const retried = await syncConnector(services(), connectorId, at(9));
    expect(retried).toMatchObject({ records: 1, items: { new: 1 } });
    expect(gmailRequests("fetch").map((r) => r.path.split("/").pop())).toEqual([missed.id]);
    const after = await state();
    expect(after[0]!.synced_to.getTime()).toBe(at(9).getTime());
    expect(after[0]!.token).not.toBe(before[0]!.token);
    const [rows] = await warehouse<{ n: number; d: number }>(root, "SELECT count(*)::INT AS n, count(DISTINCT message_id)::INT AS d FROM email_messages");
    expect(rows!.n).toBe(rows!.d);
  });
});
