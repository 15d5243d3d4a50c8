import { gmailManifest } from "@contract/integrations/gmail";
import { SOURCE_MESSAGES } from "@contract/sources";
import { callBackend } from "~/services/backend.server";
import type { AuthOption, SourceSetupServer } from "../../source-setup.server";
import type { GmailLists } from "./lists";

/** The mode that signs in one mailbox through Google's OAuth; the others authenticate the platform's service account. */
const INDIVIDUAL = "individual";

async function authOptions(request: Request): Promise<{ options: AuthOption[]; error: string | null }> {
  const outcome = await callBackend(request, "GET /externalauth/gmail/get_auth_options", {}, SOURCE_MESSAGES.gmailAuthOptionsFailed);
  if (outcome.ok) return { options: outcome.data.options, error: null };
  return { options: [], error: SOURCE_MESSAGES.gmailAuthOptionsFailed };
}

/** Gmail: an authentication mode first, then the Workspace admin and scope (its groups), tested in the verified modes. */
const gmailServer: SourceSetupServer<GmailLists> = {
  authModes: { ...gmailManifest.authModes, options: authOptions },
  authFlow: (mode) => (mode === INDIVIDUAL ? { redirect: true } : { redirect: false, body: { mode: mode ?? "" } }),
  redirectMode: INDIVIDUAL,
  async loadLists(request, credentialId, setup) {
    const lists: GmailLists = {};
    const errors: string[] = [];
    if (setup.gmail_extraction_scope === "GROUP" && setup.admin_email) {
      const body = { credential_id: credentialId, admin_email: setup.admin_email };
      const result = await callBackend(request, "POST /externalauth/gmail/get-groups", { json: body }, "Failed to load Google groups.");
      if (result.ok) lists.groups = result.data.groups;
      else errors.push(result.message);
    }
    return { lists, errors };
  },
  verifiedFields: ["admin_email", "gmail_extraction_scope", "gmail_group_id"],
  async verify(request, credentialId, setup, mode) {
    const body = {
      credential_id: credentialId,
      ...(mode === INDIVIDUAL ? {} : { admin_email: setup.admin_email ?? "" }),
      ...(setup.gmail_extraction_scope === "GROUP" && setup.gmail_group_id ? { group_ids: [setup.gmail_group_id] } : {}),
    };
    const result = await callBackend(request, "POST /externalauth/gmail/test_connection", { json: body }, SOURCE_MESSAGES.verificationFailed);
    return result.ok ? { ok: true, data: { success: result.data.status === "success", message: result.data.message } } : result;
  },
};

export default gmailServer;
