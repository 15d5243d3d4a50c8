import { WORKSPACE_MESSAGES as M } from "@contract/workspaces";
import { callBackend } from "./backend.server";

/**
 * The member's workspaces (issue 51): the layout's list (which also proves the session), switching, a new workspace,
 * the Members page's calls and the invitation link's check and accept.
 */

/** The page a link opens, when it is a record's: `connectors/<id>`, for the backend to open it in the workspace that holds it. */
const RECORD_PAGE = /^\/(sources|destinations|connectors|transforms)\/(?:details|edit)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

export function loadWorkspaces(request: Request) {
  const record = RECORD_PAGE.exec(new URL(request.url).pathname);
  return callBackend(request, "GET /workspaces", { query: { open: record ? `${record[1]}/${record[2]}` : undefined } }, M.fetchFailed);
}

export const switchWorkspace = (request: Request, id: string) => callBackend(request, "POST /workspaces/:id/switch", { params: { id }, json: {} }, M.actionFailed);
export const createWorkspace = (request: Request, name: string) => callBackend(request, "POST /workspaces", { json: { name } }, M.actionFailed);
export const renameWorkspace = (request: Request, name: string) => callBackend(request, "PUT /workspace", { json: { name } }, M.actionFailed);
export const loadMembers = (request: Request) => callBackend(request, "GET /workspace/members", {}, M.fetchFailed);
export const inviteMember = (request: Request, email: string) => callBackend(request, "POST /workspace/invitations", { json: { email } }, M.actionFailed);
export const resendInvitation = (request: Request, id: string) =>
  callBackend(request, "POST /workspace/invitations/:id/resend", { params: { id }, json: {} }, M.actionFailed);
export const revokeInvitation = (request: Request, id: string) =>
  callBackend(request, "POST /workspace/invitations/:id/revoke", { params: { id }, json: {} }, M.actionFailed);
export const removeMember = (request: Request, userId: string) =>
  callBackend(request, "POST /workspace/members/:userId/remove", { params: { userId }, json: {} }, M.actionFailed);
export const leaveWorkspace = (request: Request) => callBackend(request, "POST /workspace/leave", { json: {} }, M.actionFailed);
export const checkInvitation = (request: Request, token: string) => callBackend(request, "POST /invitations/check", { json: { token } }, M.actionFailed);
export const acceptInvitation = (request: Request, token: string) => callBackend(request, "POST /invitations/accept", { json: { token } }, M.actionFailed);
