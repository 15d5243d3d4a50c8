import { DEFAULT_GMAIL_AUTH_MODE, GMAIL_AUTH_MODES, SOURCE_MESSAGES, type GoogleGroup } from "@contract/sources";
import { backendFetch } from "~/services/backend.server";
import { call } from "~/services/source-call.server";
import type { SetupLists } from "./source-setup";
import type { AuthOption, SourceSetupServer } from "./source-setup.server";

/** The mode that signs in one mailbox through Google's OAuth; the others authenticate the platform's service account. */
const INDIVIDUAL = "individual";

async function authOptions(request: Request): Promise<{ options: AuthOption[]; error: string | null }> {
  try {
    const response = await backendFetch(request, "/externalauth/gmail/get_auth_options");
    if (response.ok) {
      const body = (await response.json()) as { options?: AuthOption[] };
      if (Array.isArray(body.options)) return { options: body.options, error: null };
    } else await response.body?.cancel();
  } catch {
    // reported below
  }
  return { options: [], error: SOURCE_MESSAGES.gmailAuthOptionsFailed };
}

/** Gmail: an authentication mode first, then the Workspace admin and scope (its groups), tested in the verified modes. */
export const gmailServer: SourceSetupServer = {
  authModes: {
    field: "gmail_auth_mode",
    modes: GMAIL_AUTH_MODES,
    defaultMode: DEFAULT_GMAIL_AUTH_MODE,
    required: SOURCE_MESSAGES.gmailAuthTypeRequired,
    options: authOptions,
  },
  authFlow: (mode) => (mode === INDIVIDUAL ? { redirect: true } : { redirect: false, body: { mode: mode ?? "" } }),
  redirectMode: INDIVIDUAL,
  async loadLists(request, credentialId, setup) {
    const lists: SetupLists = {};
    const errors: string[] = [];
    if (setup.gmail_extraction_scope === "GROUP" && setup.admin_email) {
      const body = { credential_id: credentialId, admin_email: setup.admin_email };
      const result = await call<{ groups: GoogleGroup[] }>(request, "/externalauth/gmail/get-groups", { method: "POST", json: body }, "Failed to load Google groups.");
      if (result.ok) lists.googleGroups = result.value.groups;
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
    const result = await call<{ status: string; message: string }>(request, "/externalauth/gmail/test_connection", { method: "POST", json: body }, SOURCE_MESSAGES.verificationFailed);
    return result.ok ? { ok: true, value: { success: result.value.status === "success", message: result.value.message } } : result;
  },
};
