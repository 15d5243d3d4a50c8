import { SOURCE_MESSAGES } from "@contract/sources";
import { callBackend } from "~/services/backend.server";
import type { SourceSetupServer } from "../../source-setup.server";
import type { TeamsLists } from "./lists";

/** Microsoft Teams: admin consent, then the tenant's teams and the setup steps for the chosen scope, verified. */
const teamsServer: SourceSetupServer<TeamsLists> = {
  authFlow: () => ({ redirect: true }),
  async loadLists(request, credentialId, setup) {
    const lists: TeamsLists = {};
    const errors: string[] = [];
    const result = await callBackend(request, "POST /externalauth/teams/get-teams", { json: { credential_id: credentialId } }, "Failed to load teams.");
    if (result.ok) lists.teams = result.data.teams;
    else errors.push(result.message);
    const scope = setup.teams_extraction_scope === "TEAM" ? "TEAM" : "ORG";
    if (scope === "ORG" || setup.team_id) {
      const body = { credential_id: credentialId, scope, ...(scope === "TEAM" ? { team_id: setup.team_id } : {}) };
      const instructions = await callBackend(request, "POST /externalauth/teams/get-team-setup-instructions", { json: body }, "Unable to load instructions.");
      if (instructions.ok) lists.instructions = instructions.data;
      else errors.push(instructions.message);
    }
    return { lists, errors };
  },
  verifiedFields: ["teams_extraction_scope", "team_id"],
  verify: (request, credentialId, setup) =>
    callBackend(
      request,
      "POST /externalauth/teams/verify-setup",
      {
        json: {
          integration_name: "teams",
          credential_id: credentialId,
          scope: setup.teams_extraction_scope ?? "ORG",
          ...(setup.teams_extraction_scope === "TEAM" && setup.team_id ? { team_id: setup.team_id } : {}),
        },
      },
      SOURCE_MESSAGES.verificationFailed,
    ),
  refuseCreate: (metadata, lists) =>
    lists.teams?.find((t) => t.team_id === metadata?.team_id)?.already_configured ? { field: "team_id", message: SOURCE_MESSAGES.teamAlreadyConnected } : null,
};

export default teamsServer;
