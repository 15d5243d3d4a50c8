import { z } from "zod";
import { storable, storableName } from "./text.js";

/**
 * Workspaces (issue 51): a team's records, shared by its members, without roles (every member may do everything). A
 * member invites by e-mail from the Members page; the link is used once, lapses after INVITATION_DAYS, and is good
 * only for a sign-in with the address it was sent to. Anyone may leave; the last member may not.
 */

export const INVITATION_DAYS = 7;
export const WORKSPACE_NAME_MAX = 100;

export const WORKSPACE_MESSAGES = {
  nameRequired: "Please enter a name for the workspace",
  nameTooLong: `The name must be ${WORKSPACE_NAME_MAX} characters or fewer`,
  emailInvalid: "Please enter a valid e-mail address",
  notFound: "Workspace not found",
  memberNotFound: "Member not found",
  invitationNotFound: "Invitation not found",
  fetchFailed: "Failed to fetch the workspace's members",
  actionFailed: "That did not work. Please try again in a moment.",
  created: (name: string) => `Workspace created: ${name}. Invite your team from here.`,
  renamed: "Workspace renamed",
  invited: (email: string) => `Invitation sent to ${email}. The link works for ${INVITATION_DAYS} days, once.`,
  invitedNotMailed: (email: string) =>
    `The invitation to ${email} is saved, but the e-mail could not be sent. Check the server's e-mail settings, then press Resend.`,
  resent: (email: string) => `Invitation sent again to ${email}. The earlier link no longer works.`,
  revoked: (email: string) => `Invitation to ${email} revoked. Its link no longer works.`,
  alreadyMember: (email: string) => `${email} is already a member of this workspace.`,
  alreadyInvited: (email: string) => `${email} already has a pending invitation. Resend it from the list below.`,
  removed: (name: string) => `${name} was removed from this workspace. Their API keys for it no longer work.`,
  removeSelf: "To leave this workspace, use Leave workspace.",
  left: (name: string) => `You left ${name}.`,
  lastMember: "You are the last member of this workspace, so you cannot leave it. Invite someone first, or keep it.",
  switched: (name: string) => `You are now working in ${name}.`,
  // The invitation link's page.
  invitationInvalid: "This invitation link is not valid. Check that you copied all of it, or ask for a new invitation.",
  invitationUsed: "This invitation has already been used. Ask the workspace's members for a new one if you still need to join.",
  invitationExpired: `This invitation has expired: links work for ${INVITATION_DAYS} days. Ask the workspace's members for a new one.`,
  invitationRevoked: "This invitation was withdrawn. Ask the workspace's members for a new one.",
  invitationOtherAddress: (email: string) => `This invitation is for ${email}. Sign out, then sign in with that address to accept it.`,
  joined: (name: string) => `You joined ${name}.`,
} as const;
const M = WORKSPACE_MESSAGES;

export const workspaceNameSchema = storableName(
  z.string({ required_error: M.nameRequired, invalid_type_error: M.nameRequired }).trim().min(1, M.nameRequired).max(WORKSPACE_NAME_MAX, M.nameTooLong),
  "The name",
);

const emailSchema = storable(
  z.string({ required_error: M.emailInvalid, invalid_type_error: M.emailInvalid }).trim().min(1, M.emailInvalid).max(320, M.emailInvalid).email(M.emailInvalid),
  "The e-mail address",
);

/** POST /workspaces: a new workspace, its maker its first member (and working in it). */
export const createWorkspaceBodySchema = z.object({ name: workspaceNameSchema });
/** PUT /workspace: the current workspace's new name. */
export const renameWorkspaceBodySchema = createWorkspaceBodySchema;
/** POST /workspace/invitations: who to invite. */
export const inviteBodySchema = z.object({ email: emailSchema });

/** The Members page's forms, told apart by the button pressed (`intent`); each field checked as its call checks it. */
export const membersFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: emailSchema }),
  z.object({ intent: z.literal("rename"), name: workspaceNameSchema }),
  z.object({ intent: z.literal("create"), new_name: workspaceNameSchema }),
  z.object({ intent: z.enum(["resend", "revoke", "remove"]), id: z.string().default("") }),
  z.object({ intent: z.literal("leave") }),
]);
/** The field each of those forms has, where its refusal is shown. */
export const MEMBERS_FORM_FIELDS = { invite: "email", rename: "name", create: "new_name" } as const;
/** The profile menu's switch: which workspace. */
export const switchWorkspaceFormSchema = z.object({ workspace_id: z.string().default("") });
/** The invitation page's Join: no field (the token is the page's address). */
export const joinWorkspaceFormSchema = z.object({});

export const workspaceRefSchema = z.object({ id: z.string(), name: z.string() });
export type WorkspaceRef = z.infer<typeof workspaceRefSchema>;

/** GET /workspaces: where the member works now, and every workspace they belong to (by name). */
export const workspacesSchema = z.object({ current: workspaceRefSchema, workspaces: z.array(workspaceRefSchema) });
export type Workspaces = z.infer<typeof workspacesSchema>;

export const memberSchema = z.object({ id: z.string(), name: z.string(), email: z.string(), joined_at: z.string(), you: z.boolean() });
export type Member = z.infer<typeof memberSchema>;

export const INVITATION_STATUSES = ["pending", "expired"] as const;
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  status: z.enum(INVITATION_STATUSES),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** GET /workspace/members: the current workspace, its members and its invitations not yet used or revoked. */
export const membersPageSchema = z.object({ workspace: workspaceRefSchema, members: z.array(memberSchema), invitations: z.array(invitationSchema) });
export type MembersPage = z.infer<typeof membersPageSchema>;

export const workspaceDoneSchema = z.object({ message: z.string(), workspace: workspaceRefSchema });
/** An invitation made or sent again: its link (for the inviter to pass on when no e-mail could be sent), once. */
export const invitationDoneSchema = z.object({ message: z.string(), invitation: invitationSchema, link: z.string(), mailed: z.boolean() });
export type InvitationDone = z.infer<typeof invitationDoneSchema>;
/** POST /invitations/check and /invitations/accept: the link's token. */
export const invitationTokenBodySchema = z.object({ token: z.string().max(200) });
export const messageOnlySchema = z.object({ message: z.string() });

/** GET /invitations/:token: what the link offers, for the signed-in person to accept (or the sentence why not). */
export const invitationOfferSchema = z.object({ workspace: workspaceRefSchema, invited_by: z.string().nullable(), email: z.string(), expires_at: z.string() });
export type InvitationOffer = z.infer<typeof invitationOfferSchema>;
