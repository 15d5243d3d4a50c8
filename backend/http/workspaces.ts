import { Hono, type MiddlewareHandler } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import { findSessionUser } from "../auth/sessions.js";
import { getCookie } from "hono/cookie";
import { SESSION_COOKIE } from "../../contract/auth.js";
import { WORKSPACE_MESSAGES as M, invitationTokenBodySchema, type Invitation } from "../../contract/workspaces.js";
import type { InvitationRow } from "../db/workspaces.js";
import { isRecordKind } from "../db/workspaces.js";
import { memberActor } from "../services/actor.js";
import { parseFields } from "../services/errors.js";
import {
  invitationOffer,
  invite,
  joinWithInvitation,
  leaveWorkspace,
  membersView,
  myWorkspaces,
  newWorkspace,
  openRecordWorkspace,
  removeWorkspaceMember,
  renameCurrentWorkspace,
  resendInvitation,
  switchWorkspace,
  withdrawInvitation,
  type InvitationSent,
} from "../services/workspaces.js";

/**
 * The signed-in member's workspaces (issue 51): the profile menu's list and switch, a new workspace, the Members page
 * (invite, resend, revoke, remove, leave) and the invitation link's check and accept. Session only: an API key acts
 * in its own workspace and cannot change who belongs to it.
 */
export const workspacesRoutes = new Hono<ApiEnv>();

const presentInvitation = (row: InvitationRow, now = Date.now()): Invitation => ({
  id: row.id,
  email: row.email,
  invited_by: row.invitedBy,
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  status: row.expiresAt.getTime() > now ? "pending" : "expired",
});

const presentSent = (sent: InvitationSent, message: string) => ({
  message,
  invitation: presentInvitation(sent.invitation),
  link: sent.link,
  mailed: sent.mailed,
});

/** `?open=connectors/<id>`: the page asked for is a record's; if it is in another workspace of theirs, they work there now. */
const OPEN_RECORD = /^(sources|destinations|connectors|transforms)\/([0-9a-f-]{36})$/i;

workspacesRoutes.get("/workspaces", requireSession, async (c) => {
  const open = OPEN_RECORD.exec(c.req.query("open") ?? "");
  let actor = c.var.actor;
  if (open && isRecordKind(open[1]!)) {
    const switched = await openRecordWorkspace(c.var.services, actor, open[1], open[2]!);
    if (switched) actor = memberActor(actor.userId, switched.id, actor.name);
  }
  return c.json(await myWorkspaces(c.var.services, actor));
});

workspacesRoutes.post("/workspaces", requireSession, async (c) => {
  const made = await newWorkspace(c.var.services, c.var.actor, await jsonBody(c));
  return c.json({ message: M.created(made.name), workspace: made }, 201);
});

workspacesRoutes.post("/workspaces/:id/switch", requireSession, async (c) => {
  const workspace = await switchWorkspace(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ message: M.switched(workspace.name), workspace });
});

workspacesRoutes.put("/workspace", requireSession, async (c) => {
  const workspace = await renameCurrentWorkspace(c.var.services, c.var.actor, await jsonBody(c));
  return c.json({ message: M.renamed, workspace });
});

workspacesRoutes.get("/workspace/members", requireSession, async (c) => {
  const view = await membersView(c.var.services, c.var.actor);
  const now = Date.now();
  return c.json({
    workspace: view.workspace,
    members: view.members.map((m) => ({ id: m.id, name: m.name, email: m.email, joined_at: m.joinedAt.toISOString(), you: m.id === c.var.actor.userId })),
    invitations: view.invitations.map((i) => presentInvitation(i, now)),
  });
});

workspacesRoutes.post("/workspace/invitations", requireSession, async (c) => {
  const sent = await invite(c.var.services, c.var.actor, await jsonBody(c));
  c.header("Cache-Control", "no-store");
  return c.json(presentSent(sent, sent.mailed ? M.invited(sent.invitation.email) : M.invitedNotMailed(sent.invitation.email)), 201);
});

workspacesRoutes.post("/workspace/invitations/:id/resend", requireSession, async (c) => {
  const sent = await resendInvitation(c.var.services, c.var.actor, c.req.param("id"));
  c.header("Cache-Control", "no-store");
  return c.json(presentSent(sent, sent.mailed ? M.resent(sent.invitation.email) : M.invitedNotMailed(sent.invitation.email)));
});

workspacesRoutes.post("/workspace/invitations/:id/revoke", requireSession, async (c) => {
  const invitation = await withdrawInvitation(c.var.services, c.var.actor, c.req.param("id"));
  return c.json({ message: M.revoked(invitation.email) });
});

workspacesRoutes.post("/workspace/members/:userId/remove", requireSession, async (c) => {
  const member = await removeWorkspaceMember(c.var.services, c.var.actor, c.req.param("userId"));
  return c.json({ message: M.removed(member.name) });
});

workspacesRoutes.post("/workspace/leave", requireSession, async (c) => {
  const left = await leaveWorkspace(c.var.services, c.var.actor);
  return c.json({ message: M.left(left.name) });
});

// The link's token travels in a body, never in a path the logs could keep.
workspacesRoutes.post("/invitations/check", requireSession, async (c) => {
  const { token } = parseFields(invitationTokenBodySchema, await jsonBody(c));
  const offer = await invitationOffer(c.var.services, c.var.user.email, token);
  return c.json({ workspace: { id: offer.workspaceId, name: offer.workspaceName }, invited_by: offer.invitedBy, email: offer.email, expires_at: offer.expiresAt.toISOString() });
});

workspacesRoutes.post("/invitations/accept", requireSession, async (c) => {
  const { token } = parseFields(invitationTokenBodySchema, await jsonBody(c));
  const workspace = await joinWithInvitation(c.var.services, c.var.actor, c.var.user.email, token);
  return c.json({ message: M.joined(workspace.name), workspace });
});

/** A record's own GET routes: /sources/list-by-id/:id, /connectors/:id/runs, /transforms/:id … */
const RECORD_PATH = /^\/(sources|destinations|connectors|transforms)\/(?:list-by-id\/)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

/**
 * A link to a record of another workspace the member belongs to opens it (issue 51): a record's GET that answers 404
 * in the workspace they work in switches them to the record's workspace, if it is one of theirs, and is answered again
 * there. Any other 404 stands (a record of a workspace they do not belong to included).
 */
export function openRecordsOfTheirWorkspaces(app: Hono<ApiEnv>): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method !== "GET" || c.res.status !== 404 || c.req.header("x-tributary-reanswered")) return;
    const match = RECORD_PATH.exec(c.req.path);
    const kind = match?.[1];
    if (!match || !kind || !isRecordKind(kind)) return;
    const token = getCookie(c, SESSION_COOKIE);
    const user = token ? await findSessionUser(c.var.services.db, token) : null;
    if (!user) return;
    const switched = await openRecordWorkspace(c.var.services, memberActor(user.id, user.workspaceId, user.name), kind, match[2]!);
    if (!switched) return;
    const headers = new Headers(c.req.raw.headers);
    headers.set("x-tributary-reanswered", "1");
    c.res = await app.fetch(new Request(c.req.raw.url, { method: "GET", headers }), c.env);
  };
}
