import { SOURCE_MESSAGES } from "@contract/sources";
import { callBackend } from "~/services/backend.server";
import type { SourceSetupServer } from "../../source-setup.server";
import type { MeetLists } from "./lists";

/**
 * Google Meet: Authenticate records Tributary's Workspace service account (no redirect) and shows the delegation
 * steps; then the Workspace admin and scope (its groups), verified by a test connection.
 */
const meetServer: SourceSetupServer<MeetLists> = {
  authFlow: () => ({ redirect: false, body: {} }),
  async loadLists(request, credentialId, setup) {
    const lists: MeetLists = {};
    const errors: string[] = [];
    if (setup.meet_extraction_scope === "GROUP" && setup.admin_email) {
      const body = { credential_id: credentialId, admin_email: setup.admin_email };
      const result = await callBackend(request, "POST /externalauth/meet/get-groups", { json: body }, "Failed to load Google groups.");
      if (result.ok) lists.groups = result.data.groups;
      else errors.push(result.message);
    }
    return { lists, errors };
  },
  verifiedFields: ["admin_email", "meet_extraction_scope", "meet_group_id"],
  async verify(request, credentialId, setup) {
    const body = {
      credential_id: credentialId,
      admin_email: setup.admin_email ?? "",
      ...(setup.meet_extraction_scope === "GROUP" && setup.meet_group_id ? { group_ids: [setup.meet_group_id] } : {}),
    };
    const result = await callBackend(request, "POST /externalauth/meet/test_connection", { json: body }, SOURCE_MESSAGES.verificationFailed);
    return result.ok ? { ok: true, data: { success: result.data.status === "success", message: result.data.message } } : result;
  },
};

export default meetServer;
