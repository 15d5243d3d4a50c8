import { SOURCE_MESSAGES } from "@contract/sources";
import { callBackend } from "~/services/backend.server";
import type { SourceSetupServer } from "../../source-setup.server";
import type { OutlookLists } from "./lists";

/** Outlook: Microsoft's admin consent, then the scope (a group from the organization's list), verified by a connection test. */
const outlookServer: SourceSetupServer<OutlookLists> = {
  authFlow: () => ({ redirect: true }),
  async loadLists(request, credentialId, setup) {
    const lists: OutlookLists = {};
    const errors: string[] = [];
    if (setup.outlook_extraction_scope === "GROUP") {
      const result = await callBackend(request, "POST /externalauth/outlook/get-groups", { json: { credential_id: credentialId } }, "Failed to load Microsoft 365 groups.");
      if (result.ok) lists.groups = result.data.groups;
      else errors.push(result.message);
    }
    return { lists, errors };
  },
  verifiedFields: ["outlook_extraction_scope", "outlook_group_id"],
  async verify(request, credentialId, setup) {
    const scope = setup.outlook_extraction_scope === "GROUP" ? "GROUP" : "ORG";
    const body = { credential_id: credentialId, scope, ...(scope === "GROUP" ? { group_id: setup.outlook_group_id ?? "" } : {}) } as const;
    const result = await callBackend(request, "POST /externalauth/outlook/test_connection", { json: body }, SOURCE_MESSAGES.verificationFailed);
    return result.ok ? { ok: true, data: { success: result.data.status === "success", message: result.data.message } } : result;
  },
};

export default outlookServer;
