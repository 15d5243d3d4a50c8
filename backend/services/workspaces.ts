import {
  acceptInvitation,
  createWorkspace,
  findInvitation,
  findInvitationByTokenHash,
  findMemberWorkspace,
  findOpenInvitationTo,
  insertInvitation,
  isMemberByEmail,
  listMembers,
  listOpenInvitations,
  listUserWorkspaces,
  removeMember,
  renameWorkspace,
  renewInvitation,
  revokeInvitation,
  setCurrentWorkspace,
  switchToRecordWorkspace,
  type InvitationRow,
  type MemberRow,
  type RecordKind,
  type WorkspaceRow,
} from "../db/workspaces.js";
import { createWorkspaceBodySchema, INVITATION_DAYS, inviteBodySchema, renameWorkspaceBodySchema, WORKSPACE_MESSAGES as M } from "../../contract/workspaces.js";
import { randomToken, sha256 } from "../lib/crypto.js";
import { defaultFrom, sendEmail } from "../alerts/email.js";
import type { Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { conflict, forbidden, invalid, notFound, parseFields } from "./errors.js";
import { recordActivity } from "./activity.js";

/**
 * Workspaces, members and invitations (issue 51): the use cases of the Members page, the profile menu's switcher and
 * the invitation link. A member acts on the workspace they work in (actor.ownerId); the session edge only.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where the member works now and every workspace they belong to. */
export async function myWorkspaces(deps: Services, actor: Actor): Promise<{ current: WorkspaceRow; workspaces: WorkspaceRow[] }> {
  const all = await listUserWorkspaces(deps.db, actor.userId);
  const current = all.find((w) => w.id === actor.ownerId);
  // The session query answers a workspace the user belongs to; one they left this instant is not listed any more.
  if (!current) throw notFound(M.notFound);
  return { current, workspaces: all };
}

/** Works in another workspace of theirs from now on (remembered across sessions). Not found unless they belong to it. */
export async function switchWorkspace(deps: Services, actor: Actor, workspaceId: string): Promise<WorkspaceRow> {
  const found = await findMemberWorkspace(deps.db, actor.userId, workspaceId);
  if (!found || !(await setCurrentWorkspace(deps.db, actor.userId, found.id))) throw notFound(M.notFound);
  return found;
}

/** A link to a record of another workspace of theirs: switches there (null: no such record of theirs anywhere else). */
export const openRecordWorkspace = (deps: Services, actor: Actor, kind: RecordKind, id: string) => switchToRecordWorkspace(deps.db, actor.userId, actor.ownerId, kind, id);

export async function newWorkspace(deps: Services, actor: Actor, raw: unknown): Promise<WorkspaceRow> {
  const { name } = parseFields(createWorkspaceBodySchema, raw);
  const made = await createWorkspace(deps.db, actor.userId, name);
  await recordActivity(deps, { ...actor, ownerId: made.id }, "created", { type: "workspace", id: made.id, name: made.name });
  return made;
}

export async function renameCurrentWorkspace(deps: Services, actor: Actor, raw: unknown): Promise<WorkspaceRow> {
  const { name } = parseFields(renameWorkspaceBodySchema, raw);
  const renamed = await renameWorkspace(deps.db, actor.ownerId, name);
  if (!renamed) throw notFound(M.notFound);
  await recordActivity(deps, actor, "updated", { type: "workspace", id: renamed.id, name: renamed.name });
  return renamed;
}

export interface MembersView {
  workspace: WorkspaceRow;
  members: MemberRow[];
  invitations: InvitationRow[];
}

export async function membersView(deps: Services, actor: Actor): Promise<MembersView> {
  const workspace = await findMemberWorkspace(deps.db, actor.userId, actor.ownerId);
  if (!workspace) throw notFound(M.notFound);
  const [members, invitations] = await Promise.all([listMembers(deps.db, actor.ownerId), listOpenInvitations(deps.db, actor.ownerId)]);
  return { workspace, members, invitations };
}

/** The link an invitation's e-mail carries: the web app's page for it, the token in its path. */
const invitationLink = (deps: Services, token: string) => new URL(`/invitations/${encodeURIComponent(token)}`, deps.config.APP_URL).href;

/** Mails the link (false: no SMTP server configured, or it refused: the inviter is told, and may pass the link on). */
async function mailInvitation(deps: Services, actor: Actor, workspace: WorkspaceRow, email: string, link: string): Promise<boolean> {
  const { SMTP_URL, SMTP_FROM, APP_URL } = deps.config;
  if (!SMTP_URL) return false;
  const text = [
    `${actor.name} invited you to the workspace "${workspace.name}" on Tributary, where your team's connectors, sources, destinations and transforms are shared.`,
    "",
    `To join, open this link and sign in with this address (${email}): ${link}`,
    "",
    `The link works once, for ${INVITATION_DAYS} days. If you did not expect it, ignore this e-mail.`,
    "",
  ].join("\n");
  try {
    await sendEmail({ smtpUrl: SMTP_URL, from: SMTP_FROM || defaultFrom(APP_URL) }, { to: email, subject: `${actor.name} invited you to ${workspace.name} on Tributary`, text }, async () => {});
    return true;
  } catch (error) {
    deps.log.warn({ workspaceId: workspace.id, err: (error as Error).message }, "invitation e-mail not sent");
    return false;
  }
}

export interface InvitationSent {
  invitation: InvitationRow;
  /** The link, for the inviter to pass on themselves: it works only for a sign-in with the invited address. */
  link: string;
  mailed: boolean;
}

/** Invites an address to the actor's workspace: a new single-use link, mailed. Refused for a member or a pending invitation. */
export async function invite(deps: Services, actor: Actor, raw: unknown): Promise<InvitationSent> {
  const workspace = await findMemberWorkspace(deps.db, actor.userId, actor.ownerId);
  if (!workspace) throw notFound(M.notFound);
  const email = parseFields(inviteBodySchema, raw).email.toLowerCase();
  if (await isMemberByEmail(deps.db, workspace.id, email)) throw conflict(M.alreadyMember(email), "email");
  if (await findOpenInvitationTo(deps.db, workspace.id, email)) throw conflict(M.alreadyInvited(email), "email");
  const token = randomToken();
  const invitation = await insertInvitation(deps.db, {
    workspaceId: workspace.id,
    email,
    tokenHash: sha256(token),
    invitedBy: actor.userId,
    expiresAt: new Date(Date.now() + INVITATION_DAYS * DAY_MS),
  });
  const link = invitationLink(deps, token);
  const mailed = await mailInvitation(deps, actor, workspace, email, link);
  await recordActivity(deps, actor, "invited", { type: "invitation", id: invitation.id, name: email });
  deps.log.info({ workspaceId: workspace.id, invitationId: invitation.id, mailed }, "invitation made");
  return { invitation, link, mailed };
}

/** Sends an open invitation again with a new link and a new week; the old link stops working. */
export async function resendInvitation(deps: Services, actor: Actor, id: string): Promise<InvitationSent> {
  const workspace = await findMemberWorkspace(deps.db, actor.userId, actor.ownerId);
  if (!workspace) throw notFound(M.notFound);
  const token = randomToken();
  const invitation = await renewInvitation(deps.db, workspace.id, id, sha256(token), new Date(Date.now() + INVITATION_DAYS * DAY_MS));
  if (!invitation) throw notFound(M.invitationNotFound);
  const link = invitationLink(deps, token);
  const mailed = await mailInvitation(deps, actor, workspace, invitation.email, link);
  await recordActivity(deps, actor, "invitation_resent", { type: "invitation", id: invitation.id, name: invitation.email });
  return { invitation, link, mailed };
}

export async function withdrawInvitation(deps: Services, actor: Actor, id: string): Promise<InvitationRow> {
  const invitation = await findInvitation(deps.db, actor.ownerId, id);
  if (!invitation || !(await revokeInvitation(deps.db, actor.ownerId, id))) throw notFound(M.invitationNotFound);
  await recordActivity(deps, actor, "revoked", { type: "invitation", id: invitation.id, name: invitation.email });
  return invitation;
}

/** Takes another member out of the workspace (removing oneself is leaving). */
export async function removeWorkspaceMember(deps: Services, actor: Actor, userId: string): Promise<MemberRow> {
  if (userId === actor.userId) throw invalid(M.removeSelf);
  const member = (await listMembers(deps.db, actor.ownerId)).find((m) => m.id === userId);
  if (!member) throw notFound(M.memberNotFound);
  const outcome = await removeMember(deps.db, actor.ownerId, userId);
  if (outcome === "not_member") throw notFound(M.memberNotFound);
  if (outcome === "last") throw conflict(M.lastMember);
  await recordActivity(deps, actor, "removed", { type: "member", id: member.id, name: member.name });
  deps.log.info({ workspaceId: actor.ownerId, userId: actor.userId, removed: userId }, "member removed");
  return member;
}

/** Leaves the workspace the actor works in (not its last member); they land in their personal workspace. */
export async function leaveWorkspace(deps: Services, actor: Actor): Promise<WorkspaceRow> {
  const workspace = await findMemberWorkspace(deps.db, actor.userId, actor.ownerId);
  if (!workspace) throw notFound(M.notFound);
  const outcome = await removeMember(deps.db, workspace.id, actor.userId);
  if (outcome === "last") throw conflict(M.lastMember);
  if (outcome === "not_member") throw notFound(M.notFound);
  await recordActivity(deps, actor, "left", { type: "member", id: actor.userId, name: actor.name });
  return workspace;
}

/**
 * An invitation link, checked for the signed-in person: the sentence why it cannot be used (a token of no invitation,
 * used, revoked, expired, or sent to another address), or the invitation.
 */
async function usableInvitation(deps: Services, email: string, token: string) {
  const found = typeof token === "string" && token.length > 0 && token.length <= 200 ? await findInvitationByTokenHash(deps.db, sha256(token)) : null;
  if (!found) throw notFound(M.invitationInvalid);
  if (found.acceptedAt) throw conflict(M.invitationUsed);
  if (found.revokedAt) throw conflict(M.invitationRevoked);
  if (found.expiresAt.getTime() <= Date.now()) throw conflict(M.invitationExpired);
  if (found.email !== email.trim().toLowerCase()) throw forbidden(M.invitationOtherAddress(found.email));
  return found;
}

/** What an invitation link offers the signed-in person (who is signed in with `email`). */
export async function invitationOffer(deps: Services, email: string, token: string) {
  return usableInvitation(deps, email, token);
}

/** Joins the workspace the link invites to, and works there from now on. The link is used up. */
export async function joinWithInvitation(deps: Services, actor: Actor, email: string, token: string): Promise<WorkspaceRow> {
  const invitation = await usableInvitation(deps, email, token);
  // Used, revoked or expired between the check and now: the same sentences, said again from the row's state.
  if (!(await acceptInvitation(deps.db, invitation.id, actor.userId))) {
    await usableInvitation(deps, email, token);
    throw conflict(M.invitationUsed);
  }
  await recordActivity(deps, { ...actor, ownerId: invitation.workspaceId }, "joined", { type: "member", id: actor.userId, name: actor.name });
  deps.log.info({ workspaceId: invitation.workspaceId, userId: actor.userId, invitationId: invitation.id }, "invitation accepted");
  return { id: invitation.workspaceId, name: invitation.workspaceName };
}
