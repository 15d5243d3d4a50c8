import { callBackend } from "~/services/backend.server";
import type { SetupLists } from "./source-setup";
import type { SourceSetupServer } from "./source-setup.server";

/** Zoom: OAuth consent, then the account's groups when the scope is one group. */
export const zoomServer: SourceSetupServer = {
  authFlow: () => ({ redirect: true }),
  async loadLists(request, credentialId, setup) {
    const lists: SetupLists = {};
    const errors: string[] = [];
    if (setup.zoom_extraction_scope === "GROUP") {
      const result = await callBackend(request, "POST /externalauth/zoom/get-groups", { json: { credential_id: credentialId } }, "Failed to load Zoom groups.");
      if (result.ok) lists.zoomGroups = result.data.groups;
      else errors.push(result.message);
    }
    return { lists, errors };
  },
};
