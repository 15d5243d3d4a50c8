import { callBackend } from "~/services/backend.server";
import type { SourceSetupServer } from "../../source-setup.server";
import type { ZoomLists } from "./lists";

/** Zoom: OAuth consent, then the account's groups when the scope is one group. */
const zoomServer: SourceSetupServer<ZoomLists> = {
  authFlow: () => ({ redirect: true }),
  async loadLists(request, credentialId, setup) {
    const lists: ZoomLists = {};
    const errors: string[] = [];
    if (setup.zoom_extraction_scope === "GROUP") {
      const result = await callBackend(request, "POST /externalauth/zoom/get-groups", { json: { credential_id: credentialId } }, "Failed to load Zoom groups.");
      if (result.ok) lists.groups = result.data.groups;
      else errors.push(result.message);
    }
    return { lists, errors };
  },
};

export default zoomServer;
