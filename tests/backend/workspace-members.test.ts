import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { startSmtpServer } from "../fakes/smtp.js";
import { createApiKey } from "../../backend/db/api-keys.js";
import { datagenSourceBody, publicApi } from "../support/public-api.js";
import { WORKSPACE_MESSAGES as M } from "../../contract/workspaces.js";

/**
 * Members and invitations (issue 51 item 3), through the session backend as the web server calls it, with a real SMTP
 * server receiving the invitations: an invitation is a link that works once, for 7 days, for a sign-in with the address
 * it was sent to; revoked, resent (the old link dies), used, expired, opened by another address or tampered with, it is
 * refused with a sentence and nobody joins. Removing a member and leaving; the last member stays; a removed member's
 * keys stop; a link to a record of another workspace of theirs switches there, of one that is not theirs is a 404.
 */
let t: TestBackend;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
type Person = { userId: string; cookie: string };
let ada: Person;
let ben: Person;
let eve: Person;

const tokenOf = (link: string) => decodeURIComponent(new URL(link).pathname.split("/").pop()!);
const members = async (p: Person) => ((await api(t, p.cookie, "GET", "/workspace/members")).body as { members: { email: string }[] }).members.map((m) => m.email);
const current = async (p: Person) => ((await api(t, p.cookie, "GET", "/workspaces")).body as { current: { name: string } }).current.name;
const membershipCount = async () => Number((await t.db.query<{ n: string }>("SELECT count(*) AS n FROM workspace_members")).rows[0]!.n);

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestBackend({ env: { NODE_ENV: "test", SMTP_URL: smtp.url } });
  ada = await createUserSession(t, "ada@example.com", "Ada Lovelace");
  ben = await createUserSession(t, "Ben@Example.com", "Ben Okafor");
  eve = await createUserSession(t, "eve@example.com", "Eve Adams");
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

describe("invitations", () => {
  it("Ada invites Ben by e-mail; the link works once, for his address only, and he works in her workspace after", async () => {
    const sent = await api(t, ada.cookie, "POST", "/workspace/invitations", { email: "ben@example.com" });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toBe(M.invited("ben@example.com"));
    expect(sent.body.mailed).toBe(true);
    const mail = await smtp.waitFor((m) => m.to.includes("ben@example.com"));
    expect(mail.subject).toBe("Ada Lovelace invited you to Ada Lovelace's workspace on Tributary");
    expect(mail.text).toContain(sent.body.link);
    const token = tokenOf(sent.body.link);

    // Listed as pending on Ada's page; inviting the same address again is refused at the field.
    const page = (await api(t, ada.cookie, "GET", "/workspace/members")).body;
    expect(page.invitations).toMatchObject([{ email: "ben@example.com", invited_by: "Ada Lovelace", status: "pending" }]);
    expect(await api(t, ada.cookie, "POST", "/workspace/invitations", { email: "BEN@example.com" })).toEqual({
      status: 409,
      body: { message: M.alreadyInvited("ben@example.com"), field: "email" },
    });

    // Eve has the link but not the address: refused, nobody joins.
    const before = await membershipCount();
    expect(await api(t, eve.cookie, "POST", "/invitations/check", { token })).toEqual({ status: 403, body: { message: M.invitationOtherAddress("ben@example.com") } });
    expect(await api(t, eve.cookie, "POST", "/invitations/accept", { token })).toEqual({ status: 403, body: { message: M.invitationOtherAddress("ben@example.com") } });
    // Tampered: one character changed.
    const tampered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect(await api(t, ben.cookie, "POST", "/invitations/accept", { token: tampered })).toEqual({ status: 404, body: { message: M.invitationInvalid } });
    expect(await membershipCount()).toBe(before);

    // Ben (signed in as Ben@Example.com: the address in any case) sees the offer, accepts, and works there.
    expect((await api(t, ben.cookie, "POST", "/invitations/check", { token })).body).toMatchObject({ workspace: { name: "Ada Lovelace's workspace" }, invited_by: "Ada Lovelace", email: "ben@example.com" });
    expect(await api(t, ben.cookie, "POST", "/invitations/accept", { token })).toMatchObject({ status: 200, body: { message: M.joined("Ada Lovelace's workspace") } });
    expect(await current(ben)).toBe("Ada Lovelace's workspace");
    expect(await members(ada)).toEqual(["ada@example.com", "Ben@Example.com"]);
    expect((await api(t, ada.cookie, "GET", "/workspace/members")).body.invitations).toEqual([]);

    // Used: a second use is refused, and inviting a member is refused too.
    expect(await api(t, ben.cookie, "POST", "/invitations/accept", { token })).toEqual({ status: 409, body: { message: M.invitationUsed } });
    expect(await api(t, ada.cookie, "POST", "/workspace/invitations", { email: "ben@example.com" })).toEqual({
      status: 409,
      body: { message: M.alreadyMember("ben@example.com"), field: "email" },
    });
    expect(await membershipCount()).toBe(before + 1);
  });

  it("a revoked, an expired and a resent invitation's old link are refused with their sentences; the resent one works", async () => {
    const eveInvite = (await api(t, ada.cookie, "POST", "/workspace/invitations", { email: "eve@example.com" })).body;
    const first = tokenOf(eveInvite.link);
    const resent = await api(t, ada.cookie, "POST", `/workspace/invitations/${eveInvite.invitation.id}/resend`, {});
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe(M.resent("eve@example.com"));
    expect(tokenOf(resent.body.link)).not.toBe(first);
    expect(await api(t, eve.cookie, "POST", "/invitations/accept", { token: first })).toEqual({ status: 404, body: { message: M.invitationInvalid } });

    // Expired: its expiry moved into the past.
    await t.db.query("UPDATE workspace_invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [eveInvite.invitation.id]);
    expect(await api(t, eve.cookie, "POST", "/invitations/accept", { token: tokenOf(resent.body.link) })).toEqual({ status: 409, body: { message: M.invitationExpired } });
    expect((await api(t, ada.cookie, "GET", "/workspace/members")).body.invitations).toMatchObject([{ email: "eve@example.com", status: "expired" }]);

    // Resent after expiring: a new week; then revoked: refused.
    const again = (await api(t, ada.cookie, "POST", `/workspace/invitations/${eveInvite.invitation.id}/resend`, {})).body;
    expect(await api(t, ada.cookie, "POST", `/workspace/invitations/${eveInvite.invitation.id}/revoke`, {})).toEqual({ status: 200, body: { message: M.revoked("eve@example.com") } });
    expect(await api(t, eve.cookie, "POST", "/invitations/accept", { token: tokenOf(again.link) })).toEqual({ status: 409, body: { message: M.invitationRevoked } });
    expect(await members(ada)).not.toContain("eve@example.com");
    // Revoking or resending it again, or another workspace's invitation: not found.
    expect((await api(t, ada.cookie, "POST", `/workspace/invitations/${eveInvite.invitation.id}/revoke`, {})).status).toBe(404);
    expect((await api(t, eve.cookie, "POST", `/workspace/invitations/${eveInvite.invitation.id}/resend`, {})).status).toBe(404);
  });

  it("refuses an empty, a malformed and a missing address, and a token that is not a string, with sentences", async () => {
    for (const body of [{}, { email: "" }, { email: "   " }, { email: "not-an-address" }]) {
      expect(await api(t, ada.cookie, "POST", "/workspace/invitations", body)).toEqual({ status: 400, body: { message: M.emailInvalid, field: "email" } });
    }
    expect((await api(t, ben.cookie, "POST", "/invitations/accept", { token: 42 })).status).toBe(400);
    expect(await api(t, ben.cookie, "POST", "/invitations/accept", { token: "" })).toEqual({ status: 404, body: { message: M.invitationInvalid } });
  });
});

describe("members", () => {
  it("a member edits the shared records; removed, they land in their own workspace, their key stops, the old link answers 404", async () => {
    // Ben (a member since the first test) makes a key and a source in Ada's workspace.
    const adaWorkspace = ada.userId;
    const key = await createApiKey(t.handle.db, adaWorkspace, { name: "Ben's script", scope: "read_write", expiresAt: null, createdBy: ben.userId });
    const made = await publicApi(t)(null, key.token, "POST", "/sources", datagenSourceBody("Team source"));
    expect(made.status).toBe(201);
    const sourceId = (made.raw as { id: string }).id;
    expect((await api(t, ada.cookie, "GET", `/sources/list-by-id/${sourceId}`)).status).toBe(200);

    // Ben cannot remove himself (he leaves instead); Ada removes Ben.
    expect(await api(t, ben.cookie, "POST", `/workspace/members/${ben.userId}/remove`, {})).toEqual({ status: 400, body: { message: M.removeSelf } });
    expect(await api(t, ada.cookie, "POST", `/workspace/members/${ben.userId}/remove`, {})).toEqual({ status: 200, body: { message: M.removed("Ben Okafor") } });
    expect(await current(ben)).toBe("Ben Okafor's workspace");
    expect((await api(t, ben.cookie, "GET", `/sources/list-by-id/${sourceId}`)).status).toBe(404);
    expect((await publicApi(t)(null, key.token, "GET", "/sources")).status).toBe(401);
    expect(await api(t, ben.cookie, "POST", `/workspaces/${adaWorkspace}/switch`, {})).toEqual({ status: 404, body: { message: M.notFound } });
    expect(await api(t, ada.cookie, "POST", `/workspace/members/${ben.userId}/remove`, {})).toEqual({ status: 404, body: { message: M.memberNotFound } });

    // Ada's activity log says who invited, joined, revoked and removed whom (newest first; the record type's filter).
    const log = (await api(t, ada.cookie, "GET", "/activity?type=member")).body.entries as { actor: { name: string }; action: string; record: { name: string } }[];
    expect(log.map((e) => `${e.actor.name} ${e.action} ${e.record.name}`)).toEqual(["Ada Lovelace removed Ben Okafor", "Ben Okafor joined Ben Okafor"]);
    const invitations = (await api(t, ada.cookie, "GET", "/activity?type=invitation")).body.entries as { action: string; record: { name: string } }[];
    expect(invitations.map((e) => `${e.action} ${e.record.name}`)).toEqual([
      "revoked eve@example.com",
      "invitation_resent eve@example.com",
      "invitation_resent eve@example.com",
      "invited eve@example.com",
      "invited ben@example.com",
    ]);
  });

  it("the last member cannot leave; a member who leaves lands in their personal workspace", async () => {
    expect(await api(t, eve.cookie, "POST", "/workspace/leave", {})).toEqual({ status: 409, body: { message: M.lastMember } });
    const made = await api(t, eve.cookie, "POST", "/workspaces", { name: "Research" });
    expect(made).toMatchObject({ status: 201, body: { message: M.created("Research") } });
    expect(await current(eve)).toBe("Research");
    expect(await api(t, eve.cookie, "POST", "/workspaces", { name: "  " })).toEqual({ status: 400, body: { message: M.nameRequired, field: "name" } });
    const link = (await api(t, eve.cookie, "POST", "/workspace/invitations", { email: "ada@example.com" })).body.link as string;
    expect((await api(t, ada.cookie, "POST", "/invitations/accept", { token: tokenOf(link) })).status).toBe(200);
    expect(await current(ada)).toBe("Research");
    // Two members: Eve may leave; then Ada is the last and may not.
    expect(await api(t, eve.cookie, "POST", "/workspace/leave", {})).toEqual({ status: 200, body: { message: M.left("Research") } });
    expect(await current(eve)).toBe("Eve Adams's workspace");
    expect(await api(t, ada.cookie, "POST", "/workspace/leave", {})).toEqual({ status: 409, body: { message: M.lastMember } });
    expect(await api(t, ada.cookie, "PUT", "/workspace", { name: "Research team" })).toMatchObject({ status: 200, body: { message: M.renamed } });
  });

  it("a link to a record of another workspace of theirs switches there; of one that is not theirs it answers 404 and switches nothing", async () => {
    // Ada works in "Research team" (the test before); her personal workspace holds a source of hers.
    const own = await api(t, ada.cookie, "POST", `/workspaces/${ada.userId}/switch`, {});
    expect(own.status).toBe(200);
    const key = await createApiKey(t.handle.db, ada.userId, { name: "own", scope: "read_write", expiresAt: null, createdBy: ada.userId });
    const sourceId = ((await publicApi(t)(null, key.token, "POST", "/sources", datagenSourceBody("Ada's"))).raw as { id: string }).id;
    const research = ((await api(t, ada.cookie, "GET", "/workspaces")).body.workspaces as { id: string; name: string }[]).find((w) => w.name === "Research team")!;
    const version = async () => (await api(t, ada.cookie, "GET", "/validate-session")).headers.get("x-data-version");
    const personalVersion = await version();
    expect((await api(t, ada.cookie, "POST", `/workspaces/${research.id}/switch`, {})).body.message).toBe(M.switched("Research team"));
    // The same session, another workspace: the web server's kept pages of the other never match.
    expect(await version()).not.toBe(personalVersion);

    // The record's own GET: answered from her personal workspace, where she now works.
    const opened = await api(t, ada.cookie, "GET", `/sources/list-by-id/${sourceId}`);
    expect(opened.status).toBe(200);
    expect(opened.body.name).toBe("Ada's");
    expect(await current(ada)).toBe("Ada Lovelace's workspace");

    // The layout's call with the page's record does the same.
    await api(t, ada.cookie, "POST", `/workspaces/${research.id}/switch`, {});
    expect((await api(t, ada.cookie, "GET", `/workspaces?open=sources/${sourceId}`)).body.current.name).toBe("Ada Lovelace's workspace");

    // Ben is not a member there: 404, and he stays where he is.
    expect((await api(t, ben.cookie, "GET", `/sources/list-by-id/${sourceId}`)).status).toBe(404);
    expect((await api(t, ben.cookie, "GET", `/workspaces?open=sources/${sourceId}`)).body.current.name).toBe("Ben Okafor's workspace");
  });
});
